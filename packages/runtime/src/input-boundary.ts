/**
 * The input boundary every HTTP app mounts first: whatever a client sends, a request that
 * cannot be read (a malformed percent-escape, bytes that are not UTF-8, a control
 * character, a Content-Encoding the route cannot undo) is answered 400/415 with the Error
 * body naming the problem before any route, query parser or database sees it.
 */
import { isUtf8 } from 'node:buffer';
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
 * The deepest nesting of objects and arrays a JSON body, or a row of a JSON or NDJSON
 * upload, may have. Nothing the API takes nests past 3; the bound keeps every later walk of
 * the value (validation, JSON.stringify on the way to the database) far from the stack.
 */
export const JSON_MAX_DEPTH = 64;

/** The message of a value nested past the limit, naming it. */
export const tooDeep = (what: string, maxDepth = JSON_MAX_DEPTH) =>
  `${what} nests objects and arrays deeper than ${maxDepth} levels`;

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const OPEN_BRACE = 0x7b;
const OPEN_BRACKET = 0x5b;
const CLOSE_BRACE = 0x7d;
const CLOSE_BRACKET = 0x5d;

/**
 * Whether JSON text nests objects and arrays deeper than `maxDepth`, judged before it is
 * parsed: one loop over the characters (or the UTF-8 bytes: every structural character is
 * ASCII and never part of a multi-byte sequence) that skips strings. No recursion, so no
 * input can overflow the stack; malformed text is left for the parser to refuse.
 */
export function jsonTooDeep(text: string | Uint8Array, maxDepth = JSON_MAX_DEPTH): boolean {
  const bytes = typeof text !== 'string';
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = bytes ? text[i]! : text.charCodeAt(i);
    if (inString) {
      if (c === BACKSLASH) i++;
      else if (c === QUOTE) inString = false;
    } else if (c === QUOTE) inString = true;
    else if (c === OPEN_BRACE || c === OPEN_BRACKET) {
      if (++depth > maxDepth) return true;
    } else if (c === CLOSE_BRACE || c === CLOSE_BRACKET) depth--;
  }
  return false;
}

/**
 * Walks a parsed JSON value; throws validation_failed naming the first unclean string, or
 * the limit when the value nests deeper than `maxDepth`. Iterative (an explicit stack, in
 * document order), so a deep value is refused, never a stack overflow.
 */
export function checkJsonText(value: unknown, path = 'body', maxDepth = JSON_MAX_DEPTH): void {
  const pending: { value: unknown; path: string; depth: number }[] = [{ value, path, depth: 0 }];
  for (let next = pending.pop(); next; next = pending.pop()) {
    const { value: item, path: at, depth } = next;
    if (typeof item === 'string') {
      const problem = textProblem(item);
      if (problem) throw new ApiError('validation_failed', `${at} ${problem}`);
      continue;
    }
    if (item === null || typeof item !== 'object') continue;
    if (depth >= maxDepth) throw new ApiError('validation_failed', tooDeep(at, maxDepth));
    const children: typeof pending = [];
    if (Array.isArray(item)) {
      item.forEach((child, i) => children.push({ value: child, path: `${at}[${i}]`, depth: depth + 1 }));
    } else {
      for (const [key, child] of Object.entries(item)) {
        const problem = textProblem(key);
        if (problem) throw new ApiError('validation_failed', `a field name in ${at} ${problem}`);
        children.push({ value: child, path: `${at}.${key}`, depth: depth + 1 });
      }
    }
    for (let i = children.length - 1; i >= 0; i--) pending.push(children[i]!);
  }
}

/** Content codings a body parser here can undo (Node's zlib). */
export const CONTENT_CODINGS = ['gzip', 'deflate', 'br'] as const;

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
 * the same byte limit), then refuses bytes that are not UTF-8, a body nested deeper than
 * JSON_MAX_DEPTH (before it is parsed) and strings carrying control characters, naming the
 * field.
 */
export function jsonBody(limitBytes: number): RequestHandler {
  const parse = express.json({
    limit: limitBytes,
    strict: false,
    verify: (_req, _res, buf, encoding) => {
      const utf8 = /^utf-?8$/i.test(encoding);
      if (utf8 && !isUtf8(buf)) throw Object.assign(new Error('not UTF-8'), { type: 'entity.not.utf8' });
      if (jsonTooDeep(utf8 ? buf : decodeOrEmpty(buf, encoding)))
        throw Object.assign(new Error(tooDeep('the body')), { type: 'entity.too.deep' });
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
