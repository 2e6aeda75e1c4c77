/**
 * The matching evaluation run through the production path: the synthetic population
 * (evaluation.ts beside this file) imported with importContacts, then every noisy
 * query traced by the contact trace engine (findCandidates on the store, scoring,
 * loadContactDetails), in batches as the worker runs them.
 */
import type { Property } from '@skiptrace/contracts';
import { importContacts } from '@skiptrace/contacts';
import { createContactTraceEngine } from '@skiptrace/core';
import type { Database } from '@skiptrace/storage';
import { generateStressPopulation, generateStressQueries } from './evaluation-stress.ts';
import {
  generatePopulation,
  generateQueries,
  gradeEvaluation,
  populationCsv,
  type EvalQuery,
  type EvalReport,
  type EvalResult,
  type Population,
} from './evaluation.ts';

export interface EvaluationOptions {
  households: number;
  perKind: number;
  seed: number;
  /** Queries per traceMany call (as a batch chunk). */
  batch?: number;
  /**
   * `standard`: the evaluation's population and noise kinds. `stress`: the harder population
   * (evaluation-stress.ts) with the standard kinds and the stress kinds.
   */
  set?: 'standard' | 'stress';
  /** Called per query with what came back (the command's --misses listing). */
  onResult?: (query: EvalQuery, results: EvalResult[], population: Population) => void;
}

export async function runMatchingEvaluation(db: Database, options: EvaluationOptions): Promise<EvalReport> {
  const stress = options.set === 'stress';
  const population = (stress ? generateStressPopulation : generatePopulation)({
    households: options.households,
    seed: options.seed,
  });
  const counts = await importContacts(db, populationCsv(population), { format: 'csv', source: 'matching-evaluation' });
  if (counts.rejected > 0) throw new Error(`the evaluation population had ${counts.rejected} rejected rows`);
  const queries = generateQueries(population, { seed: options.seed + 1, perKind: options.perKind });
  if (stress) queries.push(...generateStressQueries(population, { seed: options.seed + 2, perKind: options.perKind }));
  const engine = createContactTraceEngine(db);
  const results: EvalResult[][] = [];
  const size = options.batch ?? 250;
  for (let i = 0; i < queries.length; i += size) {
    const outcomes = await engine.traceMany(queries.slice(i, i + size).map((q) => q.property as Property));
    outcomes.forEach((outcome, j) => {
      const got = outcome.results.map((r) => ({ phone: r.phones[0]?.number ?? '', confidence: r.confidence }));
      results.push(got);
      options.onResult?.(queries[i + j]!, got, population);
    });
  }
  return gradeEvaluation(population, queries, results);
}
