/**
 * The one text decoder of every upload and import (batch uploads, contact and suppression
 * imports): bytes become text by, in this order, a byte-order mark (UTF-8, UTF-16LE,
 * UTF-16BE), the declared charset (`text/csv; charset=iso-8859-1`), a UTF-16 guess from
 * the NUL bytes of ASCII text (UTF-16 without a BOM), else UTF-8. Decoding is strict
 * (the platform's WHATWG TextDecoder with `fatal`): bytes that are not valid in the
 * chosen encoding are refused with a 400 naming it, never turned into U+FFFD silently.
 * Labels follow the WHATWG Encoding Standard, so `iso-8859-1` and `latin1` decode as
 * windows-1252 (as browsers do), a superset for every printable character.
 */
import { TextDecoder } from 'node:util';
import { ApiError } from './api-error.ts';

export interface DecodeTextOptions {
  /** Declared charset label (e.g. from Content-Type), if any. */
  charset?: string;
  /** What is being decoded, for messages ("the upload", "the file"). */
  what?: string;
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
  let head: Uint8Array[] = [];
  let headBytes = 0;
  let bytesBefore = 0;
  const decode = (bytes: Uint8Array, stream: boolean): string => {
    try {
      const text = decoder!.decode(bytes, { stream });
      bytesBefore += bytes.length;
      return text;
    } catch {
      throw new ApiError(
        'validation_failed',
        `${what} is not valid ${encoding.toUpperCase()} (at or after byte ${bytesBefore}); send UTF-8 or declare the charset, e.g. Content-Type: text/csv; charset=iso-8859-1`,
      );
    }
  };
  const start = (): string => {
    const joined = Buffer.concat(head);
    head = [];
    encoding = chooseEncoding(joined, options.charset);
    decoder = decoderFor(encoding, what);
    return decode(joined, true);
  };
  for await (const chunk of source) {
    if (typeof chunk === 'string') {
      yield chunk;
      continue;
    }
    if (!decoder) {
      head.push(chunk);
      headBytes += chunk.length;
      if (headBytes < SNIFF_BYTES) continue;
      const text = start();
      if (text) yield text;
      continue;
    }
    const text = decode(chunk, true);
    if (text) yield text;
  }
  if (!decoder) {
    if (headBytes === 0) return;
    const text = start();
    if (text) yield text;
  }
  const rest = decode(new Uint8Array(0), false);
  if (rest) yield rest;
}
