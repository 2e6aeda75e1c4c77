/**
 * The input boundary every HTTP app mounts first: whatever a client sends, a request that
 * cannot be read (a malformed percent-escape, bytes that are not UTF-8, a control
 * character, a Content-Encoding the route cannot undo) is answered 400/415 with the Error
 * body naming the problem before any route, query parser or database sees it.
 */
import { isUtf8 } from 'node:buffer';
import express, { type RequestHandler } from 'express';
import { ApiError } from './api-error.ts';

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

/** Walks a parsed JSON value; throws validation_failed naming the first unclean string. */
export function checkJsonText(value: unknown, path = 'body'): void {
  if (typeof value === 'string') {
    const problem = textProblem(value);
    if (problem) throw new ApiError('validation_failed', `${path} ${problem}`);
  } else if (Array.isArray(value)) {
    value.forEach((item, i) => checkJsonText(item, `${path}[${i}]`));
  } else if (value !== null && typeof value === 'object') {
    for (const [key, item] of Object.entries(value)) {
      const problem = textProblem(key);
      if (problem) throw new ApiError('validation_failed', `a field name in ${path} ${problem}`);
      checkJsonText(item, `${path}.${key}`);
    }
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
      const out = err as ApiError;
      // The body is not read: close the connection after the answer rather than drain it.
      res.status(out.status).set(out.headers).set('Connection', 'close').json(out.body());
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
 * the same byte limit), then refuses bytes that are not UTF-8 and strings carrying control
 * characters, naming the field.
 */
export function jsonBody(limitBytes: number): RequestHandler {
  const parse = express.json({
    limit: limitBytes,
    strict: false,
    verify: (_req, _res, buf, encoding) => {
      if (/^utf-?8$/i.test(encoding) && !isUtf8(buf))
        throw Object.assign(new Error('not UTF-8'), { type: 'entity.not.utf8' });
    },
  });
  return cleanBody(parse);
}
