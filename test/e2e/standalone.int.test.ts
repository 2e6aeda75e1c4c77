import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, jest } from '@jest/globals';
import { commands, runCli } from '@skiptrace/cli';
import { demoQueryFor, demoSuppressionOf, generateContacts } from '@skiptrace/demo';
import { normalizePhone } from '@skiptrace/matching';
import { createSystem, type System } from '@skiptrace/standalone';

// The one-process mode end to end, over real HTTP: OAuth token, skip trace, webhooks
// subscription, erase. Embedded adapters (PGlite, in-process bus, memory kv).
let system: System;
let base: string;
let dataDir: string;
let token: string;
const DEMO_ROWS = 600;

beforeAll(async () => {
  dataDir = await mkdtemp(join(tmpdir(), 'skiptrace-e2e-'));
  system = await createSystem({
    PORT: '0',
    // Relative, as `./run start`'s default `.data` is: every path built from it must still work.
    SKIPTRACE_DATA_DIR: relative(process.cwd(), dataDir),
    // Enough demo contacts that one has a phone on the demo litigator list (1 number in 100).
    SKIPTRACE_DEMO_ROWS: String(DEMO_ROWS),
    LOG_LEVEL: 'silent',
  });
  base = await system.start();
  const demo = JSON.parse(await readFile(join(dataDir, 'demo-credentials.json'), 'utf8'));
  const res = await fetch(`${base}/oauth/token`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({
      grant_type: 'client_credentials',
      client_id: demo.clientId,
      client_secret: demo.clientSecret,
      scope: 'read write',
    }),
  });
  expect(res.status).toBe(200);
  const body = (await res.json()) as { access_token: string; token_type: string; expires_in: number };
  expect(body).toMatchObject({ token_type: 'Bearer', expires_in: 3600 });
  token = body.access_token;
}, 120_000);

afterAll(async () => {
  await system?.stop('test done');
  await rm(dataDir, { recursive: true, force: true });
});

const api = (path: string, init: RequestInit = {}) =>
  fetch(`${base}/api/v1${path}`, {
    ...init,
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json', ...init.headers },
  });

describe('one-process system', () => {
  it('serves health and a valid-looking OpenAPI document without a token', async () => {
    expect((await fetch(`${base}/healthz`)).status).toBe(200);
    expect((await fetch(`${base}/readyz`)).status).toBe(200);
    const doc = (await (await fetch(`${base}/api/v1/openapi.json`)).json()) as { openapi: string };
    expect(doc.openapi).toBe('3.1.0');
    const discovery = await fetch(`${base}/.well-known/openid-configuration`);
    expect(discovery.status).toBe(200);
  });

  it('traces a noisy variant of a demo address to its owners and phones', async () => {
    const [row] = generateContacts({ rows: 1, seed: 42 });
    const res = await api('/property/skiptrace', { method: 'POST', body: JSON.stringify(demoQueryFor(row!)) });
    expect(res.status).toBe(200);
    const body = (await res.json()) as { id: number; status: string; results: { phones: { number: string }[] }[] };
    expect(body.status).toBe('completed');
    expect(body.results.length).toBeGreaterThan(0);
    expect(body.results[0]!.phones[0]!.number).toMatch(/^\+1\d{3}55501\d\d$/);

    const listed = (await (await api('/property/skiptrace?limit=5')).json()) as { id: number }[];
    expect(listed.map((r) => r.id)).toContain(body.id);
    expect((await api(`/plants/${body.id}`, { method: 'DELETE' })).status).toBe(204);
    expect((await api(`/property/skiptrace/${body.id}`)).status).toBe(404);
  });

  it('serves the demo batch as "Download a sample CSV" with a relative data directory', async () => {
    const res = await fetch(`${base}/console/sample.csv`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/csv/);
    expect(res.headers.get('content-disposition')).toContain('attachment');
    expect(await res.text()).toBe(await readFile(join(dataDir, 'demo-batch.csv'), 'utf8'));
  });

  it.each(['dnc', 'litigator'] as const)(
    'a trace of a demo address returns a phone on the demo %s list, flagged',
    async (kind) => {
      type Phone = { number: string; dnc: boolean; litigator: boolean };
      // The first demo contact (of those loaded) with a phone on the list.
      const row = [...generateContacts({ rows: DEMO_ROWS, seed: 42 })].find((c) =>
        [c.phone_1, c.phone_2].some((p) => p !== null && demoSuppressionOf(normalizePhone(p)!) === kind),
      )!;
      expect(row).toBeDefined();
      const res = await api('/property/skiptrace', { method: 'POST', body: JSON.stringify(demoQueryFor(row)) });
      expect(res.status).toBe(200);
      const body = (await res.json()) as { results: { phones: Phone[] }[] };
      const phones = body.results.flatMap((r) => r.phones);
      const listed = phones.filter((p) => demoSuppressionOf(p.number) === kind);
      expect(listed.length).toBeGreaterThan(0);
      for (const phone of phones) {
        expect(phone.dnc).toBe(demoSuppressionOf(phone.number) === 'dnc');
        expect(phone.litigator).toBe(demoSuppressionOf(phone.number) === 'litigator');
      }
    },
  );

  it('answers an unknown address with no_match', async () => {
    const res = await api('/property/skiptrace', {
      method: 'POST',
      body: JSON.stringify({ street_address: '1 Nowhere Blvd', city: 'Austin', state: 'TX', zip_code: '78701' }),
    });
    const body = (await res.json()) as { status: string; results: unknown[] };
    expect(body).toMatchObject({ status: 'no_match', results: [] });
  });

  it('runs a CSV batch: upload, progress to completed, ordered export with phones and rejects', async () => {
    const rows = [...generateContacts({ rows: 3, seed: 42 })].map((r) => demoQueryFor(r));
    const csv = [
      'Property Address,City,State,Zip',
      ...rows.map((r) => [r.street_address, r.city, r.state, r.zip_code].map((v) => `"${v}"`).join(',')),
      '"5 Broken Rd",Austin,Narnia,1',
    ].join('\n');
    const upload = await api('/property/skiptrace/batches', {
      method: 'POST',
      headers: { 'content-type': 'text/csv' },
      body: csv,
    });
    expect(upload.status).toBe(202);
    const batch = (await upload.json()) as { id: string; accepted: number; rejected: number };
    expect(batch).toMatchObject({ accepted: 3, rejected: 1 });
    let status = '';
    for (let i = 0; i < 200 && status !== 'completed'; i++) {
      status = ((await (await api(`/property/skiptrace/batches/${batch.id}`)).json()) as { status: string }).status;
      if (status !== 'completed') await new Promise((r) => setTimeout(r, 50));
    }
    expect(status).toBe('completed');
    const exported = await api(`/property/skiptrace/batches/${batch.id}/results`, { headers: { accept: 'text/csv' } });
    const lines = (await exported.text()).trim().split('\n');
    expect(lines[0]).toMatch(/^Property Address,City,State,Zip,.*phone_1,phone_1_type,phone_1_dnc,phone_1_litigator/);
    expect(lines).toHaveLength(5);
    expect(lines[1]).toMatch(/\+1\d{3}55501\d\d/);
    expect(lines[4]).toMatch(/state/);
  });

  it('the demo batch, traced, shows both flags in its export', async () => {
    type Phone = { number: string; dnc: boolean; litigator: boolean };
    const upload = await api('/property/skiptrace/batches', {
      method: 'POST',
      headers: { 'content-type': 'text/csv' },
      body: await readFile(join(dataDir, 'demo-batch.csv')),
    });
    expect(upload.status).toBe(202);
    const batch = (await upload.json()) as { id: string };
    let status = '';
    for (let i = 0; i < 600 && status !== 'completed'; i++) {
      status = ((await (await api(`/property/skiptrace/batches/${batch.id}`)).json()) as { status: string }).status;
      if (status !== 'completed') await new Promise((r) => setTimeout(r, 100));
    }
    expect(status).toBe('completed');
    const exported = await api(`/property/skiptrace/batches/${batch.id}/results?format=ndjson`);
    const phones = (await exported.text())
      .trim()
      .split('\n')
      .flatMap((line) =>
        ((JSON.parse(line) as { results?: { phones: Phone[] }[] }).results ?? []).flatMap((r) => r.phones),
      );
    const dnc = phones.filter((p) => p.dnc);
    const litigator = phones.filter((p) => p.litigator);
    expect(dnc.length).toBeGreaterThan(0);
    expect(litigator.length).toBeGreaterThan(0);
    // A realistic small share, flagged exactly as the demo lists say.
    expect(dnc.length / phones.length).toBeLessThan(0.25);
    for (const phone of phones) {
      expect(phone.dnc).toBe(demoSuppressionOf(phone.number) === 'dnc');
      expect(phone.litigator).toBe(demoSuppressionOf(phone.number) === 'litigator');
    }
  }, 90_000);

  it('the CLI submits a CSV as a batch, follows it, lists, downloads, cancels and reports HTTP errors in one line', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'skiptrace-cli-'));
    const rows = [...generateContacts({ rows: 4, seed: 42 })].map((r) => demoQueryFor(r));
    const input = join(dir, 'leads.csv');
    await writeFile(
      input,
      [
        'street_address,city,state,zip_code',
        ...rows.map((r) => `"${r.street_address}",${r.city},${r.state},${r.zip_code}`),
      ]
        .join('\n')
        .concat('\n'),
    );
    const stdout: string[] = [];
    const out = jest.spyOn(process.stdout, 'write').mockImplementation((chunk) => (stdout.push(String(chunk)), true));
    const err = jest.spyOn(process.stderr, 'write').mockImplementation(() => true);
    const errors: string[] = [];
    const cli = (...argv: string[]) =>
      runCli(argv, commands, { stdout: process.stdout, stderr: { write: (t: string) => errors.push(t) }, env: {} });
    try {
      const tokenFile = join(dir, 'token');
      await writeFile(tokenFile, `${token}\n`);
      const auth = ['--api', base, '--token-file', tokenFile];
      expect(await cli('batch', 'submit', input, '--wait', ...auth)).toBe(0);
      const summary = JSON.parse(stdout.at(-1)!) as { id: string; status: string; total: number; processed: number };
      expect(summary).toMatchObject({ status: 'completed', total: 4, processed: 4 });
      // --api takes the API base as well as the server base.
      expect(await cli('batch', 'status', summary.id, '--api', `${base}/api/v1/`, '--token', token)).toBe(0);
      expect(JSON.parse(stdout.at(-1)!)).toMatchObject({
        id: summary.id,
        status: 'completed',
        rate: expect.any(Number),
      });
      expect(await cli('batch', 'list', '--json', ...auth)).toBe(0);
      expect(stdout.some((line) => line.includes(`"id":"${summary.id}"`))).toBe(true);
      const output = join(dir, 'results.csv');
      expect(await cli('batch', 'download', summary.id, '--out', output, ...auth)).toBe(0);
      const lines = (await readFile(output, 'utf8')).trim().split('\n');
      expect(lines).toHaveLength(5);
      expect(lines[0]).toMatch(/^street_address,city,state,zip_code,/);
      expect(lines.slice(1).every((line) => /\+1\d{3}55501\d\d/.test(line))).toBe(true);
      // HTTP errors: one line with the status and the API's message.
      expect(await cli('batch', 'cancel', summary.id, ...auth)).toBe(1);
      expect(errors.at(-1)).toBe(`skiptrace batch cancel: HTTP 409: batch is completed; only ?purge=true removes it\n`);
      expect(await cli('batch', 'status', '999999', ...auth)).toBe(1);
      expect(errors.at(-1)).toBe('skiptrace batch status: HTTP 404: batch not found\n');
      expect(await cli('batch', 'cancel', summary.id, '--purge', ...auth)).toBe(0);
      // A client instead of a token: the CLI gets one with client_credentials (read and write for --wait).
      const demo = JSON.parse(await readFile(join(dataDir, 'demo-credentials.json'), 'utf8'));
      const withClient = (...argv: string[]) =>
        runCli(argv, commands, {
          stdout: process.stdout,
          stderr: { write: (t: string) => errors.push(t) },
          env: { SKIPTRACE_API: base, SKIPTRACE_CLIENT_ID: demo.clientId, SKIPTRACE_CLIENT_SECRET: demo.clientSecret },
        });
      expect(await withClient('batch', 'submit', input, '--wait')).toBe(0);
      expect(JSON.parse(stdout.at(-1)!)).toMatchObject({ status: 'completed', total: 4 });
      expect(await cli('batch', 'submit', input, '--api', base)).toBe(2);
      expect(errors.at(-1)).toMatch(/^skiptrace batch submit: a bearer token is required/);
    } finally {
      out.mockRestore();
      err.mockRestore();
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('rejects a request without a token with 401 and the Error body', async () => {
    const res = await fetch(`${base}/api/v1/property/skiptrace`);
    expect(res.status).toBe(401);
    expect(res.headers.get('www-authenticate')).toMatch(/^Bearer/);
    expect(((await res.json()) as { error: number }).error).toBe(1100);
  });
});
