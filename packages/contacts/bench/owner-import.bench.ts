/**
 * The owner model's imports against PostgreSQL (DATABASE_URL, default the local test
 * server), each into a fresh database dropped afterwards:
 *   node packages/contacts/bench/owner-import.bench.ts [persons=200000] [reference,people,roll]
 * 1. people: `persons` people of three addresses each (the NDJSON person form; names,
 *    addresses and phones from the demo generator, seeds 1–3), into an empty store;
 * 2. a roll: one parcel per distinct address of the persons' first addresses (owner string "LAST FIRST", mailing address the person's
 *    current one), into an empty property_records;
 * 3. the same-minutes reference: the same 3 × persons rows (seeds 1, 2, 3) as plain contact rows (no
 *    person_id) through the contact import — today's import, on this machine right now;
 * 4. people-db (only when named): the people import's database work alone — its COPY text
 *    made beforehand by the import's own reader and row source (not timed), then the same
 *    bulk load the import uses (COPYs into the load table with its kept-up indexes, the
 *    index builds, ANALYZE, the swap), timed: what the store costs a person with Node's
 *    parse taken away, the most persons/s any parse could reach on this machine;
 * 5. store-floor (only when named): PostgreSQL's CPU, step by step, to store the same people
 *    in an empty database at its least — one backend, no index kept up, every index built
 *    once at the end in 4 MB without parallel workers, then ANALYZE — for today's store
 *    (one contacts row per person and address, its six indexes) and for the leanest store
 *    that still answers the trace's lookups (a person once with names, phones and e-mails;
 *    an address row of nine narrow columns per person and address; the exact address, the
 *    person's rows and the two blocking keys indexed): the database's share of a person
 *    that no parse, overlap or schedule of the import can take away.
 * The inputs are written to files first (not timed) and each import reads its file, as
 * `skiptrace import` does. Prints rows/s, persons/s, parcels/s, the CPU per row of Node and
 * of the database's backends, and the ratios to the reference.
 */
import { createReadStream } from 'node:fs';
import { mkdtemp, rm, writeFile, appendFile } from 'node:fs/promises';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { databaseBackends, sampleProcesses } from '@skiptrace/testing/cpu-time';
import { generateContacts, type ContactRow } from '@skiptrace/demo';
import { createPostgresDatabase } from '@skiptrace/storage';
import { createTestDatabaseUrl, testUrls } from '@skiptrace/testing';
import { importContacts, importProperties } from '../src/index.ts';
import { createBulkLoad } from '../src/contact-load.ts';
import { ndjsonContacts } from '../src/contact-readers.ts';
import { rowSource } from '../src/row-source.ts';
import { textChunks } from '../src/text-chunks.ts';
import { DEFAULT_BATCH_SIZE } from '../src/import-contacts.ts';
import { STAGE_COLUMNS } from '../src/contact-stage.ts';

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

/** A fresh, migrated database for one measurement (`max` connections), and a sampler of its backends' CPU. */
async function freshDatabase(label: string, max?: number) {
  const database = await createTestDatabaseUrl(`owner_bench_${label}`, testUrls().databaseUrl);
  const db = createPostgresDatabase({ url: database.url, max });
  await db.migrate();
  const admin = createPostgresDatabase({ url: testUrls().databaseUrl });
  const sampler = sampleProcesses({ postgres: () => databaseBackends(admin, database.name) });
  return {
    db,
    sampler,
    async close() {
      sampler.stop();
      await db.close();
      await admin.close();
      await database.drop();
    },
  };
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
  const { db, sampler, close } = await freshDatabase(label);
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
    await close();
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
/** The people file as the import's batches of COPY text (the import's own reader and row source). */
async function copyBatches(path: string): Promise<string[][]> {
  const source = rowSource(
    ndjsonContacts(textChunks(createReadStream(path)), undefined),
    'people',
    () => {},
    () => {},
  );
  const batches: string[][] = [];
  while (!source.exhausted) {
    const batch: string[] = [];
    for await (const text of source.batch(DEFAULT_BATCH_SIZE)) batch.push(text);
    if (batch.length > 0) batches.push(batch);
  }
  await source.close();
  return batches;
}
async function* each(texts: string[]): AsyncGenerator<string> {
  yield* texts;
}
let floor = skipped;
if (ONLY.has('people-db')) {
  const batches = await copyBatches(files.people);
  floor = await measure('people-db', async (db) => {
    let stored = 0;
    const bulk = await createBulkLoad(db, ({ inserted }) => (stored += inserted));
    try {
      for (const batch of batches) await bulk.load(each(batch));
      await bulk.flush();
      await bulk.finish();
    } finally {
      await bulk.dispose();
    }
    return { read: PERSONS, imported: stored };
  });
}
/** Backend CPU of each step of storing the people file's rows (see 5. in the header). */
async function storeFloor(batches: string[][]): Promise<void> {
  // One connection: every step in the one backend that the SETs below apply to.
  const { db, sampler, close } = await freshDatabase('floor', 1);
  const lines = batches.flatMap((batch) =>
    batch
      .join('')
      .split('\n')
      .filter((l) => l !== ''),
  );
  const at = Object.fromEntries(STAGE_COLUMNS.map((c, i) => [c, i])) as Record<(typeof STAGE_COLUMNS)[number], number>;
  // COPY text in chunks of 2,000 lines, as the import's row source hands them out.
  const chunked = (rows: string[]) =>
    Array.from({ length: Math.ceil(rows.length / 2000) }, (_, i) => rows.slice(i * 2000, (i + 1) * 2000).join(''));
  const pick = (columns: readonly (typeof STAGE_COLUMNS)[number][], rows: string[][]) =>
    chunked(rows.map((f) => `${columns.map((c) => f[at[c]]).join('\t')}\n`));
  const fields = lines.map((l) => l.split('\t'));
  const seen = new Set<string>();
  const firstOfPerson = fields.filter((f) => !seen.has(f[at.person_key]!) && seen.add(f[at.person_key]!));
  const PERSON_COLUMNS = [
    'person_key',
    'first_name',
    'last_name',
    'first_norm',
    'last_norm',
    'middle_name',
    'suffix',
    'birth_year',
    'deceased',
    'phones',
    'emails',
    'source',
  ] as const;
  const ADDRESS_COLUMNS = [
    'person_key',
    'address_key',
    'unit_key',
    'street_address',
    'city',
    'state',
    'zip5',
    'first_seen',
    'last_seen',
  ] as const;
  const texts = {
    contacts: chunked(lines.map((l) => `${l}\n`)),
    persons: pick(PERSON_COLUMNS, firstOfPerson),
    addresses: pick(ADDRESS_COLUMNS, fields),
  };
  const number = `split_part(address_key, '|', 1)`;
  const designs: { name: string; steps: [string, () => Promise<unknown>][] }[] = [
    {
      name: 'today: contacts, a row per person and address',
      steps: [
        [
          'CREATE TABLE (LIKE contacts)',
          () => db.query('CREATE TABLE floor_contacts (LIKE contacts INCLUDING DEFAULTS)'),
        ],
        [
          `COPY ${fields.length.toLocaleString('en-US')} rows`,
          () => db.copyText('floor_contacts', [...STAGE_COLUMNS], texts.contacts),
        ],
        ['primary key (id)', () => db.query('ALTER TABLE floor_contacts ADD PRIMARY KEY (id)')],
        ['hash (address_key)', () => db.query('CREATE INDEX ON floor_contacts USING hash (address_key)')],
        [
          'hash (person_key)',
          () => db.query(`CREATE INDEX ON floor_contacts USING hash (person_key) WHERE person_key <> ''`),
        ],
        ['btree (state, city, number)', () => db.query(`CREATE INDEX ON floor_contacts (state, city, ${number})`)],
        ['btree (zip5, number)', () => db.query(`CREATE INDEX ON floor_contacts (zip5, ${number})`)],
        ['unique (row_hash)', () => db.query('CREATE UNIQUE INDEX ON floor_contacts (row_hash)')],
        ['ANALYZE', () => db.query('ANALYZE floor_contacts')],
      ],
    },
    {
      name: 'leanest: a person once, narrow address rows',
      steps: [
        [
          'CREATE TABLEs',
          () =>
            db.query(
              `CREATE TABLE floor_persons (id bigserial, person_key text COLLATE "C" NOT NULL, first_name text, last_name text,
                 first_norm text, last_norm text, middle_name text, suffix text, birth_year smallint, deceased boolean,
                 phones json, emails json, source text);
               CREATE TABLE floor_addresses (person_key text COLLATE "C" NOT NULL, address_key text COLLATE "C" NOT NULL,
                 unit_key text, street_address text, city text COLLATE "C", state text COLLATE "C", zip5 text COLLATE "C",
                 first_seen text, last_seen text)`,
            ),
        ],
        [
          `COPY ${firstOfPerson.length.toLocaleString('en-US')} persons`,
          () => db.copyText('floor_persons', [...PERSON_COLUMNS], texts.persons),
        ],
        [
          `COPY ${fields.length.toLocaleString('en-US')} address rows`,
          () => db.copyText('floor_addresses', [...ADDRESS_COLUMNS], texts.addresses),
        ],
        ['persons: unique (person_key)', () => db.query('CREATE UNIQUE INDEX ON floor_persons (person_key)')],
        ['addresses: hash (address_key)', () => db.query('CREATE INDEX ON floor_addresses USING hash (address_key)')],
        [
          'addresses: unique (person_key, unit_key)',
          () => db.query('CREATE UNIQUE INDEX ON floor_addresses (person_key, unit_key)'),
        ],
        [
          'addresses: btree (state, city, number)',
          () => db.query(`CREATE INDEX ON floor_addresses (state, city, ${number})`),
        ],
        ['addresses: btree (zip5, number)', () => db.query(`CREATE INDEX ON floor_addresses (zip5, ${number})`)],
        ['ANALYZE', () => db.query('ANALYZE floor_persons; ANALYZE floor_addresses')],
      ],
    },
  ];
  try {
    await db.query(`SET maintenance_work_mem = '4MB'; SET max_parallel_maintenance_workers = 0`);
    for (const design of designs) {
      console.log(`store-floor, ${design.name} (load ${loadavg()[0]!.toFixed(1)}):`);
      let total = 0;
      for (const [label, run] of design.steps) {
        const before = (await sampler.cpuMs()).postgres!;
        await run();
        const ms = (await sampler.cpuMs()).postgres! - before;
        total += ms;
        console.log(
          `  ${label.padEnd(44)} ${String(Math.round(ms)).padStart(6)} ms  ${((ms * 1000) / PERSONS).toFixed(1).padStart(5)} µs a person`,
        );
      }
      console.log(
        `  ${'in all'.padEnd(44)} ${String(Math.round(total)).padStart(6)} ms  ${((total * 1000) / PERSONS).toFixed(1).padStart(5)} µs a person`,
      );
    }
  } finally {
    await close();
  }
}
if (ONLY.has('store-floor')) await storeFloor(await copyBatches(files.people));
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
if (ONLY.has('people-db')) {
  console.log(
    line('people-db', floor, PERSONS, 'persons'),
    ` (the import's database work alone; ${Math.round(rows / floor.seconds).toLocaleString('en-US')} rows/s)`,
  );
}
