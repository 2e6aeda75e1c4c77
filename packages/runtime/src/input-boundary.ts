/**
 * The input boundary every HTTP app mounts first: whatever a client sends, a request that
 * cannot be read (a malformed percent-escape, bytes that are not UTF-8, a control
 * character, a Content-Encoding the route cannot undo) is answered 400/415 with the Error
 * body naming the problem before any route, query parser or database sees it.
 */
import { isUtf8 } from 'node:buffer';
import type { IncomingMessage } from 'node:http';
import type { Transform } from 'node:stream';
import { createBrotliDecompress, createGunzip, createInflate } from 'node:zlib';
import express, { type RequestHandler } from 'express';
import { ApiError, sendError } from './api-error.ts';

/**
 * C0 controls other than tab, LF and CR, and DEL. PostgreSQL cannot store NUL in text or
 * jsonb at all, and none of these belongs in a name, an address or a URL.
 */
// eslint-disable-next-line no-control-regex -- finding control characters is the point
const CONTROL = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F]/;
/** Paths and query values take no line breaks or tabs either. */
// eslint-disable-next-line no-control-regex -- as above
const CONTROL_IN_URL = /[\u0000-\u001F\u007F]/;
const BAD_ESCAPE = /%(?![0-9A-Fa-f]{2})/;

const describe = (c: string) => `U+${c.codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0')}`;

/** Why a piece of text is refused, or undefined when it is clean. */
export function textProblem(text: string, urlPart = false): string | undefined {
  const control = (urlPart ? CONTROL_IN_URL : CONTROL).exec(text);
  if (control) return `contains the control character ${describe(control[0])}`;
  if (!text.isWellFormed()) return 'contains an unpaired UTF-16 surrogate';
  return undefined;
}

const CONTROL_ALL = new RegExp(CONTROL.source, 'g');

/** The text with every character `textProblem` refuses replaced by U+FFFD, for echoing it back or storing it. */
export function storableText(text: string): string {
  return text.toWellFormed().replace(CONTROL_ALL, '\uFFFD');
}

/** Decodes one percent-encoded URL component, or explains why it cannot be. */
function decodeComponent(raw: string, where: string): string {
  if (BAD_ESCAPE.test(raw)) throw new ApiError('invalid_parameter', `${where} has a malformed percent-escape`);
  let decoded: string;
  try {
    decoded = decodeURIComponent(raw);
  } catch {
    throw new ApiError('invalid_parameter', `${where} has percent-escapes that are not UTF-8`);
  }
  const problem = textProblem(decoded, true);
  if (problem) throw new ApiError('invalid_parameter', `${where} ${problem}`);
  return decoded;
}

/** Checks the raw path and query string of a request URL; throws ApiError 400. */
export function checkRequestUrl(url: string): void {
  const q = url.indexOf('?');
  const path = q < 0 ? url : url.slice(0, q);
  decodeComponent(path, 'the request path');
  if (q < 0) return;
  for (const pair of url.slice(q + 1).split('&')) {
    if (pair === '') continue;
    const eq = pair.indexOf('=');
    const name = decodeComponent((eq < 0 ? pair : pair.slice(0, eq)).replaceAll('+', ' '), 'a query parameter name');
    if (eq >= 0) decodeComponent(pair.slice(eq + 1).replaceAll('+', ' '), `query parameter "${name.slice(0, 40)}"`);
  }
}

/**
 * The bounds of every JSON value the system reads from a client: a JSON body, a row of a
 * JSON or NDJSON batch upload, a JSON body of the OAuth server (#22 item 4). Nothing the API
 * takes nests past 3 levels, carries a string past a few hundred characters or an object or
 * array past a few hundred members (a batch row has at most BATCH_MAX_COLUMNS keys, itself
 * at most JSON_MAX_KEYS); the bounds keep every later walk of a value (validation,
 * JSON.stringify on the way to the database) far from the stack and linear in its size.
 * Past any of them: 400 naming the limit, judged on the text before it is parsed.
 */
/** Deepest nesting of objects and arrays. */
export const JSON_MAX_DEPTH = 64;
/** Longest string (a value or a key), UTF-16 code units once decoded, as String#length counts. */
export const JSON_MAX_STRING = 16_384;
/** Most members of one object. */
export const JSON_MAX_KEYS = 1_000;
/** Most elements of one array. */
export const JSON_MAX_ITEMS = 1_000;

export interface JsonLimits {
  depth: number;
  stringChars: number;
  keys: number;
  items: number;
}

/** The limits every JSON reader applies (one place; see above). */
export const JSON_LIMITS: Readonly<JsonLimits> = Object.freeze({
  depth: JSON_MAX_DEPTH,
  stringChars: JSON_MAX_STRING,
  keys: JSON_MAX_KEYS,
  items: JSON_MAX_ITEMS,
});

/** The message of a value nested past the limit, naming it. */
export const tooDeep = (what: string, maxDepth = JSON_MAX_DEPTH) =>
  `${what} nests objects and arrays deeper than ${maxDepth} levels`;
const tooLongString = (what: string, max: number) => `${what} has a string longer than ${max} characters`;
const tooManyKeys = (what: string, max: number) => `${what} has an object with more than ${max} keys`;
const tooManyItems = (what: string, max: number) => `${what} has an array with more than ${max} elements`;

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const COMMA = 0x2c;
const LOWER_U = 0x75;
const OPEN_BRACE = 0x7b;
const OPEN_BRACKET = 0x5b;
const CLOSE_BRACE = 0x7d;
const CLOSE_BRACKET = 0x5d;

/**
 * Why JSON text breaks one of the limits (depth, string length, keys per object, elements
 * per array), naming the limit with `what` as the subject, or undefined. Judged before the
 * text is parsed, in one loop over the characters (or the UTF-8 bytes: every structural
 * character is ASCII and never part of a multi-byte sequence): strings are measured as
 * they will decode (an escape is one unit, a 4-byte UTF-8 sequence two), members counted
 * by the commas of their container. No recursion and a stack of at most `depth` counters,
 * so no input can overflow anything; malformed text is left for the parser to refuse.
 */
export function jsonTextProblem(
  text: string | Uint8Array,
  what = 'the body',
  limits: Readonly<JsonLimits> = JSON_LIMITS,
): string | undefined {
  const bytes = typeof text !== 'string';
  /** Per open container: its commas so far; negative for an object (-1 - commas). */
  const open: number[] = [];
  let inString = false;
  let units = 0;
  for (let i = 0; i < text.length; i++) {
    const c = bytes ? text[i]! : text.charCodeAt(i);
    if (inString) {
      if (c === QUOTE) {
        inString = false;
        continue;
      }
      if (c === BACKSLASH) {
        const next = bytes ? text[i + 1] : text.charCodeAt(i + 1);
        i += next === LOWER_U ? 5 : 1;
        units++;
      } else if (!bytes || c < 0x80 || c >= 0xc0) units += bytes && c >= 0xf0 ? 2 : 1; // UTF-8 continuation bytes add nothing
      if (units > limits.stringChars) return tooLongString(what, limits.stringChars);
    } else if (c === QUOTE) {
      inString = true;
      units = 0;
    } else if (c === OPEN_BRACE || c === OPEN_BRACKET) {
      if (open.length >= limits.depth) return tooDeep(what, limits.depth);
      open.push(c === OPEN_BRACE ? -1 : 0);
    } else if (c === CLOSE_BRACE || c === CLOSE_BRACKET) open.pop();
    else if (c === COMMA && open.length > 0) {
      const top = open[open.length - 1]!;
      if (top < 0) {
        // n commas: n + 1 members
        if (-top + 1 > limits.keys) return tooManyKeys(what, limits.keys);
        open[open.length - 1] = top - 1;
      } else {
        if (top + 2 > limits.items) return tooManyItems(what, limits.items);
        open[open.length - 1] = top + 1;
      }
    }
  }
  return undefined;
}

/** Whether JSON text nests objects and arrays deeper than `maxDepth` (jsonTextProblem's depth alone). */
export function jsonTooDeep(text: string | Uint8Array, maxDepth = JSON_MAX_DEPTH): boolean {
  const depthOnly = { depth: maxDepth, stringChars: Infinity, keys: Infinity, items: Infinity };
  return jsonTextProblem(text, '', depthOnly) !== undefined;
}

/**
 * Walks a parsed JSON value; throws validation_failed naming the first unclean string, or
 * the limit a value breaks (depth, string length, keys, elements: JSON_LIMITS). Iterative
 * (an explicit stack, in document order), so a deep value is refused, never a stack overflow.
 */
export function checkJsonText(
  value: unknown,
  path = 'body',
  limits: Readonly<JsonLimits> | number = JSON_LIMITS,
): void {
  const max = typeof limits === 'number' ? { ...JSON_LIMITS, depth: limits } : limits;
  const refuse = (message: string) => new ApiError('validation_failed', message);
  const pending: { value: unknown; path: string; depth: number }[] = [{ value, path, depth: 0 }];
  for (let next = pending.pop(); next; next = pending.pop()) {
    const { value: item, path: at, depth } = next;
    if (typeof item === 'string') {
      const problem = textProblem(item);
      if (problem) throw refuse(`${at} ${problem}`);
      if (item.length > max.stringChars) throw refuse(tooLongString(at, max.stringChars));
      continue;
    }
    if (item === null || typeof item !== 'object') continue;
    if (depth >= max.depth) throw refuse(tooDeep(at, max.depth));
    const children: typeof pending = [];
    if (Array.isArray(item)) {
      if (item.length > max.items) throw refuse(tooManyItems(at, max.items));
      item.forEach((child, i) => children.push({ value: child, path: `${at}[${i}]`, depth: depth + 1 }));
    } else {
      const entries = Object.entries(item);
      if (entries.length > max.keys) throw refuse(tooManyKeys(at, max.keys));
      for (const [key, child] of entries) {
        const problem = textProblem(key);
        if (problem) throw refuse(`a field name in ${at} ${problem}`);
        if (key.length > max.stringChars)
          throw refuse(`a field name in ${at} is longer than ${max.stringChars} characters`);
        children.push({ value: child, path: `${at}.${key}`, depth: depth + 1 });
      }
    }
    for (let i = children.length - 1; i >= 0; i--) pending.push(children[i]!);
  }
}

/** Content codings a body parser here can undo (Node's zlib). */
export const CONTENT_CODINGS = ['gzip', 'deflate', 'br'] as const;

const INFLATERS: Record<string, () => Transform> = {
  gzip: createGunzip,
  deflate: createInflate,
  br: createBrotliDecompress,
};

/**
 * Reads a request body whole, undoing its Content-Encoding (gzip, deflate, br; others 415),
 * and refuses it with 413 as soon as what has arrived — expanded, for a compressed body —
 * passes maxBytes: the inflater never runs past the limit, so a decompression bomb costs
 * at most maxBytes of output. A body that is not what its coding says rejects with zlib's
 * error (the error middleware answers 400). On a refusal the rest of the body is left
 * unread: answer with `Connection: close`.
 */
export async function readBodyWithin(req: IncomingMessage, maxBytes: number): Promise<Buffer> {
  const coding = req.headers['content-encoding']?.trim().toLowerCase() || 'identity';
  const tooLarge = () =>
    new ApiError(
      'payload_too_large',
      `request body is larger than ${maxBytes} bytes${coding === 'identity' ? '' : ' once decompressed'}`,
    );
  if (coding === 'identity' && Number(req.headers['content-length']) > maxBytes) throw tooLarge();
  const make = INFLATERS[coding];
  if (coding !== 'identity' && !make) {
    throw new ApiError('unsupported_media_type', `Content-Encoding "${coding.slice(0, 40)}" is not supported here`);
  }
  const inflater = make?.();
  if (inflater) {
    req.on('error', (err) => inflater.destroy(err));
    req.pipe(inflater);
  }
  const chunks: Buffer[] = [];
  let size = 0;
  try {
    for await (const chunk of inflater ?? req.iterator({ destroyOnReturn: false })) {
      size += (chunk as Buffer).length;
      if (size > maxBytes) throw tooLarge();
      chunks.push(chunk as Buffer);
    }
  } finally {
    if (inflater) {
      req.unpipe(inflater);
      inflater.destroy();
    }
  }
  return Buffer.concat(chunks, size);
}

export interface InputBoundaryOptions {
  /** Content codings accepted on request bodies besides identity; default gzip, deflate, br. */
  contentCodings?: readonly string[];
}

/**
 * The first middleware of every app: refuses unreadable URLs and unsupported codings. It
 * answers by itself (an app mounted inside another may have no error middleware of its own
 * for the path).
 */
export function inputBoundary(options: InputBoundaryOptions = {}): RequestHandler {
  const codings = new Set(options.contentCodings ?? CONTENT_CODINGS);
  const accepted = ['identity', ...codings].join(', ');
  return (req, res, next) => {
    try {
      checkRequestUrl(req.url);
      const coding = req.headers['content-encoding']?.trim().toLowerCase();
      if (coding && coding !== 'identity' && !codings.has(coding)) {
        throw new ApiError(
          'unsupported_media_type',
          `Content-Encoding "${coding.slice(0, 40)}" is not supported here; send ${accepted}`,
        );
      }
    } catch (err) {
      // The body is not read: close the connection after the answer rather than drain it.
      res.set('Connection', 'close');
      sendError(req, res, err as ApiError);
      return;
    }
    next();
  };
}

/** Wraps a body parser so that every string it yields is checked as `checkJsonText` does. */
export function cleanBody(parser: RequestHandler): RequestHandler {
  return (req, res, next) =>
    parser(req, res, (err?: unknown) => {
      if (err) return next(err);
      try {
        if (req.body !== undefined) checkJsonText(req.body);
      } catch (error) {
        return next(error);
      }
      next();
    });
}

/**
 * The JSON body parser every route uses: express.json (gzip, deflate and br undone within
 * the same byte limit), then refuses bytes that are not UTF-8, a body past JSON_LIMITS
 * (nesting, string length, keys, elements: before it is parsed) and strings carrying
 * control characters, naming the field or the limit.
 */
export function jsonBody(limitBytes: number): RequestHandler {
  const parse = express.json({
    limit: limitBytes,
    strict: false,
    verify: (_req, _res, buf, encoding) => {
      const utf8 = /^utf-?8$/i.test(encoding);
      if (utf8 && !isUtf8(buf)) throw Object.assign(new Error('not UTF-8'), { type: 'entity.not.utf8' });
      const problem = jsonTextProblem(utf8 ? buf : decodeOrEmpty(buf, encoding));
      if (problem) throw Object.assign(new Error(problem), { type: 'entity.over.limit' });
    },
  });
  return cleanBody(parse);
}

/** A body in another charset body-parser accepts (UTF-16, UTF-32) as text; one it cannot read is its parser's to refuse. */
function decodeOrEmpty(buf: Buffer, encoding: string): string {
  try {
    return new TextDecoder(encoding).decode(buf);
  } catch {
    return '';
  }
}
