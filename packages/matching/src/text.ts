/** Shared text folding for addresses and names: upper case, ASCII, no accents. */

const COMBINING_MARKS = /[\u0300-\u036f]/g;
const NON_ASCII = /[^ -~]/;
/** Only ASCII letters, digits and spaces. */
const PLAIN = /^[A-Za-z0-9 ]*$/;

/** Upper-cases and strips diacritics (NFD + drop combining marks): "Peña" → "PENA". */
export function foldAscii(input: string): string {
  const upper = input.toUpperCase();
  if (!NON_ASCII.test(upper)) return upper;
  return upper
    .normalize('NFD')
    .replace(COMBINING_MARKS, '')
    .replace(/ß/g, 'SS')
    .replace(/Æ/g, 'AE')
    .replace(/Ø/g, 'O')
    .replace(/Ł/g, 'L');
}

/**
 * Splits an address line into upper-case tokens. Dotted compass pairs join ("N.E." → NE),
 * apostrophes vanish ("O'Hare" → OHARE),
 * `#` becomes its own token, `/` survives for fractions (1/2) and `-` survives inside a
 * token (123-A, 5-B) but not at its edges; every other punctuation mark separates tokens.
 */
export function addressTokens(input: string): string[] {
  // Most lines are letters, digits and single spaces ("123 Main St"): none of the rules
  // below changes them, so they are only upper-cased and split.
  if (PLAIN.test(input)) {
    const tokens = input.toUpperCase().split(' ');
    return tokens.includes('') ? tokens.filter((token) => token !== '') : tokens;
  }
  const cleaned = foldAscii(input)
    .replace(/\b([NS])\.\s?([EW])(?:\.|$)/g, '$1$2 ') // "S.W." → SW, not "S. E St"
    .replace(/['\u2019`]/g, '')
    .replace(/#/g, ' # ')
    .replace(/[^A-Z0-9#/ -]+/g, ' ');
  const tokens: string[] = [];
  for (const raw of cleaned.split(' ')) {
    const token = raw.replace(/^[-/]+|[-/]+$/g, '');
    if (token !== '') tokens.push(token);
  }
  return tokens;
}

/** Collapses a free-text field (city) into single-spaced upper-case words. */
export function cleanWords(input: string | null | undefined): string {
  if (input == null) return '';
  return addressTokens(input)
    .filter((token) => token !== '#')
    .join(' ');
}
