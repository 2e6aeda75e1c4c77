import { brotliCompressSync, deflateSync, gzipSync } from 'node:zlib';
import { Readable } from 'node:stream';
import type { IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Server } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import express from 'express';
import { ApiError, DependencyUnavailableError } from '../src/api-error.ts';
import { finishApp } from '../src/http.ts';
import { createHttpServer } from '../src/http-server.ts';
import {
  checkJsonText,
  inputBoundary,
  jsonBody,
  jsonTextProblem,
  jsonTooDeep,
  readBodyWithin,
} from '../src/input-boundary.ts';

class FakeStoreUnavailableError extends DependencyUnavailableError {
  constructor() {
    super('the fake store', 'ECONNREFUSED 127.0.0.1:1 (internal detail)');
  }
}

let server: Server;
let base: string;
beforeAll(async () => {
  const app = express();
  app.use(inputBoundary());
  const api = express.Router();
  api.use(jsonBody(1024));
  api.get('/things/:id', (req, res) => void res.json({ id: req.params.id, q: req.query }));
  api.post('/things', (req, res) => void res.json({ got: req.body as unknown }));
  api.delete('/things/:id', (_req, res) => void res.status(204).end());
  api.get('/down', () => {
    throw new FakeStoreUnavailableError();
  });
  api.get('/refused', () => {
    throw new ApiError('conflict', 'not now');
  });
  app.use('/api', api);
  finishApp(app);
  server = createHttpServer(app);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  await new Promise((resolve) => server.close(resolve));
});

async function call(path: string, init: RequestInit = {}) {
  const res = await fetch(`${base}${path}`, init);
  const text = await res.text();
  return {
    status: res.status,
    headers: res.headers,
    body: text ? (JSON.parse(text) as { error: number; message: string }) : undefined,
  };
}
const postJson = (body: string | Uint8Array, headers: Record<string, string> = {}) =>
  call('/api/things', { method: 'POST', body, headers: { 'content-type': 'application/json', ...headers } });

describe('input boundary: URLs', () => {
  it.each([
    ['/api/things/%zz', 'malformed percent-escape'],
    ['/api/things/%', 'malformed percent-escape'],
    ['/api/things/%ff', 'not UTF-8'],
    ['/api/things/a%00b', 'U+0000'],
    ['/api/things/1?x=%zz', 'query parameter "x" has a malformed percent-escape'],
    ['/api/things/1?x=%c3%28', 'not UTF-8'],
    ['/api/things/1?%01=1', 'control character U+0001'],
  ])('%s → 400 code 1002 naming the problem', async (path, words) => {
    const res = await call(path);
    expect(res.status).toBe(400);
    expect(res.body?.error).toBe(1002);
    expect(res.body?.message).toContain(words);
  });

  it('lets clean escapes through, decoded', async () => {
    const res = await call('/api/things/J%C3%A4net?x=a+b%2Bc');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ id: 'Jänet', q: { x: 'a b+c' } });
  });
});

describe('input boundary: bodies', () => {
  it('refuses a NUL or other control character in any string, naming the field', async () => {
    const res = await postJson(JSON.stringify({ name: 'ok', nested: { street: 'a\u0000b' } }));
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ error: 1000, message: 'body.nested.street contains the control character U+0000' });
    const bell = await postJson(JSON.stringify(['fine', 'ring\u0007']));
    expect(bell.body?.message).toBe('body[1] contains the control character U+0007');
  });

  it('keeps tabs and line breaks, which are text', async () => {
    const res = await postJson(JSON.stringify({ note: 'a\tb\r\nc' }));
    expect(res.status).toBe(200);
  });

  it('refuses bytes that are not UTF-8 (400 code 1001) instead of storing U+FFFD', async () => {
    const res = await postJson(Buffer.from([0x7b, 0x22, 0x61, 0x22, 0x3a, 0x22, 0xff, 0x22, 0x7d]));
    expect(res).toMatchObject({ status: 400, body: { error: 1001, message: 'request body is not valid UTF-8' } });
  });

  it('undoes gzip within the limit, and answers 400 when the body is not gzip', async () => {
    const ok = await postJson(gzipSync(JSON.stringify({ a: 'b' })), { 'content-encoding': 'gzip' });
    expect(ok).toMatchObject({ status: 200, body: { got: { a: 'b' } } });
    const plain = await postJson('{"a":"b"}', { 'content-encoding': 'gzip' });
    expect(plain.status).toBe(400);
    expect(plain.body?.error).toBe(1006);
    expect(plain.body?.message).toContain('does not decode as its Content-Encoding says');
    const notBrotli = await postJson('{"a":"b"}', { 'content-encoding': 'br' });
    expect(notBrotli.status).toBe(400);
    expect(notBrotli.body?.message).toContain('does not decode as its Content-Encoding says');
    const bomb = await postJson(gzipSync(JSON.stringify({ a: 'x'.repeat(100_000) })), { 'content-encoding': 'gzip' });
    expect(bomb).toMatchObject({ status: 413, body: { error: 1004 } });
  });

  it('answers 415 for a Content-Encoding it cannot undo', async () => {
    const res = await postJson('{}', { 'content-encoding': 'compress' });
    expect(res.status).toBe(415);
    expect(res.body).toEqual({
      error: 1003,
      message: 'Content-Encoding "compress" is not supported here; send identity, gzip, deflate, br',
    });
  });

  it('answers 400 code 1001 for malformed JSON', async () => {
    expect(await postJson('{"a":')).toMatchObject({ status: 400, body: { error: 1001 } });
  });

  it('refuses a body nested deeper than 64 levels, UTF-8 or UTF-16, naming the limit (#22 defect 4)', async () => {
    const nested = (levels: number) => `{"a":${'['.repeat(levels - 1)}${']'.repeat(levels - 1)}}`;
    expect(await postJson(nested(64))).toMatchObject({ status: 200 });
    const refused = { error: 1000, message: 'the body nests objects and arrays deeper than 64 levels' };
    expect(await postJson(nested(65))).toEqual({ status: 400, headers: expect.anything(), body: refused });
    const utf16 = Buffer.from(`\ufeff${nested(65)}`, 'utf16le');
    expect(await postJson(utf16, { 'content-type': 'application/json; charset=utf-16le' })).toMatchObject({
      status: 400,
      body: refused,
    });
  });
});

describe('JSON depth', () => {
  const deepArray = (levels: number) => {
    let value: unknown = [];
    for (let i = 1; i < levels; i++) value = [value];
    return value;
  };

  it('judges depth on the text, skipping strings, without recursion', () => {
    expect(jsonTooDeep('[[[]]]', 3)).toBe(false);
    expect(jsonTooDeep('[[[[]]]]', 3)).toBe(true);
    expect(jsonTooDeep(String.raw`["[[[[", {"k": "{{{{\\", "q": "\"[[["}]`, 3)).toBe(false);
    expect(jsonTooDeep(Buffer.from('{"a":[{"b":[]}]}'), 4)).toBe(false);
    expect(jsonTooDeep(Buffer.from('{"a":[{"b":[{}]}]}'), 4)).toBe(true);
    expect(jsonTooDeep('['.repeat(1_000_000))).toBe(true);
  });

  it('checkJsonText walks a value of any depth without overflowing the stack', () => {
    for (const levels of [2_600, 12_000, 200_000]) {
      expect(() => checkJsonText(deepArray(levels))).toThrow('body[0][0]');
      expect(() => checkJsonText(deepArray(levels))).toThrow('deeper than 64 levels');
    }
    expect(() => checkJsonText(deepArray(64))).not.toThrow();
    // Document order: the first unclean string is the one named.
    expect(() => checkJsonText({ a: ['ok', 'x\u0001'], b: 'y\u0002' })).toThrow('body.a[1] contains');
  });
});

describe('JSON size limits (#22 item 4)', () => {
  const keys = (n: number) => `{${Array.from({ length: n }, (_, i) => `"k${i}":[1,2]`).join(',')}}`;
  const items = (n: number) => `{"a":[${Array(n).fill('{"b":1,"c":2}').join(',')}]}`;
  const str = (n: number, unit = 'a') => `{"a":"${unit.repeat(n)}"}`;
  const both = (text: string) => [jsonTextProblem(text), jsonTextProblem(Buffer.from(text))];

  it('measures strings as they decode (escapes one unit, astral characters two), values and keys', () => {
    expect(both(str(16_384))).toEqual([undefined, undefined]);
    const long = 'the body has a string longer than 16384 characters';
    expect(both(str(16_385))).toEqual([long, long]);
    expect(both(`{"${'k'.repeat(16_385)}":1}`)).toEqual([long, long]);
    // 16,384 escapes decode to 16,384 units: taken; a 3-byte character is one unit, a 4-byte one two.
    expect(both(str(16_384, String.raw`é`))).toEqual([undefined, undefined]);
    expect(both(str(16_384, String.raw`"`))).toEqual([undefined, undefined]);
    expect(both(str(16_384, '€'))).toEqual([undefined, undefined]);
    expect(both(str(8_192, '😀'))).toEqual([undefined, undefined]);
    expect(both(str(8_193, '😀'))).toEqual([long, long]);
    // Structure inside a string is text.
    expect(both(`["${'[,{'.repeat(5_000)}"]`)).toEqual([undefined, undefined]);
  });

  it('counts the members of every object and array, at any depth', () => {
    expect(both(keys(1_000))).toEqual([undefined, undefined]);
    const manyKeys = 'the body has an object with more than 1000 keys';
    expect(both(keys(1_001))).toEqual([manyKeys, manyKeys]);
    expect(both(`[[${keys(1_001)}]]`)).toEqual([manyKeys, manyKeys]);
    expect(both(items(1_000))).toEqual([undefined, undefined]);
    const manyItems = 'the body has an array with more than 1000 elements';
    expect(both(items(1_001))).toEqual([manyItems, manyItems]);
    expect(both(`[${Array(1_001).fill('0').join(',')}]`)).toEqual([manyItems, manyItems]);
    // 1,000 objects of 1,000 keys each: every container is counted on its own.
    expect(jsonTextProblem(`[${Array(1_000).fill(keys(1_000)).join(',')}]`)).toBeUndefined();
    expect(jsonTextProblem(`{"a":1}`, 'a row')).toBeUndefined();
    expect(jsonTextProblem(keys(1_001), 'a row')).toBe('a row has an object with more than 1000 keys');
  });

  it('checkJsonText applies the same limits to a parsed value', () => {
    expect(() => checkJsonText(JSON.parse(str(16_385)))).toThrow('body.a has a string longer than 16384 characters');
    expect(() => checkJsonText(JSON.parse(keys(1_001)))).toThrow('body has an object with more than 1000 keys');
    expect(() => checkJsonText(JSON.parse(items(1_001)))).toThrow('body.a has an array with more than 1000 elements');
    expect(() => checkJsonText({ ['k'.repeat(16_385)]: 1 })).toThrow('a field name in body is longer than 16384');
    for (const ok of [str(16_384), keys(1_000), items(1_000)])
      expect(() => checkJsonText(JSON.parse(ok))).not.toThrow();
  });

  it.each([
    ['a string longer than 16384 characters', str(16_385)],
    ['an object with more than 1000 keys', keys(1_001)],
    ['an array with more than 1000 elements', items(1_001)],
  ])('jsonBody refuses %s with 400 naming the limit, plain, gzip, deflate or br', async (limit, text) => {
    const big = express();
    big.use(inputBoundary());
    big.post('/things', jsonBody(1 << 20), (req, res) => void res.json({ ok: true }));
    finishApp(big);
    const server = createHttpServer(big);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/things`;
      for (const [coding, encode] of [
        ['identity', (t: string) => Buffer.from(t)],
        ['gzip', gzipSync],
        ['deflate', deflateSync],
        ['br', brotliCompressSync],
      ] as const) {
        const res = await fetch(url, {
          method: 'POST',
          headers: { 'content-type': 'application/json', 'content-encoding': coding },
          body: encode(text),
        });
        expect({ coding, status: res.status, body: await res.json() }).toEqual({
          coding,
          status: 400,
          body: { error: 1000, message: `the body has ${limit}` },
        });
      }
    } finally {
      await new Promise((resolve) => server.close(resolve));
    }
  });
});

describe('readBodyWithin', () => {
  const req = (body: Buffer, headers: Record<string, string> = {}) =>
    Object.assign(Readable.from([body]), { headers }) as unknown as IncomingMessage;

  it('undoes gzip, deflate and br, and stops a bomb at the limit while inflating', async () => {
    const form = Buffer.from('grant_type=client_credentials&scope=read');
    expect(await readBodyWithin(req(form), 100)).toEqual(form);
    for (const [coding, encode] of [
      ['gzip', gzipSync],
      ['deflate', deflateSync],
      ['br', brotliCompressSync],
    ] as const) {
      expect(await readBodyWithin(req(encode(form), { 'content-encoding': coding }), 100)).toEqual(form);
      // 64 MiB of zeros in a few KB: refused at the limit, long before it is inflated.
      const bomb = encode(Buffer.alloc(64 * 1024 * 1024));
      expect(bomb.length).toBeLessThan(100_000);
      const started = performance.now();
      await expect(readBodyWithin(req(bomb, { 'content-encoding': coding }), 56 * 1024)).rejects.toMatchObject({
        status: 413,
        message: 'request body is larger than 57344 bytes once decompressed',
      });
      expect(performance.now() - started).toBeLessThan(1_000);
    }
    await expect(readBodyWithin(req(form, { 'content-length': '200' }), 100)).rejects.toMatchObject({ status: 413 });
    await expect(readBodyWithin(req(form, { 'content-encoding': 'compress' }), 100)).rejects.toMatchObject({
      status: 415,
    });
    await expect(readBodyWithin(req(form, { 'content-encoding': 'gzip' }), 100)).rejects.toMatchObject({
      code: 'Z_DATA_ERROR',
    });
  });
});

describe('routes that do not match', () => {
  it('answers 405 with Allow derived from the routes, through nested routers', async () => {
    const res = await call('/api/things/7', { method: 'PUT' });
    expect(res.status).toBe(405);
    expect(res.headers.get('allow')).toBe('DELETE, GET, HEAD');
    expect(res.body).toEqual({ error: 1201, message: 'PUT is not allowed on /api/things/7; use DELETE, GET, HEAD' });
    const list = await call('/api/things', { method: 'GET' });
    expect(list.headers.get('allow')).toBe('POST');
  });

  it('answers 404 code 1200 for a path no route has', async () => {
    expect(await call('/api/nothing')).toMatchObject({ status: 404, body: { error: 1200 } });
  });
});

describe('errors carry their answer', () => {
  it('a dependency error answers 503 with Retry-After and no internal detail', async () => {
    const res = await call('/api/down');
    expect(res.status).toBe(503);
    expect(res.headers.get('retry-after')).toBe('5');
    expect(res.body).toEqual({ error: 1503, message: 'the fake store is unavailable, retry later' });
  });

  it('an ApiError answers with its own status and code', async () => {
    expect(await call('/api/refused')).toMatchObject({ status: 409, body: { error: 1202, message: 'not now' } });
  });
});
