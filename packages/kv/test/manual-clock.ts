/** A clock for the memory store that moves only when a test advances it (epoch ms). */
export interface ManualClock {
  now(): number;
  advance(ms: number): void;
}

export function manualClock(start = 1_700_000_000_000): ManualClock {
  let time = start;
  return {
    now: () => time,
    advance(ms) {
      time += ms;
    },
  };
}
