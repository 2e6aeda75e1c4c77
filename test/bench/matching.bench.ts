/**
 * Micro-benchmark: µs per record for standardise + block + score over 100,000 noisy
 * queries built with demoQueryFor, plus phone normalisation on its own, plus a quick
 * quality read-out (the queried person ranked first; a stranger at the address refused).
 *
 *   node test/bench/matching.bench.ts [queries=100000]
 */
import { cpus } from 'node:os';
import {
  buildMatchQuery,
  candidateKeys,
  nameTokens,
  nicknamesOf,
  normalizePhone,
  rankCandidates,
  standardizeAddress,
} from '@skiptrace/matching';
import { demoQueryFor, generateContacts, mulberry32 } from '@skiptrace/demo';
import type { CandidateRecord } from '@skiptrace/matching';
import type { ContactRow, DemoQuery } from '@skiptrace/demo';

const QUERIES = Number(process.argv[2] ?? 100_000);
const rows: ContactRow[] = [...generateContacts({ rows: QUERIES, seed: 2024 })];

// Ingest side (not timed): the blocking index a database would hold, keyed by addressKey,
// with the names normalised as the import stores them (firstNorm, lastNorm).
const index = new Map<string, (CandidateRecord & { row: ContactRow })[]>();
for (const row of rows) {
  const candidate = {
    firstName: row.first_name,
    lastName: row.last_name,
    firstNorm: nameTokens(row.first_name).join(' '),
    lastNorm: nameTokens(row.last_name).join(' '),
    ...candidateKeys(standardizeAddress(row)),
    row,
  };
  const bucket = index.get(candidate.addressKey);
  if (bucket === undefined) index.set(candidate.addressKey, [candidate]);
  else bucket.push(candidate);
}

// Query side: noisy addresses; names perturbed like research §3.3 (nickname 15 %,
// first-name typo 5 %, last-name typo 10 %, first name dropped 5 %).
const random = mulberry32(7);
const swapTwo = (s: string): string => {
  const i = 1 + Math.floor(random() * Math.max(1, s.length - 2));
  return s.length < 4 ? s : s.slice(0, i) + s[i + 1] + s[i] + s.slice(i + 2);
};
const queries: DemoQuery[] = rows.map((row, i) => {
  const query = demoQueryFor(row, i);
  const roll = random();
  const nicknames = nicknamesOf(row.first_name.toUpperCase());
  if (roll < 0.15 && nicknames.length > 0)
    query.first_name = nicknames[Math.floor(random() * nicknames.length)] as string;
  else if (roll < 0.2) query.first_name = swapTwo(query.first_name);
  else if (roll < 0.25) query.first_name = '';
  if (random() < 0.1) query.last_name = swapTwo(query.last_name);
  return query;
});

function run(): { found: number; top: number; ambiguous: number } {
  let found = 0;
  let top = 0;
  let ambiguous = 0;
  for (let i = 0; i < queries.length; i++) {
    const query = buildMatchQuery(queries[i] as DemoQuery);
    const ranked = rankCandidates(query, index.get(query.address.key) ?? []);
    if (ranked.some((r) => r.candidate.row === rows[i])) found++;
    if (ranked[0]?.candidate.row === rows[i]) top++;
    if (ranked.length > 1 && ranked[1]?.confidence === ranked[0]?.confidence) ambiguous++;
  }
  return { found, top, ambiguous };
}

run(); // warm-up: JIT, table maps
const started = process.hrtime.bigint();
const quality = run();
const elapsedUs = Number(process.hrtime.bigint() - started) / 1000;

// Stranger at a real address: a first name nobody in the household has → must be refused.
let refused = 0;
let strangers = 0;
for (const [key, bucket] of index) {
  if (strangers >= 10_000) break;
  const row = bucket[0]?.row as ContactRow;
  const names = new Set(bucket.map((c) => c.firstName?.toUpperCase()));
  const stranger = ['Xavier', 'Ophelia', 'Bartholomew', 'Winifred', 'Thaddeus'].find(
    (n) => !names.has(n.toUpperCase()),
  );
  const query = buildMatchQuery({ ...demoQueryFor(row), first_name: stranger, last_name: row.last_name });
  strangers++;
  if (rankCandidates(query, index.get(key) ?? []).length === 0) refused++;
}

const phones = rows.map((row) => row.phone_1);
const phoneStart = process.hrtime.bigint();
let valid = 0;
for (const phone of phones) if (normalizePhone(phone) !== null) valid++;
const phoneUs = Number(process.hrtime.bigint() - phoneStart) / 1000;

const pct = (n: number, of: number): string => `${((100 * n) / of).toFixed(2)} %`;
console.log(`node ${process.version}, ${cpus().length} CPUs (${cpus()[0]?.model ?? 'unknown'})`);
console.log(
  `standardize + block + score: ${(elapsedUs / queries.length).toFixed(2)} µs/record over ${queries.length} queries`,
);
console.log(
  `normalizePhone (max metadata): ${(phoneUs / phones.length).toFixed(2)} µs/number, ${valid}/${phones.length} valid`,
);
console.log(
  `queried person returned: ${pct(quality.found, queries.length)}; ranked first: ${pct(quality.top, queries.length)}`,
);
console.log(
  `queries with several people tied for best (e.g. first name dropped): ${pct(quality.ambiguous, queries.length)}`,
);
console.log(`stranger at a real address refused: ${pct(refused, strangers)} of ${strangers}`);
