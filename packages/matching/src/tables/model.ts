/**
 * The matching model: match weights (bits, log2 m/u) per field and agreement level, and
 * the calibration of summed weights into probabilities. Written by
 * `node test/eval/estimate-weights.ts` (docs/matching.md explains how);
 * do not edit by hand — re-run the estimation instead.
 */
export const MODEL = {
  weights: {
    street: {
      exact: -0.04,
      name_exact: -0.04,
      typo1: -0.04,
      phonetic: -0.22,
      typo2: -0.22,
      different: 0,
    },
    zip: {
      exact: -0.01,
      one_digit: -0.01,
      different: -0.01,
    },
    city: {
      exact: 0,
      close: 0,
      different: 0,
      absent: 0,
    },
    unit: {
      none: 2.05,
      exact: 2.05,
      query_only: 2.05,
      record_only: -0.86,
      different: -10,
    },
    first: {
      exact: 8.13,
      nickname: 5.65,
      typo1: 5.65,
      phonetic: 2.98,
      initial: 3.63,
      typo2: 3.63,
      different: -10,
      absent: 0,
    },
    last: {
      exact: 2.55,
      compound: 0.38,
      typo1: 2.39,
      phonetic: 0.38,
      typo2: 0.14,
      different: -10,
      absent: 0,
    },
    swapped: {
      exact: 10,
      typo: 0.32,
    },
  },
  calibration: {
    slope: 1.5,
    intercept: -5.25,
    householdIntercept: 8,
  },
  threshold: 0.7,
} as const;
