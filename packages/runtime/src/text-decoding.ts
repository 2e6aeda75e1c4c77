/**
 * The one text decoder of every upload and import (batch uploads and their preview, contact
 * and suppression imports): bytes become text by, in this order, a byte-order mark (UTF-8,
 * UTF-16LE, UTF-16BE), the declared charset (`text/csv; charset=iso-8859-1`, `?charset=`,
 * `--charset`), UTF-16 recognised from the NUL bytes of ASCII text (UTF-16 without a BOM),
 * else detection: ASCII passes as it comes, and at the first byte above 0x7F the next
 * 64 KiB (or the rest) decide — valid UTF-8 is UTF-8, anything else is what the chardet
 * detector names (Windows-1252 / ISO-8859-1 for the accents of a spreadsheet saved as
 * "CSV" on Windows). Decoding is strict
 * (the platform's WHATWG TextDecoder with `fatal`): bytes that are not valid in the
 * chosen encoding are refused with a 400 naming it, never turned into U+FFFD silently.
 * Labels follow the WHATWG Encoding Standard, so `iso-8859-1` and `latin1` decode as
 * windows-1252 (as browsers do), a superset for every printable character.
 */
import { isAscii } from 'node:buffer';
import { TextDecoder } from 'node:util';
import { analyse } from 'chardet';
import { ApiError } from './api-error.ts';

/**
 * The index of the first byte above 0x7F, or -1. Most files are ASCII throughout: the
 * native check answers for a 64 KiB chunk in about 1 µs, where `findIndex` with a callback
 * took 450 (7 ns a byte, 0.4 s for a 60 MB pure-ASCII file; a file with an accent near
 * its start leaves ASCII mode at once and never paid it).
 */
function firstNonAscii(bytes: Uint8Array): number {
  if (isAscii(bytes)) return -1;
  for (let i = 0; i < bytes.length; i++) if (bytes[i]! > 0x7f) return i;
  return -1;
}

export interface DecodeTextOptions {
  /** Declared charset label (e.g. from Content-Type), if any. */
  charset?: string;
  /** What is being decoded, for messages ("the upload", "the file"). */
  what?: string;
  /** Told the encoding once it is chosen, and how (see EncodingChoice). */
  onEncoding?: (choice: EncodingChoice) => void;
}

/**
 * The encoding a body was read in and what chose it: its byte-order mark, the declared
 * charset, the UTF-16 NUL pattern, detection (`detected`), or nothing above ASCII at all
 * (`ascii`: read as UTF-8, which every ASCII text is).
 */
export interface EncodingChoice {
  encoding: string;
  source: 'bom' | 'declared' | 'utf16-pattern' | 'detected' | 'ascii';
}

/** Bytes from the first non-ASCII byte on that detection looks at. */
const DETECT_BYTES = 64 * 1024;

/**
 * Encodings detection may answer, by chardet's names → WHATWG labels: the Unicode ones and
 * the single-byte Western ones lists are saved in. A detector's other answers (Cyrillic,
 * Greek, CJK code pages) for a US property list are far likelier to be a misreading of
 * Windows-1252 than the truth, so the first Western candidate of its ranking is taken.
 */
const DETECTABLE = new Map([
  ['UTF-8', 'utf-8'],
  ['UTF-16LE', 'utf-16le'],
  ['UTF-16BE', 'utf-16be'],
  ['windows-1252', 'windows-1252'],
  ['ISO-8859-1', 'windows-1252'],
  ['ISO-8859-15', 'iso-8859-15'],
  ['windows-1250', 'windows-1250'],
  ['ISO-8859-2', 'iso-8859-2'],
]);

/** True when `bytes` is valid UTF-8, a sequence cut off at the end (the sample's edge) allowed. */
function isUtf8(bytes: Uint8Array, complete: boolean): boolean {
  try {
    new TextDecoder('utf-8', { fatal: true }).decode(bytes, { stream: !complete });
    return true;
  } catch {
    return false;
  }
}

/** The encoding of text that is not ASCII, from `sample` (starting at its first byte above 0x7F). */
export function detectEncoding(sample: Uint8Array, complete = true): string {
  if (isUtf8(sample, complete)) return 'utf-8';
  for (const match of analyse(sample)) {
    const label = DETECTABLE.get(match.name);
    if (label && label !== 'utf-8') return label;
  }
  return 'windows-1252';
}

/** Files that are not text, by their first bytes: what each is, and what to do instead. */
const BINARY_SIGNATURES: { bytes: number[]; kind: string; instead: string }[] = [
  {
    bytes: [0x50, 0x4b, 0x03, 0x04],
    kind: 'a ZIP archive (an Excel .xlsx workbook is one)',
    instead:
      'save it as CSV, or send a workbook as .xlsx (Content-Type application/vnd.openxmlformats-officedocument.spreadsheetml.sheet) where uploads accept it',
  },
  {
    bytes: [0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1],
    kind: 'a legacy Excel 97–2003 workbook (.xls) or another Office 97 file',
    instead: 'save it as CSV or as an .xlsx workbook',
  },
  { bytes: [0x25, 0x50, 0x44, 0x46, 0x2d], kind: 'a PDF document', instead: 'export the list as CSV' },
  { bytes: [0x1f, 0x8b], kind: 'gzip-compressed', instead: 'send it with Content-Encoding: gzip, or uncompressed' },
  { bytes: [0x89, 0x50, 0x4e, 0x47], kind: 'a PNG image', instead: 'export the list as CSV' },
  { bytes: [0xff, 0xd8, 0xff], kind: 'a JPEG image', instead: 'export the list as CSV' },
];

/**
 * Refuses a body whose first bytes say it is a binary file (a workbook, a PDF, an archive)
 * with 415 naming it, before any of it is read as text: decoded, it would become one column
 * of garbage or a "not valid UTF-8" that says nothing useful.
 */
export function refuseBinary(head: Uint8Array, what: string): void {
  for (const { bytes, kind, instead } of BINARY_SIGNATURES) {
    if (head.length >= bytes.length && bytes.every((b, i) => head[i] === b)) {
      throw new ApiError('unsupported_media_type', `${what} is ${kind}, not text (CSV or NDJSON): ${instead}`);
    }
  }
}

/** Bytes looked at before choosing an encoding without a BOM or declared charset. */
const SNIFF_BYTES = 64;

/** The `charset` parameter of a Content-Type value, lower-cased, if present. */
export function charsetOf(contentType: string | undefined): string | undefined {
  const match = contentType && /;\s*charset\s*=\s*("?)([^";\s]+)\1/i.exec(contentType);
  return match ? match[2]!.toLowerCase() : undefined;
}

function bomEncoding(head: Uint8Array): string | undefined {
  if (head[0] === 0xef && head[1] === 0xbb && head[2] === 0xbf) return 'utf-8';
  if (head[0] === 0xff && head[1] === 0xfe) return 'utf-16le';
  if (head[0] === 0xfe && head[1] === 0xff) return 'utf-16be';
  return undefined;
}

/** ASCII text in UTF-16 has a NUL in every other byte: even positions for BE, odd for LE. */
function sniffUtf16(head: Uint8Array): string | undefined {
  const pairs = Math.floor(head.length / 2);
  if (pairs < 2) return undefined;
  let evenZero = 0;
  let oddZero = 0;
  for (let i = 0; i < pairs * 2; i += 2) {
    if (head[i] === 0) evenZero++;
    if (head[i + 1] === 0) oddZero++;
  }
  if (evenZero >= pairs * 0.6 && oddZero === 0) return 'utf-16be';
  if (oddZero >= pairs * 0.6 && evenZero === 0) return 'utf-16le';
  return undefined;
}

/** Picks the encoding for a body starting with `head` (see the header comment). */
export function chooseEncoding(head: Uint8Array, charset?: string): string {
  return bomEncoding(head) ?? charset ?? sniffUtf16(head) ?? 'utf-8';
}

function decoderFor(encoding: string, what: string): TextDecoder {
  try {
    return new TextDecoder(encoding, { fatal: true });
  } catch {
    throw new ApiError(
      'unsupported_media_type',
      `${what} declares charset "${encoding.slice(0, 40)}", which is not supported; use UTF-8, UTF-16 or a WHATWG-labelled charset such as iso-8859-1 or windows-1252`,
    );
  }
}

/**
 * Decodes a byte stream (strings pass through as they are) into text chunks, refusing what
 * the chosen encoding cannot decode with ApiError 400 (415 for an unknown charset).
 */
export async function* decodeText(
  source: AsyncIterable<string | Uint8Array> | Iterable<string | Uint8Array>,
  options: DecodeTextOptions = {},
): AsyncGenerator<string> {
  const what = options.what ?? 'the body';
  let decoder: TextDecoder | undefined;
  let encoding = 'utf-8';
  /** Undecided: bytes held back (the first SNIFF_BYTES, or from the first non-ASCII byte on). */
  let held: Uint8Array[] = [];
  let heldBytes = 0;
  /** After the first SNIFF_BYTES without a BOM, declaration or UTF-16 pattern: ASCII so far, passed through. */
  let asciiMode = false;
  let detecting = false;
  let bytesBefore = 0;
  const decode = (bytes: Uint8Array, stream: boolean): string => {
    try {
      const text = decoder!.decode(bytes, { stream });
      bytesBefore += bytes.length;
      return text;
    } catch {
      throw new ApiError(
        'validation_failed',
        `${what} is not valid ${encoding.toUpperCase()} (at or after byte ${bytesBefore}); send UTF-8 or declare the charset (e.g. Content-Type: text/csv; charset=windows-1252, ?charset=, or --charset in the CLI)`,
      );
    }
  };
  const choose = (chosen: string, how: EncodingChoice['source']) => {
    encoding = chosen;
    decoder = decoderFor(encoding, what);
    options.onEncoding?.({ encoding, source: how });
  };
  const take = (): Uint8Array => {
    const joined = held.length === 1 ? held[0]! : Buffer.concat(held);
    held = [];
    heldBytes = 0;
    return joined;
  };
  /** The first SNIFF_BYTES: a BOM, a declaration or the UTF-16 pattern decide; else ASCII mode. */
  const start = (): string => {
    const head = take();
    refuseBinary(head, what);
    const known = bomEncoding(head);
    const utf16 = known || options.charset ? undefined : sniffUtf16(head);
    if (known) choose(known, 'bom');
    else if (options.charset) choose(options.charset, 'declared');
    else if (utf16) choose(utf16, 'utf16-pattern');
    if (decoder) return decode(head, true);
    asciiMode = true;
    return ascii(head);
  };
  /** In ASCII mode: passes ASCII through; from the first byte above 0x7F on, holds bytes for detection. */
  const ascii = (bytes: Uint8Array): string => {
    if (detecting) {
      held.push(bytes);
      heldBytes += bytes.length;
      return heldBytes >= DETECT_BYTES ? detect(false) : '';
    }
    const at = firstNonAscii(bytes);
    if (at === -1) {
      bytesBefore += bytes.length;
      return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.length).toString('latin1');
    }
    const text = Buffer.from(bytes.buffer, bytes.byteOffset, at).toString('latin1');
    bytesBefore += at;
    detecting = true;
    held.push(bytes.subarray(at));
    heldBytes = bytes.length - at;
    return text + (heldBytes >= DETECT_BYTES ? detect(false) : '');
  };
  const detect = (complete: boolean): string => {
    const sample = take();
    asciiMode = false;
    choose(detectEncoding(sample, complete), 'detected');
    return decode(sample, !complete);
  };
  for await (const chunk of source) {
    if (typeof chunk === 'string') {
      yield chunk;
      continue;
    }
    let text: string;
    if (decoder) text = decode(chunk, true);
    else if (asciiMode) text = ascii(chunk);
    else {
      held.push(chunk);
      heldBytes += chunk.length;
      if (heldBytes < SNIFF_BYTES) continue;
      text = start();
    }
    if (text) yield text;
  }
  if (!decoder && !asciiMode) {
    if (heldBytes === 0) return;
    const text = start();
    if (text) yield text;
  }
  if (asciiMode) {
    if (!detecting) {
      options.onEncoding?.({ encoding: 'utf-8', source: 'ascii' });
      return;
    }
    const text = detect(true);
    if (text) yield text;
    return;
  }
  const rest = decode(new Uint8Array(0), false);
  if (rest) yield rest;
}
