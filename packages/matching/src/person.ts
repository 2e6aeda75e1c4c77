// A person's name as the comparisons read it: written by names.ts, read by compare.ts.

export interface NormalizedPerson {
  first: string[];
  last: string[];
  /** Last name with spaces removed: "DE LA CRUZ" → "DELACRUZ", "MC DONALD" → "MCDONALD". */
  lastCompact: string;
  /** An organisation (LLC, TRUST …) rather than a person; person matching is skipped. */
  entity: boolean;
}
