/**
 * #22 defect 8 in the one-process system, where the gateway's input boundary and the last
 * error middleware sit in front of and behind the OAuth server: a missing console asset is
 * a 404 in the API's Error body (it was a 500), and every error under /oauth is in
 * RFC 6749's shape, whichever layer answers it (the boundary answered in the API's).
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { createSystem, type System } from '@skiptrace/standalone';
import { freePort } from '@skiptrace/testing';

let system: System;
let base: string;
let dataDir: string;

beforeAll(async () => {
  dataDir = await mkdtemp(join(tmpdir(), 'skiptrace-surfaces-'));
  system = await createSystem({
    PORT: String(await freePort()),
    SKIPTRACE_DATA_DIR: dataDir,
    SKIPTRACE_DEMO_ROWS: '0',
    LOG_LEVEL: 'silent',
  });
  base = await system.start();
}, 60_000);
afterAll(async () => {
  await system?.stop('test done');
  if (dataDir) await rm(dataDir, { recursive: true, force: true });
});

const answer = async (path: string, init: RequestInit = {}) => {
  const res = await fetch(`${base}${path}`, { redirect: 'manual', ...init });
  return { status: res.status, type: res.headers.get('content-type'), body: (await res.json()) as unknown };
};

describe('the console', () => {
  it.each(['/console/assets/missing.js', '/console/assets/', '/console/assets/x/..%2f..%2findex.html'])(
    '%s: 404 with the Error body, not 500 nor index.html',
    async (path) => {
      expect(await answer(path)).toEqual({
        status: 404,
        type: 'application/json; charset=utf-8',
        body: { error: 1200, message: expect.any(String) },
      });
    },
  );
});

describe('the OAuth server', () => {
  it.each([
    ['/oauth/token?x=%zz', 400, { method: 'POST', body: 'grant_type=client_credentials' }],
    ['/oauth/authorize?client_id=%01', 400, {}],
    ['/.well-known/openid-configuration?%zz', 400, {}],
    ['/oauth/token', 415, { method: 'POST', body: 'a=b', headers: { 'content-encoding': 'compress' } }],
  ] as const)('%s → %i in RFC 6749 shape', async (path, status, init) => {
    expect(await answer(path, init)).toEqual({
      status,
      type: 'application/json; charset=utf-8',
      body: { error: 'invalid_request', error_description: expect.any(String) },
    });
  });

  it('leaves the API its own Error body', async () => {
    expect(await answer('/api/v1/property/skiptrace?x=%zz')).toMatchObject({ status: 400, body: { error: 1002 } });
  });
});
