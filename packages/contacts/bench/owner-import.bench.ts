/**
 * The owner model's imports against PostgreSQL (DATABASE_URL, default the local test
 * server), each into a fresh database dropped afterwards:
 *   node packages/contacts/bench/owner-import.bench.ts [persons=200000] [reference,people,roll]
 * 1. people: `persons` people of three addresses each (the NDJSON person form; names,
 *    addresses and phones from the demo generator, seeds 1–3), into an empty store;
 * 2. a roll: one parcel per distinct address of the persons' first addresses (owner string "LAST FIRST", mailing address the person's
 *    current one), into an empty property_records;
 * 3. the same-minutes reference: the same 3 × persons rows (seeds 1, 2, 3) as plain contact rows (no
 *    person_id) through the contact import — today's import, on this machine right now.
 * The inputs are written to files first (not timed) and each import reads its file, as
 * `skiptrace import` does. Prints rows/s, persons/s, parcels/s, the CPU per row of Node and
 * of the database's backends, and the ratios to the reference.
 */
import { createReadStream } from 'node:fs';
import { mkdtemp, rm, writeFile, appendFile } from 'node:fs/promises';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { sampleProcesses } from '@skiptrace/testing/cpu-time';
import { generateContacts, type ContactRow } from '@skiptrace/demo';
import { createPostgresDatabase } from '@skiptrace/storage';
import { createTestDatabaseUrl, testUrls } from '@skiptrace/testing';
import { importContacts, importProperties } from '../src/index.ts';

const PERSONS = Number(process.argv[2] ?? 200_000);
/** Which imports to run (comma-separated; default all three): e.g. `people,roll` while profiling. */
const ONLY = new Set((process.argv[3] ?? 'reference,people,roll').split(','));

/** Three addresses per person: the demo generator's rows of three seeds side by side (distinct households). */
function* triples(): Generator<ContactRow[]> {
  const streams = [1, 2, 3].map((seed) => generateContacts({ rows: PERSONS, seed })[Symbol.iterator]());
  for (;;) {
    const group = streams.map((s) => s.next());
    if (group.some((g) => g.done)) return;
    yield group.map((g) => g.value as ContactRow);
  }
}

const place = (r: ContactRow, first: string, last: string) => ({
  street_address: r.street_address,
  city: r.city,
  state: r.state,
  zip_code: r.zip_code,
  first_seen: first,
  last_seen: last,
});

async function* people(): AsyncGenerator<string> {
  let chunk = '';
  let i = 0;
  for (const [a, b, c] of triples()) {
    const person = {
      person_id: `p${i++}`,
      first_name: a!.first_name,
      last_name: a!.last_name,
      addresses: [place(a!, '2006', '2012-05'), place(b!, '2012-06', '2019'), place(c!, '2020-01', '2026-10')],
      phones: [
        { number: a!.phone_1, type: a!.phone_1_type, first_seen: '2006', last_seen: '2012' },
        { number: c!.phone_1, type: c!.phone_1_type, first_seen: '2015', last_seen: '2026-10' },
      ],
    };
    chunk += `${JSON.stringify(person)}\n`;
    if (chunk.length > 1 << 16) {
      yield chunk;
      chunk = '';
    }
  }
  yield chunk;
}

async function* plain(): AsyncGenerator<string> {
  let chunk = '';
  for (const group of triples()) {
    for (const r of group) chunk += `${JSON.stringify(r)}\n`;
    if (chunk.length > 1 << 16) {
      yield chunk;
      chunk = '';
    }
  }
  yield chunk;
}

const csv = (v: string) => (/[",\n]/.test(v) ? `"${v.replace(/"/g, '""')}"` : v);

async function* roll(): AsyncGenerator<string> {
  let chunk =
    'apn,street_address,city,state,zip_code,owner_name,mailing_street_address,mailing_city,mailing_state,mailing_zip_code\n';
  let i = 0;
  // One record per parcel: the demo households share addresses, a roll lists each once.
  const seen = new Set<string>();
  for (const [a, , c] of triples()) {
    const parcel = `${a!.street_address}|${a!.zip_code}`.toUpperCase();
    if (seen.has(parcel)) continue;
    seen.add(parcel);
    chunk += `${[`APN-${i++}`, a!.street_address, a!.city, a!.state, a!.zip_code, `${a!.last_name} ${a!.first_name}`.toUpperCase(), c!.street_address, c!.city, c!.state, c!.zip_code].map(csv).join(',')}\n`;
    if (chunk.length > 1 << 16) {
      yield chunk;
      chunk = '';
    }
  }
  yield chunk;
}

/** Writes a generated input to a file (the import then reads it as `skiptrace import` would). */
async function toFile(name: string, input: AsyncGenerator<string>): Promise<string> {
  const path = join(dir, name);
  await writeFile(path, '');
  for await (const chunk of input) await appendFile(path, chunk);
  return path;
}

/**
 * Times one import into a fresh, migrated database: the migrations run before the clock
 * starts (an empty store is a migrated one; they cost about half a second, which is not
 * the import's).
 */
async function measure<T>(
  label: string,
  run: (db: ReturnType<typeof createPostgresDatabase>) => Promise<T>,
): Promise<{ seconds: number; nodeMs: number; pgMs: number; result: T }> {
  const database = await createTestDatabaseUrl(`owner_bench_${label}`, testUrls().databaseUrl);
  const db = createPostgresDatabase({ url: database.url });
  await db.migrate();
  const admin = createPostgresDatabase({ url: testUrls().databaseUrl });
  const sampler = sampleProcesses({
    postgres: async () =>
      (
        await admin.query<{ pid: number }>('SELECT pid FROM pg_stat_activity WHERE datname = $1', [database.name])
      ).rows.map((r) => r.pid),
  });
  try {
    const load = loadavg()[0]!;
    const started = performance.now();
    const cpu = process.cpuUsage();
    const pg0 = await sampler.cpuMs();
    const result = await run(db);
    const pgMs = (await sampler.cpuMs()).postgres! - pg0.postgres!;
    const used = process.cpuUsage(cpu);
    const seconds = (performance.now() - started) / 1000;
    console.log(`${label}: ${seconds.toFixed(1)} s (load ${load.toFixed(1)}), ${JSON.stringify(result)}`);
    return { seconds, nodeMs: (used.user + used.system) / 1000, pgMs, result };
  } finally {
    sampler.stop();
    await db.close();
    await admin.close();
    await database.drop();
  }
}

console.log(`owner import bench: ${PERSONS} persons × 3 addresses, ${PERSONS} parcels; ${new Date().toISOString()}`);
const dir = await mkdtemp(join(tmpdir(), 'owner-import-bench-'));
const files = {
  plain: await toFile('plain.ndjson', plain()),
  people: await toFile('people.ndjson', people()),
  roll: await toFile('roll.csv', roll()),
};
const skipped = { seconds: NaN, nodeMs: NaN, pgMs: NaN, result: { read: 0 } };
const reference = ONLY.has('reference')
  ? await measure('reference', (db) =>
      importContacts(db, createReadStream(files.plain), { format: 'ndjson', source: 'ref' }),
    )
  : skipped;
const persons = ONLY.has('people')
  ? await measure('people', (db) =>
      importContacts(db, createReadStream(files.people), { format: 'ndjson', source: 'people' }),
    )
  : skipped;
const parcels = ONLY.has('roll')
  ? await measure('roll', (db) => importProperties(db, createReadStream(files.roll), { format: 'csv', source: 'roll' }))
  : skipped;
await rm(dir, { recursive: true, force: true });
const rows = PERSONS * 3;
const line = (label: string, m: { seconds: number; nodeMs: number; pgMs: number }, units: number, unit: string) =>
  `${label.padEnd(10)} ${Math.round(units / m.seconds)
    .toLocaleString('en-US')
    .padStart(
      9,
    )} ${unit}/s  ${((m.nodeMs * 1000) / units).toFixed(1)} + ${((m.pgMs * 1000) / units).toFixed(1)} µs CPU ` +
  `(Node + PostgreSQL) per ${unit.replace(/s$/, '')}`;
console.log(line('reference', reference, rows, 'rows'));
console.log(
  line('people', persons, PERSONS, 'persons'),
  ` (${Math.round(rows / persons.seconds).toLocaleString('en-US')} rows/s; ratio rows/s to reference ${(reference.seconds / persons.seconds).toFixed(2)})`,
);
const parcelCount = parcels.result.read;
console.log(
  line('roll', parcels, parcelCount, 'parcels'),
  ` (rate ratio to the reference's rows/s: ${(parcelCount / parcels.seconds / (rows / reference.seconds)).toFixed(2)})`,
);
