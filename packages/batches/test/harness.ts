/**
 * Test wiring: the batch router behind a stand-in for the gateway's bearer middleware
 * (X-Test-Account / X-Test-Scopes headers), and a deterministic fake TraceEngine.
 */
import type { Address, ApiScope, OwnerOfRecord, Property, TraceResult } from '@skiptrace/contracts';
import type { TraceEngine, TraceOutcome } from '@skiptrace/core';
import type { MessageBus } from '@skiptrace/messaging';
import { errorHandler, routeNotFound, silentLogger } from '@skiptrace/runtime';
import type { Database } from '@skiptrace/storage';
import express, { type RequestHandler } from 'express';
import { createBatchesRouter } from '../src/index.ts';
import type { BatchesConfig } from '../src/config.ts';

export const testAuth = {
  authenticate: ((req, _res, next) => {
    req.log = silentLogger();
    req.auth = {
      accountId: req.get('x-test-account') ?? 'acct-1',
      clientId: 'client',
      subject: 'user',
      scopes: (req.get('x-test-scopes') ?? 'read write').split(' '),
    };
    next();
  }) as RequestHandler,
  requireScope(scope: ApiScope): RequestHandler {
    return (req, res, next) => {
      if (req.auth?.scopes.includes(scope)) return next();
      res.status(403).json({ error: 1101, message: `needs ${scope}` });
    };
  },
};

export function buildApp(db: Database, bus: MessageBus, config: Partial<BatchesConfig> = {}): express.Express {
  const app = express();
  const api = express.Router();
  api.use(testAuth.authenticate);
  // As the gateway: uploads and previews stream their body, every other JSON body is parsed.
  const json = express.json();
  api.use((req, res, next) =>
    req.method === 'POST' && /\/batches(\/preview)?$/.test(req.path) ? next() : json(req, res, next),
  );
  api.use('/', createBatchesRouter({ db, bus, auth: testAuth, config }));
  api.use(routeNotFound());
  app.use('/api/v1', api);
  app.use('/api/v1', errorHandler());
  return app;
}

/** People who "match" at a street "… CROWD …": more than the engine returns (it returns one). */
export const CROWD = 12;

/** The owners of record the fake engine finds at a street "… OWNED …" (a formula-like name among them). */
export const OWNED_RECORD: OwnerOfRecord[] = [
  { kind: 'person', name: 'Ann Lee', as_recorded: 'LEE ANN & =BOB', first_name: 'Ann', last_name: 'Lee' },
  { kind: 'trust', name: '=Bob Lee Trust', as_recorded: 'LEE ANN & =BOB', last_name: 'Lee' },
];
/** The record's mailing address at a street "… OWNED …" (the caller's wins). */
export const OWNED_MAILING: Address = { street_address: 'PO Box 12', city: 'Dallas', state: 'TX', zip_code: '75201' };

/**
 * Street "… NOMATCH …" → no_match; otherwise one owner with two phones derived from the
 * address; at a street "… CROWD …" that owner is the best of CROWD who matched (truncated).
 * At a street "… OWNED …" the property has OWNED_RECORD: the first person is its absentee
 * owner (living in Dallas), then a tenant with one phone; "… OWNED NOMATCH …" finds nobody
 * but keeps the record.
 */
export function fakeOutcome(p: Property): TraceOutcome {
  const owned = /owned/i.test(p.street_address)
    ? { owners_of_record: OWNED_RECORD, mailing_address: p.mailing_address ?? OWNED_MAILING }
    : {};
  if (/nomatch/i.test(p.street_address)) return { status: 'no_match', results: [], error: 'no owner found', ...owned };
  const n = [...p.street_address].reduce((a, c) => (a * 31 + c.charCodeAt(0)) % 10_000_000, 7);
  const digits = String(2_000_000 + (n % 7_000_000)).padStart(7, '0');
  const result: TraceResult = {
    first_name: p.first_name ?? 'Pat',
    last_name: p.last_name ?? 'Owner',
    confidence: 0.9,
    reasons: ['address'],
    phones: [
      { number: `+1512${digits}`, type: 'mobile', dnc: false, litigator: false },
      { number: `+1737${digits}`, type: 'landline', dnc: true, litigator: false },
    ],
    emails: [],
  };
  if (/owned/i.test(p.street_address)) {
    const home = { street_address: p.street_address, city: p.city, state: p.state, zip_code: p.zip_code };
    const tenant: TraceResult = {
      first_name: 'Tia',
      last_name: 'Tenant',
      confidence: 0.7,
      reasons: ['address'],
      owner: false,
      resident: true,
      current_address: home,
      addresses: [{ ...home, first_seen: '2022' }],
      phones: [{ number: `+1214${digits}`, type: 'mobile', dnc: false, litigator: false, first_seen: '2022' }],
      emails: [],
    };
    const away = { street_address: '9 Elm St', city: 'Dallas', state: 'TX', zip_code: '75201' };
    const owner: TraceResult = {
      ...result,
      owner: true,
      resident: false,
      current_address: away,
      addresses: [
        { ...away, first_seen: '2019-05' },
        { ...home, first_seen: '2008', last_seen: '2019-04' },
      ],
    };
    return { status: 'completed', results: [owner, tenant], ...owned };
  }
  return /crowd/i.test(p.street_address)
    ? { status: 'completed', results: [result], matched: CROWD }
    : { status: 'completed', results: [result] };
}

export interface FakeEngine extends TraceEngine {
  /** Properties traced so far (every call of trace/traceMany). */
  traced: number;
  calls: number;
}

export function fakeEngine(options: { delayMs?: number } = {}): FakeEngine {
  const engine: FakeEngine = {
    traced: 0,
    calls: 0,
    async trace(p) {
      return (await engine.traceMany([p]))[0]!;
    },
    async traceMany(properties) {
      engine.calls++;
      engine.traced += properties.length;
      if (options.delayMs) await new Promise((r) => setTimeout(r, options.delayMs));
      return properties.map(fakeOutcome);
    },
  };
  return engine;
}

/** CSV text of n rows with vendor-style headers; every 10th row has a bad zip. */
export function sampleCsv(n: number, startRow = 1): string {
  let out = 'Property Address,City,State,Zip,Owner First Name,Owner Last Name\n';
  for (let i = startRow; i < startRow + n; i++) {
    const zip = i % 10 === 0 ? 'bad' : String(78700 + (i % 99)).padStart(5, '0');
    out += `${i} Main St,Austin,TX,${zip},Ann,Lee${i}\n`;
  }
  return out;
}
