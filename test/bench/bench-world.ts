/**
 * The benchmarks' stored data and batch rows, one definition for every bench that needs
 * them (batch.bench.ts, engine.bench.ts):
 *
 * - plain: `contacts` demo contact rows (seed 99), as NDJSON;
 * - owners (#24): each of those rows becomes a person (person_id) whose current address is
 *   that row's, with two older addresses of their own (rows of two other seeds, dated
 *   before), and a roll of one parcel per distinct current address, owned by the person
 *   ("LAST FIRST", mailing address the property).
 *
 * The batch rows are noisy variants of the stored rows (demoQueryFor), per ten: one at an
 * address nobody lives at, one without owner names (address only), eight with the address
 * written another way and the owner name in other case.
 */
import { importContacts, importProperties } from '@skiptrace/contacts';
import { mkdir } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Property } from '@skiptrace/contracts';
import { demoQueryFor, generateContacts, type ContactRow } from '@skiptrace/demo';
import { createPostgresDatabase, type Database } from '@skiptrace/storage';
import { createTestDatabaseUrl, testUrls } from '@skiptrace/testing';

export const SEED = 99;

export const csvField = (value: string): string => (/[",\r\n]/.test(value) ? `"${value.replace(/"/g, '""')}"` : value);

export const BATCH_HEADER = 'street_address,city,state,zip_code,first_name,last_name';

/** Batch row i (1-based) made from a stored contact row; variant changes the noise per batch. */
export function batchRow(row: ContactRow, i: number, variant: number): string[] {
  const q = demoQueryFor(row, variant * 1_000_003 + i);
  if (i % 10 === 0) return [`${i} Nowhere Benchmark Rd`, q.city, q.state, q.zip_code, q.first_name, q.last_name];
  if (i % 10 === 1) return [q.street_address, q.city, q.state, q.zip_code, '', ''];
  return [q.street_address, q.city, q.state, q.zip_code, q.first_name, q.last_name];
}

/** The batch's rows as properties (the CSV's columns), wrapping around the stored contacts. */
export function* batchProperties(rows: number, contacts: number, variant = 0): Generator<Property> {
  let i = 0;
  while (i < rows) {
    for (const row of generateContacts({ rows: Math.max(1, Math.min(contacts || rows, rows)), seed: SEED })) {
      if (++i > rows) return;
      const [street_address, city, state, zip_code, first_name, last_name] = batchRow(row, i, variant);
      const p: Property = { street_address: street_address!, city: city!, state: state!, zip_code: zip_code! };
      if (first_name !== '') p.first_name = first_name!;
      if (last_name !== '') p.last_name = last_name!;
      yield p;
    }
  }
}

/**
 * The stored people as NDJSON lines: plain contact rows, or (owners) persons with three
 * addresses. `onRow` sees each seed row (the benches take probe bodies from them).
 */
export async function* benchPeople(
  contacts: number,
  owners: boolean,
  onRow: (row: ContactRow, i: number) => void = () => undefined,
): AsyncGenerator<string> {
  const older = [SEED + 1, SEED + 2].map((seed) => generateContacts({ rows: contacts, seed })[Symbol.iterator]());
  const place = (r: ContactRow, first_seen: string, last_seen: string) => ({
    street_address: r.street_address,
    city: r.city,
    state: r.state,
    zip_code: r.zip_code,
    first_seen,
    last_seen,
  });
  let i = 0;
  for (const row of generateContacts({ rows: contacts, seed: SEED })) {
    onRow(row, i++);
    if (!owners) {
      yield `${JSON.stringify(row)}\n`;
      continue;
    }
    const [a, b] = older.map((o) => o.next().value as ContactRow);
    const person = {
      person_id: `p${i}`,
      first_name: row.first_name,
      last_name: row.last_name,
      addresses: [place(a!, '2006', '2011'), place(b!, '2011-06', '2017'), place(row, '2017-08', '2026-10')],
      phones: [
        { number: a!.phone_1, type: 'landline', first_seen: '2006', last_seen: '2011' },
        { number: row.phone_1, type: row.phone_1_type, first_seen: '2015', last_seen: '2026-10' },
        ...(row.phone_2
          ? [{ number: row.phone_2, type: row.phone_2_type ?? '', first_seen: '2017', last_seen: '2026-10' }]
          : []),
      ],
      emails: row.email_1 ? [row.email_1] : [],
    };
    yield `${JSON.stringify(person)}\n`;
  }
}

/** The roll (canonical CSV): one parcel per distinct current address, owned by its person. */
export async function* benchRoll(contacts: number): AsyncGenerator<string> {
  yield 'street_address,city,state,zip_code,owner_name,mailing_street_address,mailing_city,mailing_state,mailing_zip_code\n';
  const seen = new Set<string>();
  let chunk = '';
  for (const row of generateContacts({ rows: contacts, seed: SEED })) {
    const key = `${row.street_address}|${row.zip_code}`.toUpperCase();
    if (seen.has(key)) continue;
    seen.add(key);
    const at = [row.street_address, row.city, row.state, row.zip_code];
    chunk += `${[...at, `${row.last_name} ${row.first_name}`.toUpperCase(), ...at].map(csvField).join(',')}\n`;
    if (chunk.length > 1 << 16) {
      yield chunk;
      chunk = '';
    }
  }
  yield chunk;
}

/** A bench's database: `url`, `name`, and `drop()`, which leaves a kept database in place. */
export interface BenchDatabase {
  url: string;
  name: string;
  /**
   * A kept database's system data directory (SKIPTRACE_DATA_DIR), kept beside it: the demo
   * client the system creates in the database on its first start has its credentials there.
   */
  dataDir?: string;
  drop(): Promise<void>;
}

/**
 * The database a bench runs on: without `keep`, a fresh one that drop() removes; with
 * `keep` (the benches' `--database NAME`), that database, created when missing and never
 * dropped, so that later runs of any bench reuse the world loaded into it (loadBenchWorld):
 * a 10 M-people world takes the better part of half an hour to import.
 */
export async function benchDatabase(prefix: string, keep?: string): Promise<BenchDatabase> {
  if (keep === undefined) return createTestDatabaseUrl(prefix);
  if (!/^[a-z][a-z0-9_]{0,62}$/.test(keep)) throw new Error('--database: lower-case letters, digits and _');
  const admin = createPostgresDatabase({ url: testUrls().databaseUrl });
  try {
    const { rows } = await admin.query('SELECT 1 FROM pg_database WHERE datname = $1', [keep]);
    if (rows.length === 0) await admin.query(`CREATE DATABASE "${keep}"`);
  } finally {
    await admin.close();
  }
  const url = new URL(testUrls().databaseUrl);
  url.pathname = `/${keep}`;
  const dataDir = join(tmpdir(), `skiptrace-bench-data-${keep}`);
  await mkdir(dataDir, { recursive: true });
  return { url: url.toString(), name: keep, dataDir, drop: async () => undefined };
}

/**
 * Loads the world (`contacts` people; with `owners`, people with three addresses and the
 * roll) into db, or reuses it when a complete load of the same world is recorded there (a
 * kept database: benchDatabase). Either way onRow sees every seed row, in order: the benches
 * take their probe bodies from them. `seconds` is the import's time (0 when reused).
 */
export async function loadBenchWorld(
  db: Database,
  contacts: number,
  owners: boolean,
  onRow: (row: ContactRow, i: number) => void,
): Promise<{ reused: boolean; seconds: number; people: number; parcels: number }> {
  await db.query(
    'CREATE TABLE IF NOT EXISTS bench_world (contacts bigint, owners boolean, people bigint, parcels bigint)',
  );
  const { rows } = await db.query<{ contacts: string; owners: boolean; people: string; parcels: string }>(
    'SELECT contacts, owners, people, parcels FROM bench_world',
  );
  const [loaded] = rows;
  if (loaded) {
    if (Number(loaded.contacts) !== contacts || loaded.owners !== owners)
      throw new Error(
        `this database holds another world (contacts ${loaded.contacts}, owners ${loaded.owners}): use another --database`,
      );
    let i = 0;
    for (const row of generateContacts({ rows: contacts, seed: SEED })) onRow(row, i++);
    return { reused: true, seconds: 0, people: Number(loaded.people), parcels: Number(loaded.parcels) };
  }
  const { rows: present } = await db.query('SELECT 1 FROM contacts LIMIT 1');
  if (present.length > 0) throw new Error('this database holds contacts but no complete bench world: drop it first');
  const t = performance.now();
  const people = await importContacts(db, benchPeople(contacts, owners, onRow), { format: 'ndjson', source: 'bench' });
  const parcels = owners
    ? (await importProperties(db, benchRoll(contacts), { format: 'csv', source: 'bench-roll' })).imported
    : 0;
  const seconds = (performance.now() - t) / 1000;
  await db.query('INSERT INTO bench_world VALUES ($1, $2, $3, $4)', [contacts, owners, people.imported, parcels]);
  return { reused: false, seconds, people: people.imported, parcels };
}
