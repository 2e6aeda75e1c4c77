/** USPS state and territory codes with their names (Publication 28, Appendix B). */
// prettier-ignore
export const US_STATES: Readonly<Record<string, string>> = {
  AL: 'ALABAMA', AK: 'ALASKA', AZ: 'ARIZONA', AR: 'ARKANSAS', CA: 'CALIFORNIA', CO: 'COLORADO',
  CT: 'CONNECTICUT', DE: 'DELAWARE', DC: 'DISTRICT OF COLUMBIA', FL: 'FLORIDA', GA: 'GEORGIA', HI: 'HAWAII',
  ID: 'IDAHO', IL: 'ILLINOIS', IN: 'INDIANA', IA: 'IOWA', KS: 'KANSAS', KY: 'KENTUCKY', LA: 'LOUISIANA',
  ME: 'MAINE', MD: 'MARYLAND', MA: 'MASSACHUSETTS', MI: 'MICHIGAN', MN: 'MINNESOTA', MS: 'MISSISSIPPI',
  MO: 'MISSOURI', MT: 'MONTANA', NE: 'NEBRASKA', NV: 'NEVADA', NH: 'NEW HAMPSHIRE', NJ: 'NEW JERSEY',
  NM: 'NEW MEXICO', NY: 'NEW YORK', NC: 'NORTH CAROLINA', ND: 'NORTH DAKOTA', OH: 'OHIO', OK: 'OKLAHOMA',
  OR: 'OREGON', PA: 'PENNSYLVANIA', RI: 'RHODE ISLAND', SC: 'SOUTH CAROLINA', SD: 'SOUTH DAKOTA',
  TN: 'TENNESSEE', TX: 'TEXAS', UT: 'UTAH', VT: 'VERMONT', VA: 'VIRGINIA', WA: 'WASHINGTON',
  WV: 'WEST VIRGINIA', WI: 'WISCONSIN', WY: 'WYOMING', AS: 'AMERICAN SAMOA', GU: 'GUAM',
  MP: 'NORTHERN MARIANA ISLANDS', PR: 'PUERTO RICO', VI: 'VIRGIN ISLANDS', AA: 'ARMED FORCES AMERICAS',
  AE: 'ARMED FORCES EUROPE', AP: 'ARMED FORCES PACIFIC',
};

const byName = new Map(Object.entries(US_STATES).map(([code, name]) => [name, code]));

/** USPS code for a code or name in any case and spacing; null when unknown. */
export function stateCode(input: string): string | null {
  const s = input.trim().toUpperCase().replace(/\./g, '').replace(/\s+/g, ' ');
  if (s.length === 2) return s in US_STATES ? s : null;
  return byName.get(s) ?? null;
}

export const isUsState = (input: string): boolean => stateCode(input) !== null;
