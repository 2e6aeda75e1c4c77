/**
 * Spelled-out numbers used in street names and house numbers ("First Ave", "One Main St").
 * Our own table (MIT). Pub 28 § 232 prints numbered street names as numerals with an
 * ordinal suffix (1ST, 22ND), so words are converted to that form.
 */
export const ORDINAL_WORDS: ReadonlyMap<string, number> = new Map([
  ['FIRST', 1],
  ['SECOND', 2],
  ['THIRD', 3],
  ['FOURTH', 4],
  ['FIFTH', 5],
  ['SIXTH', 6],
  ['SEVENTH', 7],
  ['EIGHTH', 8],
  ['NINTH', 9],
  ['TENTH', 10],
  ['ELEVENTH', 11],
  ['TWELFTH', 12],
  ['THIRTEENTH', 13],
  ['FOURTEENTH', 14],
  ['FIFTEENTH', 15],
  ['SIXTEENTH', 16],
  ['SEVENTEENTH', 17],
  ['EIGHTEENTH', 18],
  ['NINETEENTH', 19],
  ['TWENTIETH', 20],
  ['THIRTIETH', 30],
  ['FORTIETH', 40],
  ['FIFTIETH', 50],
  ['SIXTIETH', 60],
  ['SEVENTIETH', 70],
  ['EIGHTIETH', 80],
  ['NINETIETH', 90],
  ['HUNDREDTH', 100],
]);

/** Cardinal words; tens combine with a following unit word ("TWENTY ONE", "TWENTY-FIRST"). */
export const CARDINAL_WORDS: ReadonlyMap<string, number> = new Map([
  ['ONE', 1],
  ['TWO', 2],
  ['THREE', 3],
  ['FOUR', 4],
  ['FIVE', 5],
  ['SIX', 6],
  ['SEVEN', 7],
  ['EIGHT', 8],
  ['NINE', 9],
  ['TEN', 10],
  ['ELEVEN', 11],
  ['TWELVE', 12],
  ['THIRTEEN', 13],
  ['FOURTEEN', 14],
  ['FIFTEEN', 15],
  ['SIXTEEN', 16],
  ['SEVENTEEN', 17],
  ['EIGHTEEN', 18],
  ['NINETEEN', 19],
  ['TWENTY', 20],
  ['THIRTY', 30],
  ['FORTY', 40],
  ['FIFTY', 50],
  ['SIXTY', 60],
  ['SEVENTY', 70],
  ['EIGHTY', 80],
  ['NINETY', 90],
]);

/** 1 → "1ST", 12 → "12TH", 22 → "22ND". */
export function ordinalSuffix(n: number): string {
  const lastTwo = n % 100;
  if (lastTwo >= 11 && lastTwo <= 13) return `${n}TH`;
  const last = n % 10;
  if (last === 1) return `${n}ST`;
  if (last === 2) return `${n}ND`;
  if (last === 3) return `${n}RD`;
  return `${n}TH`;
}
