import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import express from 'express';
import { createConsoleRouter } from '../src/console.router.ts';

describe('console router: the sample CSV', () => {
  let base: string;
  let close: () => void;

  beforeAll(async () => {
    const dir = mkdtempSync(join(tmpdir(), 'console-router-'));
    mkdirSync(join(dir, 'build', 'assets'), { recursive: true });
    writeFileSync(join(dir, 'build', 'index.html'), '<!doctype html><title>console</title>');
    writeFileSync(join(dir, 'sample.csv'), 'street_address,city,state,zip_code\n1 Main St,Austin,TX,78701\n');
    // The standalone passes a path under SKIPTRACE_DATA_DIR, which may be relative (".data").
    const sampleCsv = relative(process.cwd(), join(dir, 'sample.csv'));
    const app = express();
    app.use(
      '/console',
      await createConsoleRouter({
        dir: join(dir, 'build'),
        issuer: 'http://127.0.0.1:1',
        clientId: 'console',
        sampleCsv,
      }),
    );
    // What leaves the router: the app's 404 (finishApp's routeNotFound in the gateway).
    app.use((_req, res) => void res.status(404).json({ error: 1200, message: 'not found by the app' }));
    const server = app.listen(0, '127.0.0.1');
    await new Promise((resolve) => server.once('listening', resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}/console`;
    close = () => server.close();
  });
  afterAll(() => close());

  it('downloads from a relative data directory instead of answering 500', async () => {
    const res = await fetch(`${base}/sample.csv`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-disposition')).toContain('sample-properties.csv');
    expect(await res.text()).toContain('1 Main St');
  });

  it('leaves a missing asset to the app: 404, never index.html or a 500 (#22 defect 8)', async () => {
    for (const path of ['/assets/missing.js', '/assets/', '/assets/deep/er.css', '/assets/..%2findex.html']) {
      const res = await fetch(`${base}${path}`);
      expect({ path, status: res.status, body: await res.json() }).toEqual({
        path,
        status: 404,
        body: { error: 1200, message: 'not found by the app' },
      });
    }
    // The app's own routes still get index.html.
    expect(await (await fetch(`${base}/batches/42`)).text()).toContain('<title>console</title>');
  });

  it('announces the sample in config.json', async () => {
    const config = (await (await fetch(`${base}/config.json`)).json()) as { sampleCsv: string | null };
    expect(config.sampleCsv).toBe('sample.csv');
  });
});
