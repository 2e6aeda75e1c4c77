/**
 * The batch behaviour suite, run against the embedded adapters (PGlite + in-process bus)
 * and the real ones (PostgreSQL + RabbitMQ). Each case uploads through HTTP, lets a
 * worker trace the chunks with a fake engine, and checks what the API answers.
 */
import { parse as parseCsv } from 'csv-parse/sync';
import { brotliCompressSync, gzipSync, constants as zlibConstants } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it, jest } from '@jest/globals';
import {
  completeProperty,
  eraseProperty,
  getProperty,
  insertProperty,
  listProperties,
  toResponse,
} from '@skiptrace/core';
import type { MessageBus } from '@skiptrace/messaging';
import { silentLogger } from '@skiptrace/runtime';
import type { Database, Sql } from '@skiptrace/storage';
import { waitUntil } from '@skiptrace/testing';
import ExcelJS from 'exceljs';
import request from 'supertest';
import { createBatchChunkHandler, createBatchRows, startBatchWorker, type BatchWorker } from '../src/index.ts';
import { buildApp, CROWD, fakeEngine, OWNED_MAILING, OWNED_RECORD, sampleCsv } from './harness.ts';

export interface BatchSystem {
  db: Database;
  bus: MessageBus;
  close(): Promise<void>;
}

const V1 = '/api/v1/property/skiptrace/batches';

export function describeBatchContract(name: string, open: () => Promise<BatchSystem>) {
  describe(`batches (${name})`, () => {
    jest.setTimeout(30_000);
    let system: BatchSystem;
    let worker: BatchWorker;
    const engine = fakeEngine();
    let app: ReturnType<typeof buildApp>;
    let completed: unknown[] = [];

    beforeAll(async () => {
      system = await open();
      app = buildApp(system.db, system.bus, { chunkSize: 7, chunksInFlight: 2, pageRows: 4, maxRows: 200 });
      worker = await startBatchWorker({
        db: system.db,
        bus: system.bus,
        engine,
        logger: silentLogger(),
        config: { sweepIntervalMs: 0, prefetch: 2 },
      });
      // Nothing else consumes the events in this system: the webhook queue is the test's.
      await system.bus.consume('webhooks.events', { prefetch: 10 }, async (d) => {
        if (d.topic === 'event.batch.completed') completed.push(d.payload);
      });
    });
    afterAll(async () => {
      await worker?.stop();
      await system?.close();
    });

    const upload = (body: string, type: string, account = 'acct-1', path = V1) =>
      request(app).post(path).set('Content-Type', type).set('X-Test-Account', account).send(body);
    const status = (id: string, account = 'acct-1') => request(app).get(`${V1}/${id}`).set('X-Test-Account', account);
    const finished = (id: string, account = 'acct-1') =>
      waitUntil(async () => ((await status(id, account)).body.status === 'completed' ? true : undefined), {
        timeoutMs: 20_000,
        message: `batch ${id} completed`,
      });

    it('CSV with vendor headers: accepts, rejects with reasons, traces, exports in input order', async () => {
      completed = [];
      const res = await upload(sampleCsv(30), 'text/csv', 'acct-1', `${V1}?name=Absentee%20owners&tags=tired,TX`);
      expect(res.status).toBe(202);
      expect(res.body).toMatchObject({
        status: expect.stringMatching(/^(queued|running|completed)$/),
        accepted: 27,
        rejected: 3,
      });
      expect(res.body.status_url).toBe(`${V1}/${res.body.id}`);
      await finished(res.body.id);
      const done = (await status(res.body.id)).body;
      expect(done).toMatchObject({ total: 30, processed: 27, matched: 27, no_match: 0, failed: 0, rejected: 3 });
      expect(done.completed_at).toBeDefined();
      expect(done.rate).toBeGreaterThan(0);
      await waitUntil(() => completed.length === 1, { message: 'batch.completed event' });
      expect(completed[0]).toMatchObject({
        accountId: 'acct-1',
        data: { id: res.body.id, status: 'completed', matched: 27, name: 'Absentee owners', tags: ['tired', 'TX'] },
      });

      const csv = await request(app).get(`${V1}/${res.body.id}/results`).set('Accept', 'text/csv');
      expect(csv.status).toBe(200);
      const lines = csv.text.trim().split('\n');
      expect(lines).toHaveLength(31);
      const header = lines[0]!.split(',');
      expect(header.slice(0, 8)).toEqual([
        'Property Address',
        'City',
        'State',
        'Zip',
        'Owner First Name',
        'Owner Last Name',
        'phone_1',
        'phone_1_type',
      ]);
      expect(header.slice(-5)).toEqual(['confidence', 'status', 'error', 'truncated', 'people_total']);
      const rows = lines.slice(1).map((l) => l.split(','));
      expect(rows.map((r) => r[0])).toEqual(Array.from({ length: 30 }, (_, i) => `${i + 1} Main St`));
      expect(rows[0]!.slice(6, 10)).toEqual([expect.stringMatching(/^\+1512\d{7}$/), 'mobile', 'false', 'false']);
      expect(rows[0]!.slice(-5)).toEqual(['0.9', 'completed', '', 'false', '']);
      expect(rows[9]!.slice(-4)).toEqual(['rejected', 'zip_code: must be a ZIP5 or ZIP+4 code', '', '']);

      const nd = await request(app).get(`${V1}/${res.body.id}/results`).set('Accept', 'application/x-ndjson');
      const docs = nd.text
        .trim()
        .split('\n')
        .map((l) => JSON.parse(l));
      expect(docs.map((d) => d.row)).toEqual(Array.from({ length: 30 }, (_, i) => i + 1));
      expect(docs[0]).toMatchObject({
        row: 1,
        status: 'completed',
        property: { street_address: '1 Main St', zip_code: '78701' },
      });
      expect(docs[0].results[0].phones).toHaveLength(2);
      expect(docs[9]).toMatchObject({ row: 10, status: 'rejected', error: 'zip_code: must be a ZIP5 or ZIP+4 code' });
      // Every traced row is also an ordinary skip-trace result with an id (its outcome from batch_results).
      const listed = (await listProperties(system.db, createBatchRows(system), 'acct-1', 500)).filter(
        (p) => p.batch_id === res.body.id,
      );
      expect(listed.map((p) => p.status)).toEqual(Array(27).fill('completed'));
      const one = await getProperty(system.db, createBatchRows(system), 'acct-1', String(docs[0].id));
      expect(toResponse(one!)).toEqual({
        id: docs[0].id,
        status: 'completed',
        results: docs[0].results,
        truncated: false,
        property: docs[0].property,
        created_at: docs[0].created_at,
        completed_at: docs[0].completed_at,
      });

      // A row erased on its own (DELETE /plants/{id}) drops out of the export; the order holds.
      const { rows: erased } = await system.db.query<{ id: string }>(
        `SELECT id FROM properties WHERE batch_id = $1 AND row_number = 6`,
        [res.body.id],
      );
      expect(await eraseProperty(system.db, createBatchRows(system), 'acct-1', erased[0]!.id)).toBe(true);
      const after = (await request(app).get(`${V1}/${res.body.id}/results?format=ndjson`)).text
        .trim()
        .split('\n')
        .map((l) => JSON.parse(l).row);
      expect(after).toEqual(Array.from({ length: 30 }, (_, i) => i + 1).filter((n) => n !== 6));
    });

    it('NDJSON and JSON arrays, with ?map= and reasons for bad rows', async () => {
      const nd =
        '{"addr":"5 Oak NOMATCH","city":"Dallas","state":"TX","zip_code":"75201"}\nnope\n{"addr":"6 Oak","city":"Dallas","state":"XX","zip_code":"75201"}\n';
      const a = await upload(nd, 'application/x-ndjson', 'acct-1', `${V1}?map=street_address:addr`);
      expect(a.status).toBe(202);
      expect(a.body).toMatchObject({ accepted: 1, rejected: 2 });
      const json = JSON.stringify([
        { street_address: '9 Elm', city: 'Austin', state: 'Texas', zip_code: 78702, first_name: 'Jo' },
        { street_address: '9 Elm', city: 'Austin', state: 'Texas', zip_code: 78702, first_name: 'Jo' },
        { city: 'Austin' },
      ]);
      const b = await upload(json, 'application/json');
      expect(b.body).toMatchObject({ accepted: 2, rejected: 1 });
      await finished(a.body.id);
      await finished(b.body.id);
      expect((await status(a.body.id)).body).toMatchObject({ processed: 1, no_match: 1, rejected: 2 });
      // The duplicate address inside the batch is traced once and counted as reused.
      expect((await status(b.body.id)).body).toMatchObject({ processed: 2, matched: 2, reused: 1 });
      const docs = (await request(app).get(`${V1}/${a.body.id}/results?format=ndjson`)).text
        .trim()
        .split('\n')
        .map((l) => JSON.parse(l));
      expect(docs.map((d) => [d.row, d.status, d.error])).toEqual([
        [1, 'no_match', 'no owner found'],
        [2, 'rejected', 'line is not valid JSON'],
        [3, 'rejected', 'state: must be a USPS state code or state name'],
      ]);
      const csv = (await request(app).get(`${V1}/${b.body.id}/results`).set('Accept', 'text/csv')).text.split('\n');
      expect(csv[0]!.startsWith('street_address,city,state,zip_code,first_name,phone_1,')).toBe(true);
      expect(csv[3]!.startsWith(',Austin,,,,')).toBe(true);
      expect(csv[3]!.endsWith(',rejected,street_address: missing; state: missing; zip_code: missing,,')).toBe(true);
    });

    it('a stored result of the same account is reused within the TTL, not another account’s', async () => {
      const csv = 'street_address,city,state,zip_code\n1 Main St,Austin,TX,78701\n';
      const first = await upload(csv, 'text/csv', 'acct-reuse');
      await finished(first.body.id, 'acct-reuse');
      const before = engine.traced;
      const again = await upload(csv, 'text/csv', 'acct-reuse');
      await finished(again.body.id, 'acct-reuse');
      expect((await status(again.body.id, 'acct-reuse')).body).toMatchObject({ matched: 1, reused: 1 });
      expect(engine.traced).toBe(before);
      const other = await upload(csv, 'text/csv', 'acct-other');
      await finished(other.body.id, 'acct-other');
      expect((await status(other.body.id, 'acct-other')).body.reused).toBe(0);
      expect(engine.traced).toBe(before + 1);
    });

    it('a synchronous result of the same account is reused too (the newer of a sync and a batch result)', async () => {
      const property = { street_address: '77 Sync Rd', city: 'Austin', state: 'TX', zip_code: '78701' };
      const row = await insertProperty(system.db, 'acct-sync-reuse', property);
      const results = [
        { first_name: 'Sy', last_name: 'Nc', confidence: 0.8, reasons: [], phones: [], emails: ['sy@example.com'] },
      ];
      await completeProperty(system.db, row.id, { status: 'completed', results });
      const before = engine.traced;
      const csv = 'street_address,city,state,zip_code\n77 SYNC RD,austin,tx,78701-1234\n';
      const b = await upload(csv, 'text/csv', 'acct-sync-reuse');
      await finished(b.body.id, 'acct-sync-reuse');
      expect((await status(b.body.id, 'acct-sync-reuse')).body).toMatchObject({ matched: 1, reused: 1 });
      expect(engine.traced).toBe(before);
      const doc = JSON.parse(
        (await request(app).get(`${V1}/${b.body.id}/results?format=ndjson`).set('X-Test-Account', 'acct-sync-reuse'))
          .text,
      );
      expect(doc).toMatchObject({ row: 1, status: 'completed', results });
    });

    it('says when more people matched than a row returns, in both exports and when reused', async () => {
      const csv = 'street_address,city,state,zip_code\n2 Crowd Hall,Austin,TX,78701\n3 Quiet Ln,Austin,TX,78701\n';
      const first = await upload(csv, 'text/csv', 'acct-crowd');
      await finished(first.body.id, 'acct-crowd');
      const again = await upload(csv, 'text/csv', 'acct-crowd');
      await finished(again.body.id, 'acct-crowd');
      expect((await status(again.body.id, 'acct-crowd')).body).toMatchObject({ reused: 2 });
      for (const id of [first.body.id, again.body.id]) {
        const lines = (await request(app).get(`${V1}/${id}/results`).set('X-Test-Account', 'acct-crowd')).text
          .trim()
          .split('\n')
          .map((l) => l.split(','));
        expect(lines.map((l) => l.slice(-3))).toEqual([
          ['error', 'truncated', 'people_total'],
          ['', 'true', String(CROWD)],
          ['', 'false', ''],
        ]);
        const docs = (
          await request(app).get(`${V1}/${id}/results?format=ndjson`).set('X-Test-Account', 'acct-crowd')
        ).text
          .trim()
          .split('\n')
          .map((l) => JSON.parse(l));
        expect(docs[0]).toMatchObject({ row: 1, truncated: true, people_total: CROWD });
        expect(docs[1]).toMatchObject({ row: 2, truncated: false });
        expect(docs[1]).not.toHaveProperty('people_total');
      }
    });

    it('exports owners vs residents, each person’s current address, the owners of record and the mailing address used', async () => {
      const csv =
        'street_address,city,state,zip_code,Mail Addr,Mail City,Mail State,Mail Zip,Parcel Number\n' +
        '5 Owned Rd,Austin,TX,78701,,,,,\n6 Owned Nomatch Rd,Austin,TX,78701,,,,,\n' +
        '7 Owned Rd,Austin,TX,78701,PO Box 99,Houston,TX,77001,042-7\n';
      const { body } = await upload(csv, 'text/csv', 'acct-owned').expect(202);
      await finished(body.id, 'acct-owned');
      const [header, owned, nobody, given] = parseCsv(
        (await request(app).get(`${V1}/${body.id}/results`).set('X-Test-Account', 'acct-owned')).text,
      ) as string[][];
      const at = (row: string[], column: string) => row[header!.indexOf(column)];
      expect([1, 2].map((n) => [`phone_${n}_owner`, `phone_${n}_resident`, `phone_${n}_current_address`])).toEqual([
        ['phone_1_owner', 'phone_1_resident', 'phone_1_current_address'],
        ['phone_2_owner', 'phone_2_resident', 'phone_2_current_address'],
      ]);
      // The owner's two phones, then the tenant's one: never the tenant's number as the owner's.
      expect(
        [1, 2, 3].map((n) => [`phone_${n}`, `phone_${n}_owner`, `phone_${n}_resident`].map((c) => at(owned!, c))),
      ).toEqual([
        [expect.stringMatching(/^\+1512/), 'true', 'false'],
        [expect.stringMatching(/^\+1737/), 'true', 'false'],
        [expect.stringMatching(/^\+1214/), 'false', 'true'],
      ]);
      expect(at(owned!, 'phone_1_current_address')).toBe('9 Elm St, Dallas, TX 75201');
      expect(at(owned!, 'phone_3_current_address')).toBe('5 Owned Rd, Austin, TX 78701');
      expect(at(owned!, 'owners_of_record')).toBe('Ann Lee; =Bob Lee Trust');
      expect(at(owned!, 'mailing_address_used')).toBe('PO Box 12, Dallas, TX 75201');
      // Nobody found: the record is still named.
      expect(at(nobody!, 'status')).toBe('no_match');
      expect(at(nobody!, 'owners_of_record')).toBe('Ann Lee; =Bob Lee Trust');
      // The caller's mailing address wins over the record's.
      expect(at(given!, 'mailing_address_used')).toBe('PO Box 99, Houston, TX 77001');

      const docs = (
        await request(app).get(`${V1}/${body.id}/results?format=ndjson`).set('X-Test-Account', 'acct-owned')
      ).text
        .trim()
        .split('\n')
        .map((l) => JSON.parse(l));
      expect(docs[0]).toMatchObject({ row: 1, owners_of_record: OWNED_RECORD, mailing_address: OWNED_MAILING });
      expect(docs[0].results.map((r: { owner: boolean; resident: boolean }) => [r.owner, r.resident])).toEqual([
        [true, false],
        [false, true],
      ]);
      expect(docs[1]).toMatchObject({ row: 2, status: 'no_match', owners_of_record: OWNED_RECORD });
      const mailing = { street_address: 'PO Box 99', city: 'Houston', state: 'TX', zip_code: '77001' };
      expect(docs[2]).toMatchObject({
        row: 3,
        property: { street_address: '7 Owned Rd', mailing_address: mailing, apn: '042-7' },
        mailing_address: mailing,
      });
      // The same facts as GET /property/skiptrace/{id} answers.
      for (const doc of [docs[0], docs[2]]) {
        const one = await getProperty(system.db, createBatchRows(system), 'acct-owned', String(doc.id));
        const { row: _row, ...asExported } = doc;
        expect(toResponse(one!)).toEqual(asExported);
      }
    });

    it('decodes a declared charset, UTF-16 without a BOM and gzip; refuses what it cannot decode or parse', async () => {
      const csv = 'street_address,city,state,zip_code,first_name\n1 Main St,Austin,TX,78701,Jänet\n';
      const send = (body: Buffer, type: string, headers: Record<string, string> = {}) =>
        request(app).post(V1).set('Content-Type', type).set('X-Test-Account', 'acct-enc').set(headers).send(body);
      const latin = await send(Buffer.from(csv, 'latin1'), 'text/csv; charset=iso-8859-1').expect(202);
      const utf16 = await send(Buffer.from(csv, 'utf16le').swap16(), 'text/csv').expect(202);
      const gzip = await send(gzipSync(csv), 'text/csv', { 'Content-Encoding': 'gzip' }).expect(202);
      // Undeclared Windows-1252 (a spreadsheet's "CSV" on Windows) is detected, and the answer says so.
      const detected = await send(Buffer.from(csv, 'latin1'), 'text/csv').expect(202);
      expect(detected.body).toMatchObject({ encoding: 'windows-1252', encoding_source: 'detected', delimiter: ',' });
      const forced = await send(Buffer.from(csv, 'latin1'), 'text/csv', {})
        .query({ charset: 'windows-1252' })
        .expect(202);
      expect(forced.body).toMatchObject({ encoding: 'windows-1252', encoding_source: 'declared' });
      for (const id of [latin.body.id, utf16.body.id, gzip.body.id, detected.body.id, forced.body.id] as string[]) {
        await finished(id, 'acct-enc');
        const out = await request(app).get(`${V1}/${id}/results?format=ndjson`).set('X-Test-Account', 'acct-enc');
        expect(out.text).toContain('"first_name":"Jänet"');
      }
      const undecodable = await send(Buffer.from(csv, 'latin1'), 'text/csv; charset=utf-8');
      expect(undecodable.status).toBe(400);
      expect(undecodable.body.message).toContain('is not valid UTF-8');
      const quote = await send(Buffer.from('street_address,city\n1 "Main" St,Austin\n'), 'text/csv');
      expect(quote.status).toBe(400);
      expect(quote.body).toMatchObject({ error: 1000, message: expect.stringContaining('malformed CSV') as unknown });
      const notGzip = await send(Buffer.from(csv), 'text/csv', { 'Content-Encoding': 'gzip' });
      expect(notGzip.status).toBe(400);
      // Brotli's decoder errors have other names than zlib's (found by the fuzzer: a 500).
      const notBrotli = await send(Buffer.from(csv), 'text/csv', { 'Content-Encoding': 'br' });
      expect(notBrotli.status).toBe(400);
      expect(notBrotli.body.message).toContain('does not decode as its Content-Encoding says');
      // A NUL (which PostgreSQL cannot store) refuses its row, naming the column; the rest is kept.
      const nul = await send(Buffer.from(`${csv}2 Oak St,Austin,TX,78701,Ja\u0000net\n`), 'text/csv').expect(202);
      expect(nul.body).toMatchObject({ accepted: 1, rejected: 1 });
    });

    it('refuses a decompression bomb with 413 while streaming, keeping nothing (#22 defect 1)', async () => {
      // 64 MiB of blank lines after a header: 138 bytes of brotli. Blank lines reach no row
      // limit; the inflation ratio stops it once 1 MiB has come out.
      const bomb = brotliCompressSync(
        Buffer.concat([Buffer.from('street_address,city,state,zip_code\n'), Buffer.alloc(64 * 1024 * 1024, 10)]),
        { params: { [zlibConstants.BROTLI_PARAM_QUALITY]: 4 } },
      );
      const res = await request(app)
        .post(V1)
        .set('Content-Type', 'text/csv')
        .set('Content-Encoding', 'br')
        .set('X-Test-Account', 'acct-bomb')
        .send(bomb);
      expect(res.status).toBe(413);
      expect(res.body).toMatchObject({
        error: 1004,
        message: expect.stringContaining('decompression bomb') as unknown,
      });
      const kept = await system.db.query(`SELECT id FROM batches WHERE account_id = 'acct-bomb'`);
      expect(kept.rows).toEqual([]);
    });

    it('refuses 5 MB of NDJSON whose every line brings new keys past the column limit, fast, keeping nothing (#22 defect 3)', async () => {
      const wide = buildApp(system.db, system.bus, { maxRows: 1_000_000 });
      const address = '"street_address":"1 Main St","city":"Austin","state":"TX","zip_code":"78701"';
      const lines: string[] = [];
      for (let i = 0, size = 0; size < 5_000_000; i++) {
        const line = `{${address},"k${i}a":"${'v'.repeat(20)}","k${i}b":${i}}`;
        lines.push(line);
        size += line.length + 1;
      }
      const started = performance.now();
      const res = await request(wide)
        .post(V1)
        .set('Content-Type', 'application/x-ndjson')
        .set('X-Test-Account', 'acct-wide')
        .send(`${lines.join('\n')}\n`);
      const seconds = (performance.now() - started) / 1000;
      expect({ status: res.status, body: res.body }).toEqual({
        status: 400,
        body: { error: 1000, message: expect.stringContaining('at most 200 columns') as unknown },
      });
      expect(seconds).toBeLessThan(10);
      const kept = await system.db.query(`SELECT id FROM batches WHERE account_id = 'acct-wide'`);
      expect(kept.rows).toEqual([]);
    });

    it('runs at most BATCH_EXPORTS_PER_ACCOUNT exports of an account at once: 429 with Retry-After past it (#22 defect 3)', async () => {
      // The first export is held inside its first page query until the test lets it go.
      let release!: () => void;
      let held: Promise<void> | undefined;
      let waiting = 0;
      const gated = new Proxy(system.db, {
        get(target, key) {
          if (key !== 'query') return Reflect.get(target, key) as unknown;
          return async (sql: string, params?: unknown[]) => {
            if (held && sql.includes('row_number BETWEEN')) {
              waiting++;
              await held;
            }
            return target.query(sql, params);
          };
        },
      });
      const limited = buildApp(gated, system.bus, { exportsPerAccount: 1 });
      const { body } = await upload(sampleCsv(3), 'text/csv', 'acct-export').expect(202);
      const results = () => request(limited).get(`${V1}/${body.id}/results`).set('X-Test-Account', 'acct-export');
      held = new Promise((resolve) => (release = resolve));
      const first = results().then((r) => r);
      await waitUntil(() => (waiting > 0 ? true : undefined), { timeoutMs: 10_000, message: 'first export running' });
      const refused = await results();
      expect({ status: refused.status, retryAfter: refused.headers['retry-after'], error: refused.body.error }).toEqual(
        {
          status: 429,
          retryAfter: '5',
          error: 1300,
        },
      );
      release();
      held = undefined;
      expect((await first).status).toBe(200);
      expect((await results()).status).toBe(200);
    });

    it.each([2_600, 12_000])(
      'refuses a row nested %i levels deep with 400 naming the limit, keeping nothing (#22 defect 4)',
      async (levels) => {
        const deep = `${'['.repeat(levels)}${']'.repeat(levels)}`;
        const row = `{"street_address":"1 Main St","city":"Austin","state":"TX","zip_code":"78701","notes":${deep}}`;
        const good = '{"street_address":"2 Oak St","city":"Austin","state":"TX","zip_code":"78701"}';
        for (const [body, type] of [
          [`${good}\n${row}\n`, 'application/x-ndjson'],
          [`[${good},${row}]`, 'application/json'],
        ] as const) {
          const res = await upload(body, type, 'acct-deep');
          expect({ type, status: res.status, body: res.body }).toEqual({
            type,
            status: 400,
            body: { error: 1000, message: 'a row nests objects and arrays deeper than 64 levels; nothing was stored' },
          });
        }
        const kept = await system.db.query(`SELECT id FROM batches WHERE account_id = 'acct-deep'`);
        expect(kept.rows).toEqual([]);
      },
    );

    it.each([
      ['a string longer than 16384 characters', `"${'n'.repeat(16_385)}"`],
      ['an object with more than 1000 keys', `{${Array.from({ length: 1_001 }, (_, i) => `"k${i}":0`).join(',')}}`],
      ['an array with more than 1000 elements', `[${Array(1_001).fill('0').join(',')}]`],
    ])('refuses a row with %s with 400 naming the limit, keeping nothing (#22 item 4)', async (limit, notes) => {
      const row = `{"street_address":"1 Main St","city":"Austin","state":"TX","zip_code":"78701","notes":${notes}}`;
      const good = '{"street_address":"2 Oak St","city":"Austin","state":"TX","zip_code":"78701"}';
      for (const [body, type] of [
        [`${good}\n${row}\n`, 'application/x-ndjson'],
        [`[${good},${row}]`, 'application/json'],
      ] as const) {
        const res = await upload(body, type, 'acct-json-limits');
        expect({ type, status: res.status, body: res.body }).toEqual({
          type,
          status: 400,
          body: { error: 1000, message: `a row has ${limit}; nothing was stored` },
        });
      }
      const kept = await system.db.query(`SELECT id FROM batches WHERE account_id = 'acct-json-limits'`);
      expect(kept.rows).toEqual([]);
    });

    it('takes the widest rows the limits allow: 200 columns, 16,384-character cells, 1,000-element values', async () => {
      const wide = (n: number) => {
        const row: Record<string, unknown> = {
          street_address: `${n} Main St`,
          city: 'Austin',
          state: 'TX',
          zip_code: '78701',
        };
        for (let i = 0; i < 194; i++) row[`extra_${i}`] = `value ${i} of row ${n}`;
        row.long = 'x'.repeat(16_384);
        row.list = Array(1_000).fill(1);
        return row;
      };
      const rows = [wide(1), wide(2), wide(3)];
      expect(Object.keys(rows[0]!)).toHaveLength(200);
      for (const [body, type] of [
        [rows.map((r) => JSON.stringify(r)).join('\n'), 'application/x-ndjson'],
        [JSON.stringify(rows), 'application/json'],
      ] as const) {
        const res = await upload(body, type, 'acct-wide');
        expect({ type, status: res.status }).toEqual({ type, status: 202 });
        expect({ accepted: res.body.accepted, rejected: res.body.rejected }).toEqual({ accepted: 3, rejected: 0 });
      }
    });

    it('exports caller-supplied cells a spreadsheet would run as formulas neutralised (OWASP CSV injection)', async () => {
      const csv =
        'street_address,city,state,zip_code,first_name,last_name,=cmd\n' +
        '1 Main St,Austin,TX,78701,"=HYPERLINK(""http://evil.example"",""x"")",@SUM(A1),"+cmd|\' /C calc\'!A0"\n' +
        '2 Oak St,Austin,TX,78701,-2+3,"\t=1",plain\n';
      const res = await upload(csv, 'text/csv', 'acct-inject').expect(202);
      await finished(res.body.id, 'acct-inject');
      const out = await request(app)
        .get(`${V1}/${res.body.id}/results?format=csv`)
        .set('X-Test-Account', 'acct-inject');
      const lines = out.text.split('\n');
      expect(lines[0]!.startsWith('street_address,city,state,zip_code,first_name,last_name,"\'=cmd",phone_1,')).toBe(
        true,
      );
      expect(lines[1]).toContain(`"'=HYPERLINK(""http://evil.example"",""x"")","'@SUM(A1)","'+cmd|' /C calc'!A0"`);
      expect(lines[2]).toContain(`"'-2+3","'\t=1",plain`);
      // No cell starts with a formula character outside a neutralising quote, but for the
      // system's own E.164 phone numbers (a + and digits only: a number, not a formula).
      for (const line of lines) expect(line).not.toMatch(/(^|,)(?!\+\d+(,|$))[=+@\t\r-]/);
    });

    it('refuses an empty or header-only file with 400 before a batch exists, and names a too-long row', async () => {
      const before = await system.db.query<{ n: string }>(`SELECT count(*) AS n FROM batches`);
      for (const body of ['', 'Address,City,State,Zip\n', '[]']) {
        const res = await upload(body, body === '[]' ? 'application/json' : 'text/csv', 'acct-empty');
        expect(res.status).toBe(400);
        expect(res.body).toMatchObject({ error: 1000, message: expect.stringMatching(/no rows|empty/) as unknown });
      }
      const after = await system.db.query<{ n: string }>(`SELECT count(*) AS n FROM batches`);
      expect(after.rows[0]!.n).toBe(before.rows[0]!.n);
      const long = `street_address,city,state,zip_code\n1 A St,Austin,TX,78701\n2 B St,Austin,TX,${'9'.repeat(70_000)}\n`;
      const res = await upload(long, 'text/csv', 'acct-empty');
      expect(res.status).toBe(413);
      expect(res.body.message).toMatch(/^row 2 is longer than 65536 bytes/);
    });

    it('previews a semicolon file as its upload reads it, remembers a mapping and chooses it again; lists rejects with row numbers', async () => {
      const csv =
        'Site Addr;Town;ST;Zip;Owner 1 First Name;Owner 1 Last Name\n1 Main St;Austin;TX;78701;Ann;Roe\n2 Elm St;Austin;TX;7870;Bo;Lee\n';
      const preview = await upload(csv, 'text/csv', 'acct-map', `${V1}/preview`).expect(200);
      expect(preview.body).toMatchObject({
        format: 'csv',
        delimiter: ';',
        encoding: 'utf-8',
        columns: ['Site Addr', 'Town', 'ST', 'Zip', 'Owner 1 First Name', 'Owner 1 Last Name'],
        rows: [
          ['1 Main St', 'Austin', 'TX', '78701', 'Ann', 'Roe'],
          ['2 Elm St', 'Austin', 'TX', '7870', 'Bo', 'Lee'],
        ],
        mapping_source: 'aliases',
        mapping: { city: 'Town', first_name: 'Owner 1 First Name', last_name: 'Owner 1 Last Name' },
        warnings: [],
      });
      // "Site Addr" is no alias: mapped by hand and saved for this header set.
      const first = await upload(csv, 'text/csv', 'acct-map', `${V1}?map=street_address=Site%20Addr&save_mapping=true`);
      expect(first.status).toBe(202);
      expect(first.body).toMatchObject({ accepted: 1, rejected: 1, mapping_source: 'request', delimiter: ';' });
      const saved = await request(app).get(`${V1}/mappings`).set('X-Test-Account', 'acct-map').expect(200);
      expect(saved.body).toHaveLength(1);
      expect(saved.body[0].map).toMatchObject({ street_address: 'Site Addr', zip_code: 'Zip' });
      // The same columns in another case and order: the saved mapping, for the preview and the upload.
      const again = 'town;st;zip;site addr\nAustin;TX;78701;3 Oak St\n'.replace(
        'town;st;zip;site addr',
        'Town;ST;Zip;Site Addr;Owner 1 Last Name;Owner 1 First Name',
      );
      const pre2 = await upload(again, 'text/csv', 'acct-map', `${V1}/preview`).expect(200);
      expect(pre2.body.mapping_source).toBe('saved');
      const second = await upload(again, 'text/csv', 'acct-map');
      expect(second.body).toMatchObject({ accepted: 1, mapping_source: 'saved' });
      // Another account has no saved mapping.
      const other = await upload(again, 'text/csv', 'acct-other', `${V1}/preview`).expect(200);
      expect(other.body.mapping_source).toBe('aliases');
      await finished(first.body.id, 'acct-map');
      const rejects = await request(app).get(`${V1}/${first.body.id}/rejects`).set('X-Test-Account', 'acct-map');
      expect(rejects.body).toEqual([
        {
          row: 2,
          reason: 'zip_code: must be a ZIP5 or ZIP+4 code',
          input: ['2 Elm St', 'Austin', 'TX', '7870', 'Bo', 'Lee'],
        },
      ]);
      const csvRejects = await request(app)
        .get(`${V1}/${first.body.id}/rejects?format=csv`)
        .set('X-Test-Account', 'acct-map');
      expect(csvRejects.text.split('\n')[1]).toBe(
        '2,zip_code: must be a ZIP5 or ZIP+4 code,2 Elm St,Austin,TX,7870,Bo,Lee',
      );
      const deleted = await request(app).delete(`${V1}/mappings/${saved.body[0].id}`).set('X-Test-Account', 'acct-map');
      expect(deleted.status).toBe(204);
      await request(app).delete(`${V1}/mappings/${saved.body[0].id}`).set('X-Test-Account', 'acct-map').expect(404);
      // Warnings: owner columns no alias maps.
      const unmapped = await upload(
        'Address,City,State,Zip,Owner2FirstName\n1 A St,Austin,TX,78701,Al\n',
        'text/csv',
        'acct-map',
        `${V1}/preview`,
      );
      expect(unmapped.body.warnings).toEqual([expect.objectContaining({ code: 'owner_names_unmapped' })]);
      const bad = await upload(csv, 'text/csv', 'acct-map', `${V1}/preview?delimiter=x`);
      expect(bad.status).toBe(400);
    });

    it('takes an XLSX workbook in and gives one out', async () => {
      const book = new ExcelJS.Workbook();
      const sheet = book.addWorksheet('Leads');
      sheet.addRow(['Property Address', 'Property City', 'Property State', 'Property Zip', 'First Name', 'Last Name']);
      sheet.addRow(['1 Main St', 'Austin', 'TX', '01234', 'Ann', 'Roe']);
      sheet.addRow(['2 Elm St', 'Austin', 'TX', 78701, 'Bo', 'Lee']);
      const bytes = Buffer.from(await book.xlsx.writeBuffer());
      const type = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';
      const res = await request(app).post(V1).set('Content-Type', type).set('X-Test-Account', 'acct-xlsx').send(bytes);
      expect(res.status).toBe(202);
      expect(res.body).toMatchObject({ accepted: 2, sheet: 'Leads', mapping_source: 'aliases' });
      await finished(res.body.id, 'acct-xlsx');
      const out = await request(app)
        .get(`${V1}/${res.body.id}/results?format=xlsx`)
        .set('X-Test-Account', 'acct-xlsx')
        .buffer(true)
        .parse((r, done) => {
          const chunks: Buffer[] = [];
          r.on('data', (c: Buffer) => chunks.push(c));
          r.on('end', () => done(null, Buffer.concat(chunks)));
        });
      expect(out.headers['content-type']).toBe(type);
      const read = new ExcelJS.Workbook();
      await read.xlsx.load(out.body as Parameters<typeof read.xlsx.load>[0]);
      const rows: unknown[][] = [];
      read.getWorksheet('Results')!.eachRow((row) => rows.push((row.values as unknown[]).slice(1)));
      expect(rows[0]!.slice(0, 6)).toEqual([
        'Property Address',
        'Property City',
        'Property State',
        'Property Zip',
        'First Name',
        'Last Name',
      ]);
      expect(rows[1]!.slice(0, 4)).toEqual(['1 Main St', 'Austin', 'TX', '01234']);
      expect(rows).toHaveLength(3);
      const notXlsx = await request(app)
        .post(V1)
        .set('Content-Type', type)
        .set('X-Test-Account', 'acct-xlsx')
        .send(Buffer.from('a,b\n'));
      expect(notXlsx.status).toBe(400);
    });

    it('refuses bad requests: media type, map, over the row cap (413, nothing kept)', async () => {
      expect((await upload('x', 'text/plain')).status).toBe(415);
      expect((await upload(sampleCsv(2), 'text/csv', 'acct-1', `${V1}?map=zip_code:Nope`)).body).toMatchObject({
        error: 1000,
      });
      // Pages of 4 rows: chunks of the first 200 rows were opened and traced while the upload
      // went on (openStoredChunks); the refusal at row 201 takes them with the batch.
      const counts = async () =>
        (
          await system.db.query<{ batches: number; chunks: number; results: number; rows: number }>(
            `SELECT (SELECT count(*)::int FROM batches) AS batches, (SELECT count(*)::int FROM batch_chunks) AS chunks,
                    (SELECT count(*)::int FROM batch_results) AS results,
                    (SELECT count(*)::int FROM properties WHERE batch_id IS NOT NULL) AS rows`,
          )
        ).rows[0]!;
      const before = await counts();
      const big = await upload(sampleCsv(201), 'text/csv');
      expect(big.status).toBe(413);
      expect(big.body).toEqual({ error: 1004, message: 'a batch holds at most 200 rows; nothing was stored' });
      expect(await counts()).toEqual(before);
      expect((await upload('[{"a":1}', 'application/json')).status).toBe(400);
      expect((await request(app).get(`${V1}/abc`)).status).toBe(400);
    });

    it('honours Idempotency-Key: same body → same batch, other body → 409', async () => {
      const send = (body: string) =>
        request(app).post(V1).set('Content-Type', 'text/csv').set('Idempotency-Key', 'k-1').send(body);
      const a = await send(sampleCsv(5));
      const b = await send(sampleCsv(5));
      expect(b.status).toBe(202);
      expect(b.body.id).toBe(a.body.id);
      const c = await send(sampleCsv(6));
      expect(c.status).toBe(409);
      expect(c.body.error).toBe(1005);
    });

    it('lists newest first with a cursor, and keeps accounts apart', async () => {
      const ids: string[] = [];
      for (let i = 0; i < 3; i++) ids.push((await upload(sampleCsv(1), 'text/csv', 'acct-list')).body.id);
      const page1 = await request(app).get(`${V1}?limit=2`).set('X-Test-Account', 'acct-list');
      expect(page1.body.map((b: { id: string }) => b.id)).toEqual([ids[2], ids[1]]);
      const page2 = await request(app)
        .get(`${V1}?limit=2&cursor=${page1.headers['x-next-cursor']}`)
        .set('X-Test-Account', 'acct-list');
      expect(page2.body.map((b: { id: string }) => b.id)).toEqual([ids[0]]);
      expect(page2.headers['x-next-cursor']).toBeUndefined();
      expect((await status(ids[0]!, 'acct-1')).status).toBe(404);
      expect(
        (await request(app).post(V1).set('X-Test-Scopes', 'read').set('Content-Type', 'text/csv').send('a')).status,
      ).toBe(403);
    });

    it('names a batch (the file name by default), tags it, renames and retags it with PATCH', async () => {
      const account = 'acct-names';
      const byFile = await request(app)
        .post(V1)
        .set('Content-Type', 'text/csv')
        .set('Content-Disposition', 'attachment; filename="C:\\lists\\propstream austin.csv"')
        .set('X-Test-Account', account)
        .send(sampleCsv(3));
      expect(byFile.status).toBe(202);
      const named = await request(app)
        .post(`${V1}?name=${encodeURIComponent('  Austin absentee  ')}&tags=austin,%20absentee,austin`)
        .set('Content-Type', 'text/csv')
        .set('X-Test-Account', account)
        .send(sampleCsv(2));
      const unnamed = await upload(sampleCsv(1), 'text/csv', account);
      await Promise.all([byFile, named, unnamed].map((r) => finished(r.body.id, account)));
      expect((await status(byFile.body.id, account)).body).toMatchObject({
        name: 'propstream austin.csv',
        tags: [],
        fresh: false,
        rerun_of: null,
      });
      const doc = (await status(named.body.id, account)).body;
      expect(doc).toMatchObject({ name: 'Austin absentee', tags: ['austin', 'absentee'] });
      // Two phones a match, one of them mobile: counted as the results were stored.
      expect(doc).toMatchObject({ matched: 2, phones: 4, mobile: 2, mobile_share: 0.5 });
      expect(doc.duration_seconds).toEqual(expect.any(Number));
      expect((await status(unnamed.body.id, account)).body.name).toBe(`Batch ${unnamed.body.id}`);

      const patch = (id: string, body: unknown) =>
        request(app)
          .patch(`${V1}/${id}`)
          .set('X-Test-Account', account)
          .send(body as object);
      const renamed = await patch(named.body.id, { name: 'Austin Q1', tags: ['q1'] });
      expect(renamed.status).toBe(200);
      expect(renamed.body).toMatchObject({ id: named.body.id, name: 'Austin Q1', tags: ['q1'], matched: 2 });
      expect((await patch(named.body.id, { tags: [] })).body).toMatchObject({ name: 'Austin Q1', tags: [] });
      const list = await request(app).get(V1).set('X-Test-Account', account);
      expect(list.body.map((b: { name: string }) => b.name)).toEqual([
        `Batch ${unnamed.body.id}`,
        'Austin Q1',
        'propstream austin.csv',
      ]);

      // Refused: an empty name, a tag with a comma, too many tags, an unknown field, nothing to change; another account's batch.
      for (const body of [
        { name: ' ' },
        { tags: ['a,b'] },
        { tags: Array.from({ length: 11 }, (_, i) => `t${i}`) },
        { colour: 'red' },
        {},
      ]) {
        const res = await patch(named.body.id, body);
        expect(res.status).toBe(400);
        expect(res.body.error).toBe(1000);
      }
      expect(
        (await request(app).patch(`${V1}/${named.body.id}`).set('X-Test-Account', 'acct-other').send({ name: 'x' }))
          .status,
      ).toBe(404);
      const badTags = await request(app)
        .post(`${V1}?tags=${encodeURIComponent('x'.repeat(41))}`)
        .set('Content-Type', 'text/csv')
        .set('X-Test-Account', account)
        .send(sampleCsv(1));
      expect(badTags.status).toBe(400);
      expect(badTags.body).toEqual({ error: 1002, message: expect.stringContaining('at most 40 characters') });
    });

    it('re-runs the misses of a batch as a fresh batch that traces them again, and a whole list fresh', async () => {
      const account = 'acct-rerun';
      const csv =
        'Address,City,State,Zip\n1 Hit St,Austin,TX,78701\n2 NOMATCH Rd,Austin,TX,78701\n3 Hit St,Austin,TX,78701\n4 NOMATCH Ln,Austin,TX,78701\nbad,,TX,1\n';
      const first = await request(app)
        .post(`${V1}?name=list.csv&tags=q1`)
        .set('Content-Type', 'text/csv')
        .set('X-Test-Account', account)
        .send(csv);
      await finished(first.body.id, account);
      expect((await status(first.body.id, account)).body).toMatchObject({ matched: 2, no_match: 2, rejected: 1 });

      // The same list again within the TTL: every row answered from the cache.
      const again = await upload(csv, 'text/csv', account);
      await finished(again.body.id, account);
      expect((await status(again.body.id, account)).body).toMatchObject({ processed: 4, reused: 4 });

      const rerun = (id: string, body: unknown, acct = account) =>
        request(app)
          .post(`${V1}/${id}/rerun`)
          .set('X-Test-Account', acct)
          .send(body as object);
      const before = engine.traced;
      const misses = await rerun(first.body.id, {});
      expect(misses.status).toBe(202);
      expect(misses.headers.location).toBe(`${V1}/${misses.body.id}`);
      expect(misses.body).toMatchObject({ accepted: 2, rejected: 0 });
      await finished(misses.body.id, account);
      const doc = (await status(misses.body.id, account)).body;
      expect(doc).toMatchObject({
        name: 'list.csv (misses)',
        tags: ['q1'],
        fresh: true,
        rerun_of: first.body.id,
        total: 2,
        no_match: 2,
        reused: 0,
      });
      // Traced again, not answered by the misses of minutes ago.
      expect(engine.traced - before).toBe(2);
      const rows = (
        await request(app).get(`${V1}/${misses.body.id}/results?format=ndjson`).set('X-Test-Account', account)
      ).text
        .trim()
        .split('\n')
        .map((l) => JSON.parse(l));
      expect(rows.map((r) => [r.row, r.property.street_address])).toEqual([
        [1, '2 NOMATCH Rd'],
        [2, '4 NOMATCH Ln'],
      ]);

      // Force fresh: every accepted row of the list, traced again; named as asked.
      const fresh = await rerun(first.body.id, { rows: 'all', name: 'list fresh', tags: ['fresh'] });
      expect(fresh.status).toBe(202);
      await finished(fresh.body.id, account);
      expect((await status(fresh.body.id, account)).body).toMatchObject({
        name: 'list fresh',
        tags: ['fresh'],
        fresh: true,
        total: 4,
        matched: 2,
        no_match: 2,
        reused: 0,
      });
      expect(engine.traced - before).toBe(6);

      // An upload with ?fresh=true reuses nothing either.
      const freshUpload = await request(app)
        .post(`${V1}?fresh=true`)
        .set('Content-Type', 'text/csv')
        .set('X-Test-Account', account)
        .send(csv);
      await finished(freshUpload.body.id, account);
      expect((await status(freshUpload.body.id, account)).body).toMatchObject({ fresh: true, processed: 4, reused: 0 });
      expect(engine.traced - before).toBe(10);

      // A list without misses, a bad body, another account's batch.
      const hits = await upload('Address,City,State,Zip\n9 Hit St,Austin,TX,78701\n', 'text/csv', account);
      await finished(hits.body.id, account);
      const none = await rerun(hits.body.id, {});
      expect(none.status).toBe(409);
      expect(none.body).toEqual({ error: 1202, message: expect.stringContaining('no missed rows') });
      expect((await rerun(first.body.id, { rows: 'some' })).status).toBe(400);
      expect((await rerun(first.body.id, {}, 'acct-other')).status).toBe(404);
    });

    it('an engine error is retried, and on the last attempt the chunk is stored as failed, counted once', async () => {
      await worker.stop();
      const res = await upload(sampleCsv(9, 501), 'text/csv', 'acct-failing');
      const id = res.body.id as string;
      const broken = {
        async trace(): Promise<never> {
          throw new Error('contact store unreachable');
        },
        async traceMany(): Promise<never> {
          throw new Error('contact store unreachable');
        },
      };
      const handler = createBatchChunkHandler({
        db: system.db,
        bus: system.bus,
        engine: broken,
        logger: silentLogger(),
        config: { maxAttempts: 2 },
      });
      const delivery = (attempt: number) => ({
        topic: 'job.batch.chunk' as const,
        payload: { batchId: id, accountId: 'acct-failing', fromRow: 1, toRow: 7 },
        messageId: `batch:${id}:1`,
        headers: {},
        attempt,
        reply: () => {},
      });
      await expect(handler(delivery(1))).rejects.toThrow('contact store unreachable');
      expect((await status(id, 'acct-failing')).body).toMatchObject({ processed: 0, failed: 0 });
      await handler(delivery(2));
      await handler(delivery(2));
      expect((await status(id, 'acct-failing')).body).toMatchObject({ processed: 7, failed: 7, matched: 0 });
      const docs = (
        await request(app).get(`${V1}/${id}/results?format=ndjson`).set('X-Test-Account', 'acct-failing')
      ).text
        .trim()
        .split('\n')
        .map((l) => JSON.parse(l));
      expect(docs.slice(0, 7).map((d) => [d.status, d.error])).toEqual(
        Array(7).fill(['failed', 'skip trace failed after repeated errors']),
      );
      expect(docs[7].status).toBe('pending');
    });

    it('partial export while running, a redelivered chunk does not double count, cancel and purge', async () => {
      // With the worker stopped, the test drives the chunk handler itself, twice for one chunk.
      await worker.stop();
      const res = await upload(sampleCsv(20), 'text/csv', 'acct-manual');
      const id = res.body.id as string;
      const handler = createBatchChunkHandler({ db: system.db, bus: system.bus, engine, logger: silentLogger() });
      const job = { batchId: id, accountId: 'acct-manual', fromRow: 1, toRow: 7 };
      await handler({
        topic: 'job.batch.chunk',
        payload: job,
        messageId: `batch:${id}:1`,
        headers: {},
        attempt: 1,
        reply: () => {},
      });
      const once = (await status(id, 'acct-manual')).body;
      expect(once).toMatchObject({ status: 'running', processed: 7, matched: 7 });
      await handler({
        topic: 'job.batch.chunk',
        payload: job,
        messageId: `batch:${id}:1`,
        headers: {},
        attempt: 2,
        reply: () => {},
      });
      expect((await status(id, 'acct-manual')).body).toMatchObject({ processed: 7, matched: 7 });
      const partial = await request(app).get(`${V1}/${id}/results?format=ndjson`).set('X-Test-Account', 'acct-manual');
      const docs = partial.text
        .trim()
        .split('\n')
        .map((l) => JSON.parse(l));
      expect(docs).toHaveLength(20);
      expect(docs.slice(0, 9).map((d) => d.status)).toEqual([...Array(7).fill('completed'), 'pending', 'pending']);
      expect(docs[9].status).toBe('rejected');

      const cancelled = await request(app).delete(`${V1}/${id}`).set('X-Test-Account', 'acct-manual');
      expect(cancelled.body).toMatchObject({ status: 'cancelled', processed: 7 });
      await handler({
        topic: 'job.batch.chunk',
        payload: { ...job, fromRow: 8, toRow: 14 },
        messageId: 'x',
        headers: {},
        attempt: 1,
        reply: () => {},
      });
      expect((await status(id, 'acct-manual')).body).toMatchObject({ status: 'cancelled', processed: 7 });
      const after = await request(app).get(`${V1}/${id}/results?format=ndjson`).set('X-Test-Account', 'acct-manual');
      expect(JSON.parse(after.text.split('\n')[7]!)).toMatchObject({
        row: 8,
        status: 'failed',
        error: 'batch cancelled',
      });

      expect((await request(app).delete(`${V1}/${id}?purge=true`).set('X-Test-Account', 'acct-manual')).status).toBe(
        204,
      );
      expect((await status(id, 'acct-manual')).status).toBe(404);
      const left = await system.db.query<{ n: number }>(
        `SELECT (SELECT count(*) FROM properties WHERE batch_id = $1) + (SELECT count(*) FROM batch_rejects WHERE batch_id = $1::bigint)
           + (SELECT count(*) FROM batch_results WHERE batch_id = $1::bigint) AS n`,
        [id],
      );
      expect(Number(left.rows[0]!.n)).toBe(0);
    });

    it('exports the CSV cells stored with each result exactly as it renders them from the results (rows stored without them)', async () => {
      // The test drives the chunk handler, chunks of 7 rows.
      await worker.stop();
      const account = 'acct-csv-cells';
      const sync = await insertProperty(system.db, account, {
        street_address: '77 Cells Sync Rd',
        city: 'Austin',
        state: 'TX',
        zip_code: '78701',
      });
      await completeProperty(system.db, sync.id, {
        status: 'completed',
        results: [
          {
            first_name: '@Sy',
            last_name: 'Nc, "Jr"',
            confidence: 0.8,
            reasons: [],
            phones: [{ number: '5125550100', type: 'voip', dnc: true, litigator: true }],
            emails: ['sy@example.com', '=x@example.com'],
            deceased: true,
          },
        ],
        matched: 4,
        owners_of_record: OWNED_RECORD,
      });
      const csv =
        'street_address,city,state,zip_code,first_name,last_name\n' +
        '1 Owned Rd,Austin,TX,78701,Ann,Lee\n2 Owned Nomatch Rd,Austin,TX,78701,,\n3 Crowd Hall,Austin,TX,78701,,\n' +
        '4 Nomatch Ln,Austin,TX,78701,,\n5 Bad Zip,Austin,TX,x,,\n6 Quote St,Austin,TX,78701,=cmd,"Lee, ""Jr"""\n' +
        '77 CELLS SYNC RD,austin,tx,78701,,\n1 OWNED RD,austin,TX,78701,ann,LEE\n9 Main St,Austin,TX,78701,,\n' +
        Array.from({ length: 8 }, (_, i) => `${10 + i} Main St,Austin,TX,78701,,\n`).join('');
      const deliver = (handler: ReturnType<typeof createBatchChunkHandler>, batchId: string, fromRow: number) =>
        handler({
          topic: 'job.batch.chunk',
          payload: { batchId, accountId: account, fromRow, toRow: fromRow + 6 },
          messageId: `batch:${batchId}:${fromRow}`,
          headers: {},
          attempt: 2,
          reply: () => {},
        });
      const handler = createBatchChunkHandler({ db: system.db, bus: system.bus, engine, logger: silentLogger() });
      const failing = createBatchChunkHandler({
        db: system.db,
        bus: system.bus,
        engine: { ...engine, traceMany: () => Promise.reject(new Error('contact store unreachable')) },
        logger: silentLogger(),
        config: { maxAttempts: 2 },
      });
      const exported = async (id: string) =>
        (await request(app).get(`${V1}/${id}/results`).set('X-Test-Account', account).expect(200)).text;
      /** The export with the cells stored, then with them removed (rendered from the results): the same bytes. */
      const sameWithout = async (id: string, stored: number) => {
        const { rows } = await system.db.query<{ n: number; cells: number }>(
          `SELECT count(*)::int AS n, count(csv_before)::int AS cells FROM batch_results WHERE batch_id = $1::bigint`,
          [id],
        );
        expect(rows[0]).toEqual({ n: stored, cells: stored });
        const withCells = await exported(id);
        await system.db.query(
          `UPDATE batch_results SET csv_before = NULL, csv_after = NULL WHERE batch_id = $1::bigint`,
          [id],
        );
        expect(await exported(id)).toBe(withCells);
        return withCells;
      };

      // First: traced (owners, no match, truncated, duplicates in the chunk, a synchronous
      // result reused), then a chunk failed on its last attempt, the rest cancelled.
      const first = (await upload(csv, 'text/csv', account).expect(202)).body.id as string;
      await deliver(handler, first, 1);
      await deliver(failing, first, 8);
      // Second: the same rows, answered from the first's results while their cells are
      // stored; its last chunk left pending.
      const second = (await upload(csv, 'text/csv', account).expect(202)).body.id as string;
      await deliver(handler, second, 1);
      await deliver(handler, second, 8);
      expect((await status(second, account)).body).toMatchObject({ processed: 13, reused: 7 });
      await request(app).delete(`${V1}/${first}`).set('X-Test-Account', account).expect(200);
      const firstCsv = await sameWithout(first, 16);
      const secondCsv = await sameWithout(second, 13);
      // Third: answered from the earlier results, now without cells (rendered from their JSON).
      const third = (await upload(csv, 'text/csv', account).expect(202)).body.id as string;
      await deliver(handler, third, 1);
      await deliver(handler, third, 8);
      expect((await status(third, account)).body).toMatchObject({ processed: 13, reused: 13 });
      expect(await sameWithout(third, 13)).toBe(secondCsv);

      const rows = parseCsv(firstCsv) as string[][];
      const at = (row: number, column: string) => rows[row]![rows[0]!.indexOf(column)];
      expect(rows.map((r) => at(rows.indexOf(r), 'status')).slice(1)).toEqual([
        'completed',
        'no_match',
        'completed',
        'no_match',
        'rejected',
        'completed',
        'completed',
        'completed',
        ...Array(9).fill('failed'),
      ]);
      expect([
        at(1, 'owners_of_record'),
        at(3, 'people_total'),
        at(7, 'phone_1_last_name'),
        at(7, 'people_total'),
      ]).toEqual(['Ann Lee; =Bob Lee Trust', String(CROWD), 'Nc, "Jr"', '4']);
      expect([at(14, 'error'), at(15, 'error'), at(17, 'error')]).toEqual([
        'skip trace failed after repeated errors',
        'batch cancelled',
        'batch cancelled',
      ]);
      expect((parseCsv(secondCsv) as string[][]).slice(-3).map((r) => r.slice(-5))).toEqual(
        Array(3).fill(['', 'pending', '', '', '']),
      );
    });

    it('a chunk that dies while storing writes nothing; two redeliveries at once store each row once; erase removes a result', async () => {
      // The worker is stopped (previous case): the test drives the chunk handler.
      const res = await upload(sampleCsv(20), 'text/csv', 'acct-crash');
      const id = res.body.id as string;
      // A store whose connection is lost in the middle of the chunk's transaction, after the
      // chunk was marked done and before its results were written.
      const crashing = new Proxy(system.db, {
        get(target, prop) {
          if (prop === 'transaction') {
            return <T>(fn: (tx: Sql) => Promise<T>) =>
              target.transaction((tx) =>
                fn({
                  query: (text: string, params?: unknown[]) =>
                    text.includes('INSERT INTO batch_results')
                      ? Promise.reject(new Error('connection lost'))
                      : tx.query(text, params),
                } as Sql),
              );
          }
          const value = Reflect.get(target, prop, target) as unknown;
          return typeof value === 'function' ? (value as (...a: unknown[]) => unknown).bind(target) : value;
        },
      });
      const delivery = (attempt: number) => ({
        topic: 'job.batch.chunk' as const,
        payload: { batchId: id, accountId: 'acct-crash', fromRow: 1, toRow: 7 },
        messageId: `batch:${id}:1`,
        headers: {},
        attempt,
        reply: () => {},
      });
      const deps = { bus: system.bus, engine, logger: silentLogger() };
      await expect(createBatchChunkHandler({ ...deps, db: crashing })(delivery(1))).rejects.toThrow('connection lost');
      const stored = async () =>
        (await system.db.query<{ n: number }>(`SELECT count(*)::int AS n FROM batch_results WHERE batch_id = $1`, [id]))
          .rows[0]!.n;
      expect(await stored()).toBe(0);
      const chunk = await system.db.query<{ state: string }>(
        `SELECT state FROM batch_chunks WHERE batch_id = $1 AND from_row = 1`,
        [id],
      );
      expect(chunk.rows[0]!.state).toBe('queued');
      expect((await status(id, 'acct-crash')).body).toMatchObject({ processed: 0, matched: 0 });

      const handler = createBatchChunkHandler({ ...deps, db: system.db });
      await Promise.all([handler(delivery(2)), handler(delivery(2))]);
      expect((await status(id, 'acct-crash')).body).toMatchObject({ processed: 7, matched: 7, reused: 0 });
      expect(await stored()).toBe(7);
      await handler(delivery(3));
      expect((await status(id, 'acct-crash')).body).toMatchObject({ processed: 7, matched: 7 });
      expect(await stored()).toBe(7);

      // Erasing one traced row (DELETE /plants/{id}) removes its result with it.
      const { rows: third } = await system.db.query<{ id: string }>(
        `SELECT id FROM properties WHERE batch_id = $1 AND row_number = 3`,
        [id],
      );
      expect(await eraseProperty(system.db, createBatchRows(system), 'acct-crash', third[0]!.id)).toBe(true);
      expect(await getProperty(system.db, createBatchRows(system), 'acct-crash', third[0]!.id)).toBeUndefined();
      expect(await stored()).toBe(6);
      const gone = await system.db.query(`SELECT 1 FROM batch_results WHERE batch_id = $1 AND row_number = 3`, [id]);
      expect(gone.rows).toHaveLength(0);
    });

    it('a row erased while waiting for its trace is counted (processed, erased): the batch still completes', async () => {
      // The worker is stopped (earlier cases): the test drives the chunk handler. 20 rows in
      // chunks 1–7, 8–14, 15–20; rows 10 and 20 are rejected at upload, 18 accepted.
      completed = [];
      const res = await upload(sampleCsv(20), 'text/csv', 'acct-erase');
      const id = res.body.id as string;
      expect(res.body).toMatchObject({ accepted: 18, rejected: 2 });
      const rowId = async (n: number) =>
        (
          await system.db.query<{ id: string }>(`SELECT id FROM properties WHERE batch_id = $1 AND row_number = $2`, [
            id,
            n,
          ])
        ).rows[0]!.id;
      const erase = async (n: number) =>
        eraseProperty(system.db, createBatchRows(system), 'acct-erase', await rowId(n));
      const chunk = (db: Database, fromRow: number, toRow: number) =>
        createBatchChunkHandler({ db, bus: system.bus, engine, logger: silentLogger() })({
          topic: 'job.batch.chunk',
          payload: { batchId: id, accountId: 'acct-erase', fromRow, toRow },
          messageId: `batch:${id}:${fromRow}`,
          headers: {},
          attempt: 1,
          reply: () => {},
        });
      const counters = async () => {
        const {
          status: state,
          total,
          processed,
          matched,
          no_match,
          failed,
          erased,
          rejected,
        } = (await status(id, 'acct-erase')).body;
        return { status: state, total, processed, matched, no_match, failed, erased, rejected };
      };

      await chunk(system.db, 1, 7);
      // Erased after its trace: the row was processed; no counter changes.
      expect(await erase(3)).toBe(true);
      expect(await counters()).toEqual({
        status: 'running',
        total: 20,
        processed: 7,
        matched: 7,
        no_match: 0,
        failed: 0,
        erased: 0,
        rejected: 2,
      });

      // Erased between the chunk's read of its pending rows and its store (both hold the batch
      // row's lock in turn): counted once, by the erase; the chunk stores the other five.
      let erasedFirst = false;
      const eraseFirst = new Proxy(system.db, {
        get(target, prop) {
          if (prop === 'transaction' && !erasedFirst) {
            return async <T>(fn: (tx: Sql) => Promise<T>) => {
              erasedFirst = true;
              expect(await erase(9)).toBe(true);
              return target.transaction(fn);
            };
          }
          const value = Reflect.get(target, prop, target) as unknown;
          return typeof value === 'function' ? (value as (...a: unknown[]) => unknown).bind(target) : value;
        },
      });
      await chunk(eraseFirst, 8, 14);
      expect(await counters()).toMatchObject({ status: 'running', processed: 13, matched: 12, erased: 1 });
      const stored = await system.db.query<{ row_number: number }>(
        `SELECT row_number FROM batch_results WHERE batch_id = $1 AND row_number BETWEEN 8 AND 14 ORDER BY 1`,
        [id],
      );
      expect(stored.rows.map((r) => r.row_number)).toEqual([8, 11, 12, 13, 14]);

      // The last waiting rows erased: the batch completes, with its event.
      for (const n of [15, 16, 17, 18]) expect(await erase(n)).toBe(true);
      expect((await counters()).status).toBe('running');
      expect(await erase(19)).toBe(true);
      const done = {
        status: 'completed',
        total: 20,
        processed: 18,
        matched: 12,
        no_match: 0,
        failed: 0,
        erased: 6,
        rejected: 2,
      };
      expect(await counters()).toEqual(done);
      const event = await waitUntil(async () => completed.find((e) => (e as { data: { id: string } }).data.id === id), {
        timeoutMs: 10_000,
        message: 'batch.completed of the erased batch',
      });
      expect((event as { data: unknown }).data).toMatchObject(done);

      // Erasing a traced row of the completed batch changes no counter; an unknown id is no
      // erase; a late delivery of the last chunk stores nothing.
      expect(await erase(1)).toBe(true);
      expect(await eraseProperty(system.db, createBatchRows(system), 'acct-erase', '999999999')).toBe(false);
      await chunk(system.db, 15, 20);
      expect(await counters()).toEqual(done);
      const rows = (
        await request(app).get(`${V1}/${id}/results?format=ndjson`).set('X-Test-Account', 'acct-erase')
      ).text
        .trim()
        .split('\n')
        .map((l) => JSON.parse(l).row);
      expect(rows).toEqual([2, 4, 5, 6, 7, 8, 10, 11, 12, 13, 14, 20]);
    });
  });
}
