/**
 * Estimates the matching model (packages/matching/src/tables/model.ts) on generated data and writes it.
 *
 *   node test/eval/estimate-weights.ts [--check]
 *
 * 1. A training population and noisy queries from evaluation.ts with TRAINING seeds (the
 *    evaluation and its CI test use other seeds).
 * 2. Candidates per query by the same three blocking keys as findCandidates.
 * 3. For every (query, candidate) pair the agreement level of each field; the pair is a
 *    match when the candidate is the person asked for. m(level) = share of matching pairs
 *    at that level, u(level) = share of non-matching pairs (in the blocks, as the model
 *    meets them), both with add-½ smoothing; weight = log2(m/u), clamped to ±10 bits.
 *    This is the Fellegi–Sunter estimate with known labels (Splink estimates u from random
 *    pairs and m by EM when labels are unknown; here the generator knows them).
 * 4. Calibration: slope and intercept of s = slope·weight + intercept maximising the
 *    likelihood of the competing-candidates model (docs/matching.md) over named queries,
 *    and the intercept of the independent model over address-only queries (is the
 *    candidate a resident of the queried dwelling?).
 * 5. The threshold: the lowest probability (0.50–0.95 in steps of 0.05) at which the
 *    training queries' precision is at least 0.999.
 *
 * With --check, prints the estimate without writing it.
 */
import { writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import {
  MODEL,
  blockingKeys,
  buildMatchQuery,
  candidateKeys,
  compareCandidate,
  contradicts,
  standardizeAddress,
} from '@skiptrace/matching';
import type { FieldLevels, StandardAddress } from '@skiptrace/matching';
import { generatePopulation, generateQueries } from './evaluation.ts';

const TRAINING_SEEDS = [7001, 7002];
const check = process.argv.includes('--check');

type Field = 'street' | 'zip' | 'city' | 'unit' | 'first' | 'last' | 'swapped';
const FIELDS: Field[] = ['street', 'zip', 'city', 'unit', 'first', 'last', 'swapped'];

interface Pair {
  levels: FieldLevels;
  match: boolean;
}
interface Case {
  named: boolean;
  pairs: Pair[];
  /** Address-only: the candidates living at the queried dwelling. */
  resident: boolean[];
}

const cases: Case[] = [];
for (const seed of TRAINING_SEEDS) {
  const population = generatePopulation({ households: 4000, seed });
  const records = population.people.map((p) => {
    const address: StandardAddress = standardizeAddress(p);
    return { p, address, firstName: p.first, lastName: p.last, city: address.city, ...candidateKeys(address) };
  });
  const byNumber = new Map<string, typeof records>();
  for (const r of records) {
    const list = byNumber.get(r.address.number);
    if (list === undefined) byNumber.set(r.address.number, [r]);
    else list.push(r);
  }
  for (const query of generateQueries(population, { seed: seed + 100, perKind: 150 })) {
    const q = buildMatchQuery(query.property);
    const keys = blockingKeys(q.address);
    const candidates = (byNumber.get(keys.number) ?? []).filter(
      (r) => r.address.zip5 === keys.zip5 || (r.address.state === keys.state && r.address.city === keys.city),
    );
    const pairs: Pair[] = [];
    const resident: boolean[] = [];
    for (const c of candidates) {
      const levels = compareCandidate(q, c);
      if (levels === null) continue;
      pairs.push({ levels, match: c.p.id === query.expected });
      resident.push(query.household.includes(c.p.id));
    }
    cases.push({ named: query.household.length === 0 && query.property.first_name !== undefined, pairs, resident });
  }
}

// m and u per field and level, over named queries' pairs.
const counts = new Map<string, { m: number; u: number }>();
let matches = 0;
let nonMatches = 0;
for (const c of cases) {
  if (!c.named) continue;
  for (const { levels, match } of c.pairs) {
    if (match) matches++;
    else nonMatches++;
    for (const field of FIELDS) {
      const level = levels[field];
      if (level === null) continue;
      if (levels.swapped !== null && (field === 'first' || field === 'last')) continue;
      const key = `${field}.${level}`;
      const entry = counts.get(key) ?? { m: 0, u: 0 };
      if (match) entry.m++;
      else entry.u++;
      counts.set(key, entry);
    }
  }
}
const clamp = (x: number): number => Math.max(-10, Math.min(10, x));
const round = (x: number): number => Math.round(x * 100) / 100;
const weights: Record<string, Record<string, number>> = {};
for (const field of FIELDS) {
  weights[field] = {};
  const levels = Object.keys((MODEL.weights as unknown as Record<string, Record<string, number>>)[field] ?? {});
  for (const level of levels) {
    const { m, u } = counts.get(`${field}.${level}`) ?? { m: 0, u: 0 };
    // A level with no evidence either way carries no weight.
    (weights[field] as Record<string, number>)[level] =
      m + u === 0 ? 0 : round(clamp(Math.log2((m + 0.5) / (matches + 1) / ((u + 0.5) / (nonMatches + 1)))));
  }
}
// Ordered levels keep their order: a better level never weighs less than a worse one
// (sparse levels can come out inverted by chance; each is lowered to its better neighbour).
const ORDERED: Partial<Record<Field, string[]>> = {
  street: ['exact', 'name_exact', 'typo1', 'phonetic', 'typo2'],
  zip: ['exact', 'one_digit', 'different'],
  city: ['exact', 'close', 'different'],
  unit: ['exact', 'none', 'query_only', 'record_only', 'different'],
  first: ['exact', 'nickname', 'typo1', 'initial', 'typo2', 'phonetic', 'different'],
  last: ['exact', 'typo1', 'compound', 'phonetic', 'typo2', 'different'],
  swapped: ['exact', 'typo'],
};
for (const [field, order] of Object.entries(ORDERED)) {
  const w = weights[field] as Record<string, number>;
  for (let i = 1; i < order.length; i++) {
    const better = w[order[i - 1] as string] as number;
    if ((w[order[i] as string] as number) > better) w[order[i] as string] = better;
  }
}
// No evidence is no evidence: an absent name or city weighs nothing.
(weights.first as Record<string, number>).absent = 0;
(weights.last as Record<string, number>).absent = 0;
(weights.city as Record<string, number>).absent = 0;

function weightOf(levels: FieldLevels): number {
  const w = weights as unknown as Record<Field, Record<string, number>>;
  const names = levels.swapped !== null ? w.swapped[levels.swapped]! : w.first[levels.first]! + w.last[levels.last]!;
  return w.street[levels.street]! + w.zip[levels.zip]! + w.city[levels.city]! + w.unit[levels.unit]! + names;
}

/** Probabilities of each pair of a named case under (slope, intercept). */
function namedProbabilities(c: Case, slope: number, intercept: number): number[] {
  const odds = c.pairs.map((p) => (contradicts(p.levels) ? 0 : 2 ** (slope * weightOf(p.levels) + intercept)));
  const total = 1 + odds.reduce((a, b) => a + b, 0);
  return odds.map((o) => o / total);
}

let best = { slope: 1, intercept: 0, ll: -Infinity };
for (let slope = 0.3; slope <= 1.5001; slope += 0.05) {
  for (let intercept = -16; intercept <= 4.0001; intercept += 0.25) {
    let ll = 0;
    for (const c of cases) {
      if (!c.named) continue;
      const probabilities = namedProbabilities(c, slope, intercept);
      const truth = c.pairs.findIndex((p) => p.match);
      const pTruth = truth === -1 ? 1 - probabilities.reduce((a, b) => a + b, 0) : (probabilities[truth] as number);
      ll += Math.log(Math.max(pTruth, 1e-12));
    }
    if (ll > best.ll) best = { slope, intercept, ll };
  }
}

let household = { intercept: 0, ll: -Infinity };
for (let intercept = -8; intercept <= 8.0001; intercept += 0.25) {
  let ll = 0;
  for (const c of cases) {
    if (c.named) continue;
    c.pairs.forEach((p, i) => {
      const pr = contradicts(p.levels) ? 0 : 1 / (1 + 2 ** -(best.slope * weightOf(p.levels) + intercept));
      ll += Math.log(Math.max(c.resident[i] ? pr : 1 - pr, 1e-12));
    });
  }
  if (ll > household.ll) household = { intercept, ll };
}

let threshold = 0.95;
for (let t = 0.5; t <= 0.951; t += 0.05) {
  let returned = 0;
  let right = 0;
  for (const c of cases) {
    if (!c.named) continue;
    namedProbabilities(c, best.slope, best.intercept).forEach((p, i) => {
      if (p >= t) {
        returned++;
        if (c.pairs[i]!.match) right++;
      }
    });
  }
  if (returned > 0 && right / returned >= 0.999) {
    threshold = Math.round(t * 100) / 100;
    break;
  }
}

const model = {
  weights,
  calibration: {
    slope: round(best.slope),
    intercept: round(best.intercept),
    householdIntercept: round(household.intercept),
  },
  threshold,
};
console.log(`${matches} matching and ${nonMatches} non-matching candidate pairs from ${cases.length} training queries`);
console.log(JSON.stringify(model, null, 2));
if (!check) {
  const file = fileURLToPath(new URL('../../packages/matching/src/tables/model.ts', import.meta.url));
  writeFileSync(
    file,
    `/**
 * The matching model: match weights (bits, log2 m/u) per field and agreement level, and
 * the calibration of summed weights into probabilities. Written by
 * \`node test/eval/estimate-weights.ts\` (docs/matching.md explains how);
 * do not edit by hand — re-run the estimation instead.
 */
export const MODEL = ${JSON.stringify(model, null, 2)} as const;
`,
  );
  console.log(`wrote ${file}`);
}
