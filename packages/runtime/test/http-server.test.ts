import { connect } from 'node:net';
import type { AddressInfo } from 'node:net';
import type { Server } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import express from 'express';
import { createHttpServer } from '../src/http-server.ts';
import { jsonBody } from '../src/input-boundary.ts';
import { errorHandler } from '../src/http.ts';

let server: Server;
let port: number;
beforeAll(async () => {
  const app = express();
  app.post('/echo', jsonBody(1 << 20), (req, res) => void res.json({ size: JSON.stringify(req.body).length }));
  app.post('/oauth/token', express.urlencoded({ extended: false }), (_req, res) => void res.json({}));
  app.use(errorHandler());
  server = createHttpServer(app, { headersTimeoutMs: 600, bodyTimeoutMs: 800, minBodyBytesPerSecond: 1_000 });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  port = (server.address() as AddressInfo).port;
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

/**
 * Writes `head` (then each of `drip` after `everyMs`) on a raw connection; resolves with
 * what the server answered and how long the connection stayed open.
 */
function raw(head: string, drip: string[] = [], everyMs = 0): Promise<{ text: string; ms: number }> {
  return new Promise((resolve, reject) => {
    const started = Date.now();
    const socket = connect(port, '127.0.0.1');
    let text = '';
    let timer: NodeJS.Timeout | undefined;
    socket.on('data', (d) => (text += d.toString()));
    socket.on('error', () => undefined);
    socket.on('close', () => {
      clearInterval(timer);
      resolve({ text, ms: Date.now() - started });
    });
    socket.write(head);
    if (drip.length > 0) {
      const rest = [...drip];
      timer = setInterval(() => {
        const next = rest.shift();
        if (next === undefined) return clearInterval(timer);
        if (!socket.destroyed) socket.write(next);
      }, everyMs);
    }
    setTimeout(() => reject(new Error('connection still open after 10 s')), 10_000).unref();
  });
}
const bodyOf = (text: string) => JSON.parse(text.slice(text.indexOf('\r\n\r\n') + 4)) as unknown;

describe('Node parser errors answer with the Error body', () => {
  it.each([
    ['an unknown method', 'BREW / HTTP/1.1\r\nHost: x\r\n\r\n', '400', 'unknown HTTP method'],
    [
      'duplicate Content-Length',
      'POST /echo HTTP/1.1\r\nHost: x\r\nContent-Length: 1\r\nContent-Length: 2\r\n\r\nab',
      '400',
      'duplicate or conflicting Content-Length / Transfer-Encoding headers',
    ],
    ['headers too large', `GET / HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(20_000)}\r\n\r\n`, '431', 'too large'],
    [
      'CONNECT (not a proxy)',
      'CONNECT example.com:443 HTTP/1.1\r\nHost: example.com:443\r\n\r\n',
      '400',
      'not a proxy',
    ],
  ])('%s', async (_name, request, status, words) => {
    const { text } = await raw(request);
    expect(text.startsWith(`HTTP/1.1 ${status} `)).toBe(true);
    expect(text).toContain('Content-Type: application/json');
    expect((bodyOf(text) as { message: string }).message).toContain(words);
  });
});

it('an unknown Expect is ignored and the request served (not an empty 417)', async () => {
  const { text } = await raw(
    'POST /echo HTTP/1.1\r\nHost: x\r\nExpect: bogus\r\nContent-Type: application/json\r\nContent-Length: 7\r\nConnection: close\r\n\r\n{"a":1}',
  );
  expect(text.startsWith('HTTP/1.1 200 ')).toBe(true);
  expect(bodyOf(text)).toEqual({ size: 7 });
});

describe('slow clients', () => {
  it('headers that never finish: 408 with the Error body, connection closed', async () => {
    const { text, ms } = await raw('POST /echo HTTP/1.1\r\nHost: x\r\n');
    expect(text.startsWith('HTTP/1.1 408 ')).toBe(true);
    expect(bodyOf(text)).toEqual({ error: 1007, message: 'request headers did not arrive in time' });
    expect(ms).toBeLessThan(3_000);
  });

  it('a body shorter than its Content-Length: 408, connection closed', async () => {
    const head = 'POST /echo HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{"a":';
    const { text, ms } = await raw(head);
    expect(text.startsWith('HTTP/1.1 408 ')).toBe(true);
    expect(bodyOf(text)).toEqual({ error: 1007, message: 'request body did not arrive in time' });
    expect(ms).toBeGreaterThanOrEqual(800);
    expect(ms).toBeLessThan(3_500);
  });

  it('a stalled body under /oauth: 408 in RFC 6749 shape (#22 defect 8, found by the fuzz review)', async () => {
    const head =
      'POST /oauth/token HTTP/1.1\r\nHost: x\r\nContent-Type: application/x-www-form-urlencoded\r\nContent-Length: 100\r\n\r\ngrant_type=';
    const { text } = await raw(head);
    expect(text.startsWith('HTTP/1.1 408 ')).toBe(true);
    expect(text).toContain('Cache-Control: no-store');
    expect(bodyOf(text)).toEqual({
      error: 'invalid_request',
      error_description: 'request body did not arrive in time',
    });
  });

  it('a body dripped a byte at a time: 408 although bytes keep coming', async () => {
    const head =
      'POST /echo HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{"a":"';
    const { text, ms } = await raw(
      head,
      Array.from({ length: 90 }, () => 'x'),
      50,
    );
    expect(text.startsWith('HTTP/1.1 408 ')).toBe(true);
    expect(ms).toBeLessThan(3_500);
  });

  it('a large body at a steady rate above the minimum is never cut', async () => {
    const payload = JSON.stringify({ a: 'x'.repeat(6_000) });
    const pieces = payload.match(/[\s\S]{1,500}/g)!;
    const head = `POST /echo HTTP/1.1\r\nHost: x\r\nConnection: close\r\nContent-Type: application/json\r\nContent-Length: ${payload.length}\r\n\r\n`;
    // 500 bytes every 200 ms = 2,500 B/s for about 2.4 s: longer than the 800 ms base allowance.
    const { text, ms } = await raw(head, pieces, 200);
    expect(text.startsWith('HTTP/1.1 200 ')).toBe(true);
    expect(ms).toBeGreaterThan(2_000);
  });
});
