/**
 * Turns an import source (a Readable, or any async iterable of strings or bytes) into
 * text chunks, never holding more than one chunk: multi-byte characters split across
 * chunk boundaries are reassembled, and a leading byte-order mark is dropped. A piece may
 * end inside a surrogate pair (the readers join text across pieces as strings).
 */
import type { Readable } from 'node:stream';
import { decodeText } from '@skiptrace/runtime';

/** A stream, any (async) iterable of text or byte chunks, or one whole string. */
export type ImportSource =
  AsyncIterable<string | Buffer | Uint8Array> | Iterable<string | Buffer | Uint8Array> | Readable | string;

/**
 * Text is handed on in pieces of at most this many characters, whatever the source's
 * chunk size: everything parsed from one piece (records, fields, rows) is alive until the
 * piece is done, and with 256 KB pieces that live set made each young-generation garbage
 * collection copy megabytes (about 1.5 µs a row of import CPU time, measured).
 */
export const TEXT_PIECE_CHARS = 32 * 1024;

function* pieces(text: string): Generator<string> {
  if (text.length <= TEXT_PIECE_CHARS) {
    if (text.length > 0) yield text;
    return;
  }
  for (let i = 0; i < text.length; i += TEXT_PIECE_CHARS) yield text.slice(i, i + TEXT_PIECE_CHARS);
}

/**
 * Decodes with the same helper as batch uploads (`decodeText`: a BOM, else the declared
 * charset, else UTF-16 recognised without a BOM, else UTF-8; strict, so undecodable bytes
 * are refused with a message naming the encoding instead of imported as U+FFFD).
 */
export async function* textChunks(source: ImportSource, charset?: string): AsyncGenerator<string> {
  const chunks = typeof source === 'string' ? [source] : (source as AsyncIterable<string | Uint8Array>);
  let first = true;
  for await (let text of decodeText(chunks, { charset, what: 'the file' })) {
    if (first && text.length > 0) {
      // A string source may still start with a byte-order mark.
      if (text.charCodeAt(0) === 0xfeff) text = text.slice(1);
      first = false;
    }
    yield* pieces(text);
  }
}

export interface TextLine {
  /** 1-based physical line number in the file. */
  line: number;
  text: string;
}

/** Splits text into lines (LF or CRLF), yielding them in arrays to keep per-line overhead low. */
export async function* textLines(chunks: AsyncIterable<string>): AsyncGenerator<TextLine[]> {
  let carry = '';
  let line = 0;
  for await (const chunk of chunks) {
    const text = carry + chunk;
    const out: TextLine[] = [];
    let pos = 0;
    for (let nl = text.indexOf('\n'); nl !== -1; nl = text.indexOf('\n', pos)) {
      const end = nl > pos && text.charCodeAt(nl - 1) === 13 ? nl - 1 : nl;
      out.push({ line: ++line, text: text.slice(pos, end) });
      pos = nl + 1;
    }
    carry = text.slice(pos);
    if (out.length > 0) yield out;
  }
  if (carry.length > 0) yield [{ line: line + 1, text: carry.endsWith('\r') ? carry.slice(0, -1) : carry }];
}
