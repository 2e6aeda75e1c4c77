/**
 * The matching model: match weights (bits, log2 m/u) per field and agreement level, and
 * the calibration of summed weights into probabilities. Written by
 * `node packages/matching/bench/estimate-weights.ts` (docs/matching.md explains how);
 * do not edit by hand — re-run the estimation instead.
 */
export const MODEL = {
  weights: {
    street: { exact: 2, name_exact: 1.5, typo1: 0.5, phonetic: 0, typo2: -1, different: -20 },
    zip: { exact: 1, one_digit: -1, different: -3 },
    city: { exact: 0.5, close: 0, different: -1, absent: 0 },
    unit: { none: 0, exact: 1, query_only: -0.5, record_only: -0.5, different: -6 },
    first: {
      exact: 6,
      nickname: 4.5,
      typo1: 3.5,
      phonetic: 3,
      initial: 1.5,
      typo2: 1.5,
      different: -8,
      absent: 0,
    },
    last: { exact: 3, compound: 2, typo1: 2, phonetic: 1.5, typo2: 1, different: -8, absent: 0 },
    swapped: 5,
  },
  calibration: { slope: 1, intercept: -2, householdIntercept: 1 },
  threshold: 0.8,
} as const;
