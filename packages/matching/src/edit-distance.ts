/**
 * Optimal-string-alignment edit distance (Damerau–Levenshtein restricted: insert, delete,
 * substitute, swap two adjacent characters; each costs 1), bounded: returns `max + 1` as
 * soon as the distance is known to exceed `max`, so comparing two unrelated names costs a
 * few rows of the table, not all of them. Three reused rows, no allocation per call.
 */
let previous2 = new Int32Array(64);
let previous = new Int32Array(64);
let current = new Int32Array(64);

export function editDistance(a: string, b: string, max = 2): number {
  if (a === b) return 0;
  const n = a.length;
  const m = b.length;
  if (Math.abs(n - m) > max) return max + 1;
  if (n === 0 || m === 0) return Math.max(n, m);
  if (m + 1 > current.length) {
    previous2 = new Int32Array(m + 1);
    previous = new Int32Array(m + 1);
    current = new Int32Array(m + 1);
  }
  for (let j = 0; j <= m; j++) previous[j] = j;
  for (let i = 1; i <= n; i++) {
    current[0] = i;
    let rowMin = i;
    const ca = a.charCodeAt(i - 1);
    for (let j = 1; j <= m; j++) {
      const cb = b.charCodeAt(j - 1);
      let best = Math.min((previous[j] as number) + 1, (current[j - 1] as number) + 1);
      const diagonal = (previous[j - 1] as number) + (ca === cb ? 0 : 1);
      if (diagonal < best) best = diagonal;
      if (i > 1 && j > 1 && ca === b.charCodeAt(j - 2) && a.charCodeAt(i - 2) === cb) {
        const swap = (previous2[j - 2] as number) + 1;
        if (swap < best) best = swap;
      }
      current[j] = best;
      if (best < rowMin) rowMin = best;
    }
    if (rowMin > max) return max + 1;
    const spare = previous2;
    previous2 = previous;
    previous = current;
    current = spare;
  }
  const distance = previous[m] as number;
  return distance > max ? max + 1 : distance;
}
