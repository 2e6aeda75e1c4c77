/**
 * The CSV field delimiter of a file, from its first lines: of `,` `;` tab and `|`, the one
 * that splits the header into the most fields while splitting the lines after it into as
 * many (quotes respected). Spreadsheets in much of Europe save "CSV" with `;`, exports
 * from databases use tab or `|`; a file with one column has no delimiter to find and is `,`.
 */
export const DELIMITERS = [',', ';', '\t', '|'] as const;
export type Delimiter = (typeof DELIMITERS)[number];

/** The names a delimiter may be given by (`?delimiter=`, `--delimiter`), besides itself. */
const NAMES: Record<string, Delimiter> = {
  comma: ',',
  semicolon: ';',
  tab: '\t',
  '\\t': '\t',
  pipe: '|',
};

/** A delimiter as given (`;`, `semicolon`, `tab`, `\t`…), or undefined when it is none of the four. */
export function delimiterOf(given: string): Delimiter | undefined {
  if ((DELIMITERS as readonly string[]).includes(given)) return given as Delimiter;
  return NAMES[given.trim().toLowerCase()];
}

/** Its readable name: "comma", "semicolon", "tab", "pipe". */
export const delimiterName = (d: string): string =>
  Object.entries(NAMES).find(([name, value]) => value === d && name !== '\\t')?.[0] ?? d;

/** Per line of `text` (at most `maxLines`), how many times each delimiter occurs outside quotes. */
function counts(text: string, maxLines: number): Map<string, number>[] {
  const lines: Map<string, number>[] = [];
  let current = new Map<string, number>();
  let quoted = false;
  for (let i = 0; i < text.length && lines.length < maxLines; i++) {
    const c = text[i]!;
    if (c === '"') quoted = !quoted;
    else if (!quoted && (c === '\n' || c === '\r')) {
      if (c === '\r' && text[i + 1] === '\n') i++;
      lines.push(current);
      current = new Map();
    } else if (!quoted && (DELIMITERS as readonly string[]).includes(c)) current.set(c, (current.get(c) ?? 0) + 1);
  }
  // The last line only when it ended: a line cut off mid-way would count short.
  return lines.length > 0 ? lines : [current];
}

export function sniffDelimiter(text: string, maxLines = 20): Delimiter {
  const lines = counts(text, maxLines);
  let best: Delimiter = ',';
  let bestScore = 0;
  for (const d of DELIMITERS) {
    const header = lines[0]!.get(d) ?? 0;
    if (header === 0) continue;
    const rest = lines.slice(1);
    const same = rest.filter((line) => (line.get(d) ?? 0) === header).length;
    // Consistency first (a comma inside "Smith, John" is not a delimiter), then how many fields.
    const score = (rest.length === 0 ? 1 : same / rest.length) * 1000 + header;
    if (score > bestScore) {
      best = d;
      bestScore = score;
    }
  }
  return best;
}
