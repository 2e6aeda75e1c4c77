/**
 * Bodies of oidc-provider's endpoints that it cannot judge itself, read before it does
 * (#22 items 1 and 4):
 * - a compressed body (gzip, deflate, br; oidc-provider undoes no Content-Encoding) is
 *   expanded within the provider's own body limit, PROVIDER_BODY_BYTES, and refused with 413
 *   as soon as it passes it, while streaming — a decompression bomb costs at most that much
 *   output;
 * - a JSON body (dynamic client registration, RFC 7591) is judged against JSON_LIMITS
 *   (nesting, string length, keys, elements) before it is parsed, then for control
 *   characters, each refusal a 400 naming the limit.
 * What was read is handed on as `req.body`, which oidc-provider reads instead of the stream.
 * Plain forms (the token endpoint's ordinary traffic) stay the provider's to read, within
 * the same limit. Errors leave through the error middleware in RFC 6749's shape.
 */
import type { Request, RequestHandler } from 'express';
import { isUtf8 } from 'node:buffer';
import { ApiError, checkJsonText, jsonTextProblem, readBodyWithin } from '@skiptrace/runtime';

/** oidc-provider's limit on a request body (lib/shared/selective_body.js), bytes. */
export const PROVIDER_BODY_BYTES = 56 * 1024;

const hasBody = (req: Request) =>
  req.headers['transfer-encoding'] !== undefined || Number(req.headers['content-length']) > 0;

export function providerBodies(paths: RegExp): RequestHandler {
  return async (req, res, next) => {
    if (!paths.test(req.path) || !hasBody(req)) return next();
    const coding = req.headers['content-encoding']?.trim().toLowerCase();
    const compressed = coding !== undefined && coding !== '' && coding !== 'identity';
    const json = req.is('application/json') === 'application/json';
    if (!compressed && !json) return next();
    try {
      const body = await readBodyWithin(req, PROVIDER_BODY_BYTES);
      if (!json) {
        req.body = body;
        return next();
      }
      if (!isUtf8(body)) throw new ApiError('invalid_json', 'request body is not valid UTF-8');
      const problem = jsonTextProblem(body);
      if (problem) throw new ApiError('validation_failed', problem);
      let value: unknown;
      try {
        value = JSON.parse(body.toString('utf8'));
      } catch {
        throw new ApiError('invalid_json', 'request body is not valid JSON');
      }
      if (value === null || typeof value !== 'object' || Array.isArray(value)) {
        throw new ApiError('validation_failed', 'the body must be a JSON object');
      }
      checkJsonText(value);
      req.body = value;
      next();
    } catch (err) {
      // What is left of the body is not read: close the connection after the answer.
      res.set('Connection', 'close');
      next(err);
    }
  };
}
