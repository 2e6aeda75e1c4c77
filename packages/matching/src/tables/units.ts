/**
 * USPS Publication 28, Appendix C2 — secondary unit designators — plus directionals (§ 233).
 *
 * Source: https://pe.usps.com/text/pub28/28apc_003.htm and Pub 28 § 233. Pub 28 is a US
 * Government work in the public domain; this transcription is ours (MIT). The extra
 * spellings beyond the C2 "approved abbreviation" column (APPT, STE., FLR, BLD …) are
 * forms we see in lead lists; they are our own additions.
 */

/** Designator standard → whether Pub 28 requires a secondary range (number) after it. */
export const UNIT_REQUIRES_RANGE: ReadonlyMap<string, boolean> = new Map([
  ['APT', true],
  ['BSMT', false],
  ['BLDG', true],
  ['DEPT', true],
  ['FL', true],
  ['FRNT', false],
  ['HNGR', true],
  ['KEY', true],
  ['LBBY', false],
  ['LOT', true],
  ['LOWR', false],
  ['OFC', false],
  ['PH', false],
  ['PIER', true],
  ['REAR', false],
  ['RM', true],
  ['SIDE', false],
  ['SLIP', true],
  ['SPC', true],
  ['STOP', true],
  ['STE', true],
  ['TRLR', true],
  ['UNIT', true],
  ['UPPR', false],
  ['#', true],
]);

const UNIT_FORMS: readonly (readonly string[])[] = [
  ['APT', 'APARTMENT', 'APPT', 'APTMT', 'APTS'],
  ['BSMT', 'BASEMENT'],
  ['BLDG', 'BUILDING', 'BLD', 'BLDNG'],
  ['DEPT', 'DEPARTMENT'],
  ['FL', 'FLOOR', 'FLR'],
  ['FRNT', 'FRONT'],
  ['HNGR', 'HANGAR', 'HANGER'],
  ['KEY', 'KEY'],
  ['LBBY', 'LOBBY'],
  ['LOT', 'LOT'],
  ['LOWR', 'LOWER'],
  ['OFC', 'OFFICE'],
  ['PH', 'PENTHOUSE', 'PENT'],
  ['PIER', 'PIER'],
  ['REAR', 'REAR'],
  ['RM', 'ROOM'],
  ['SIDE', 'SIDE'],
  ['SLIP', 'SLIP'],
  ['SPC', 'SPACE'],
  ['STOP', 'STOP'],
  ['STE', 'SUITE', 'SUIT', 'STES'],
  ['TRLR', 'TRAILER'],
  ['UNIT', 'UNT'],
  ['UPPR', 'UPPER', 'UPR'],
  ['#', 'NUMBER', 'NUM', 'NO'],
];

/** Any designator form → its Pub 28 C2 standard ('#' when only a pound sign was given). */
export const UNIT_BY_FORM: ReadonlyMap<string, string> = new Map(
  UNIT_FORMS.flatMap(([standard, ...forms]) =>
    [standard as string, ...forms].map((form) => [form, standard as string] as const),
  ),
);

/** Directional words and abbreviations → Pub 28 one- or two-letter directional. */
export const DIRECTIONAL_BY_FORM: ReadonlyMap<string, string> = new Map([
  ['N', 'N'],
  ['NORTH', 'N'],
  ['S', 'S'],
  ['SOUTH', 'S'],
  ['E', 'E'],
  ['EAST', 'E'],
  ['W', 'W'],
  ['WEST', 'W'],
  ['NE', 'NE'],
  ['NORTHEAST', 'NE'],
  ['NW', 'NW'],
  ['NORTHWEST', 'NW'],
  ['SE', 'SE'],
  ['SOUTHEAST', 'SE'],
  ['SW', 'SW'],
  ['SOUTHWEST', 'SW'],
]);

/** Pub 28 directional → the spelled-out word (for "North Ave", where it is the street name). */
export const DIRECTIONAL_WORD: ReadonlyMap<string, string> = new Map([
  ['N', 'NORTH'],
  ['S', 'SOUTH'],
  ['E', 'EAST'],
  ['W', 'WEST'],
  ['NE', 'NORTHEAST'],
  ['NW', 'NORTHWEST'],
  ['SE', 'SOUTHEAST'],
  ['SW', 'SOUTHWEST'],
]);
