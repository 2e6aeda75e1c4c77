/**
 * A streaming RFC 4180 CSV reader tuned for contact files. Most vendor rows carry no
 * quotes, so a line without `"` is split with String#split (the fast path, a few hundred
 * nanoseconds a row); a line with quotes goes through a small state machine that handles
 * doubled quotes and commas and newlines inside quoted fields, across chunk boundaries.
 * Records are yielded in arrays (one per input chunk) to keep async overhead per row low.
 */

export interface CsvRecord {
  /** 1-based line on which the record starts (the header is line 1). */
  line: number;
  /** The fields, or null when the record is malformed (see error). */
  fields: string[] | null;
  error?: string;
}

/** A quoted record longer than this (characters) is taken for an unbalanced quote. */
export const MAX_RECORD_CHARS = 1024 * 1024;

interface Quoted {
  fields: string[] | null;
  error?: string;
  /** Index just past the record's terminating newline (or end of text). */
  end: number;
  /** Newlines consumed, including the terminating one. */
  newlines: number;
}

/** Parses one record with quotes from text[start]; undefined when more text is needed. */
function parseQuoted(text: string, start: number, final: boolean): Quoted | undefined {
  const fields: string[] = [];
  let field = '';
  let i = start;
  let newlines = 0;
  for (;;) {
    if (i >= text.length) {
      if (!final) return undefined;
      fields.push(field);
      return { fields, end: i, newlines };
    }
    if (text.charCodeAt(i) === 34 /* " */ && field === '') {
      // Quoted field: read to the closing quote, turning "" into ".
      let j = i + 1;
      for (;;) {
        const q = text.indexOf('"', j);
        if (q === -1) {
          if (!final) return undefined;
          return { fields: null, error: 'unterminated quoted field', end: text.length, newlines };
        }
        newlines += countNewlines(text, j, q);
        if (text.charCodeAt(q + 1) === 34) {
          field += `${text.slice(j, q)}"`;
          j = q + 2;
          continue;
        }
        if (q + 1 >= text.length && !final) return undefined;
        field += text.slice(j, q);
        i = q + 1;
        break;
      }
      const next = text.charCodeAt(i);
      if (i < text.length && next !== 44 && next !== 10 && next !== 13) {
        const nl = text.indexOf('\n', i);
        if (nl === -1 && !final) return undefined;
        const end = nl === -1 ? text.length : nl + 1;
        return { fields: null, error: 'text after closing quote', end, newlines: newlines + (nl === -1 ? 0 : 1) };
      }
      continue;
    }
    const c = text.charCodeAt(i);
    if (c === 44 /* , */) {
      fields.push(field);
      field = '';
      i++;
    } else if (c === 10 || c === 13) {
      if (c === 13 && i + 1 >= text.length && !final) return undefined;
      fields.push(field);
      const end = c === 13 && text.charCodeAt(i + 1) === 10 ? i + 2 : i + 1;
      return { fields, end, newlines: newlines + 1 };
    } else {
      field += text[i];
      i++;
    }
  }
}

function countNewlines(text: string, from: number, to: number): number {
  let n = 0;
  for (let k = text.indexOf('\n', from); k !== -1 && k < to; k = text.indexOf('\n', k + 1)) n++;
  return n;
}

export async function* csvRecords(chunks: AsyncIterable<string>): AsyncGenerator<CsvRecord[]> {
  let carry = '';
  let line = 1;
  const drain = (text: string, final: boolean): CsvRecord[] => {
    const out: CsvRecord[] = [];
    let pos = 0;
    // Next quote at or after pos (-1: none left); searched again only once passed, so a
    // quote-free chunk is scanned once rather than once per line.
    let quote = text.indexOf('"');
    while (pos < text.length) {
      const nl = text.indexOf('\n', pos);
      if (nl === -1 && !final) break;
      const lineEnd = nl === -1 ? text.length : nl;
      if (quote !== -1 && quote < pos) quote = text.indexOf('"', pos);
      if (quote === -1 || quote > lineEnd) {
        const end = lineEnd > pos && text.charCodeAt(lineEnd - 1) === 13 ? lineEnd - 1 : lineEnd;
        if (end > pos) out.push({ line, fields: text.slice(pos, end).split(',') });
        line++;
        pos = lineEnd + 1;
        continue;
      }
      const parsed = parseQuoted(text, pos, final);
      if (parsed === undefined) {
        if (text.length - pos <= MAX_RECORD_CHARS) break;
        // Unbalanced quote: reject the record's first line and resynchronise after it.
        out.push({ line, fields: null, error: `quoted field longer than ${MAX_RECORD_CHARS} characters` });
        line++;
        pos = lineEnd + 1;
        continue;
      }
      out.push(parsed.error ? { line, fields: null, error: parsed.error } : { line, fields: parsed.fields });
      line += parsed.newlines;
      pos = parsed.end;
    }
    carry = text.slice(pos);
    return out;
  };
  for await (const chunk of chunks) {
    const out = drain(carry + chunk, false);
    if (out.length > 0) yield out;
  }
  if (carry.length > 0) {
    const out = drain(carry, true);
    if (out.length > 0) yield out;
  }
}
