/**
 * Damerau–Levenshtein edit distance (Lowrance–Wagner: insert, delete, substitute, swap two
 * adjacent characters, each costing 1, and later edits may touch a swapped pair, so
 * "ROJAS" → "ROSJ" is two edits: a deletion, then a swap). The restricted form (optimal
 * string alignment) counted that as three, and a typing error made of a slip and a swap
 * fell out of the typo levels (the stress evaluation, docs/matching.md).
 *
 * Bounded: returns `max + 1` as soon as the distance is known to exceed `max` (a row's
 * minimum never decreases, swaps included), so comparing two unrelated names costs a few
 * rows of the table. One reused table, no allocation per call. Characters above U+007F
 * (never met after normalisation) are compared but not remembered for swaps.
 */
let table = new Int32Array(32 * 32);
/** Last row (1-based) of `a` where each ASCII character was seen. */
const lastRow = new Int32Array(128);

export function editDistance(a: string, b: string, max = 2): number {
  if (a === b) return 0;
  const n = a.length;
  const m = b.length;
  if (Math.abs(n - m) > max) return max + 1;
  if (n === 0 || m === 0) return Math.max(n, m);
  const w = m + 2;
  if ((n + 2) * w > table.length) table = new Int32Array((n + 2) * w * 2);
  const h = table;
  const inf = n + m;
  // h[(i+1)·w + (j+1)] is the distance of a[0,i) and b[0,j); row and column 0 are "infinite".
  h[0] = inf;
  for (let i = 0; i <= n; i++) {
    h[(i + 1) * w] = inf;
    h[(i + 1) * w + 1] = i;
  }
  for (let j = 0; j <= m; j++) {
    h[j + 1] = inf;
    h[w + j + 1] = j;
  }
  for (let i = 0; i < n; i++) {
    const c = a.charCodeAt(i);
    if (c < 128) lastRow[c] = 0;
  }
  for (let j = 0; j < m; j++) {
    const c = b.charCodeAt(j);
    if (c < 128) lastRow[c] = 0;
  }
  for (let i = 1; i <= n; i++) {
    const ca = a.charCodeAt(i - 1);
    let lastCol = 0;
    let rowMin = inf;
    for (let j = 1; j <= m; j++) {
      const cb = b.charCodeAt(j - 1);
      const i1 = cb < 128 ? (lastRow[cb] as number) : 0;
      const j1 = lastCol;
      let cost = 1;
      if (ca === cb) {
        cost = 0;
        lastCol = j;
      }
      let best = (h[i * w + j] as number) + cost;
      const insert = (h[(i + 1) * w + j] as number) + 1;
      if (insert < best) best = insert;
      const remove = (h[i * w + j + 1] as number) + 1;
      if (remove < best) best = remove;
      if (i1 > 0 && j1 > 0) {
        const swap = (h[i1 * w + j1] as number) + (i - i1 - 1) + 1 + (j - j1 - 1);
        if (swap < best) best = swap;
      }
      h[(i + 1) * w + j + 1] = best;
      if (best < rowMin) rowMin = best;
    }
    if (ca < 128) lastRow[ca] = i;
    if (rowMin > max) return max + 1;
  }
  const distance = h[(n + 1) * w + m + 1] as number;
  return distance > max ? max + 1 : distance;
}
