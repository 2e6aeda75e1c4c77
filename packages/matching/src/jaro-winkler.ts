/**
 * Jaro–Winkler string similarity (Winkler 1990), 0..1. Standard parameters: prefix scale
 * 0.1, common prefix capped at 4 characters, boost applied only when Jaro > 0.7.
 * Written here rather than imported: ~40 lines, no dependency, and allocation-light
 * (two small flag arrays per call) because it runs for every candidate.
 */
export function jaroWinkler(a: string, b: string): number {
  if (a === b) return a.length === 0 ? 0 : 1;
  const lengthA = a.length;
  const lengthB = b.length;
  if (lengthA === 0 || lengthB === 0) return 0;
  const window = Math.max(0, Math.floor(Math.max(lengthA, lengthB) / 2) - 1);
  const matchedA = new Uint8Array(lengthA);
  const matchedB = new Uint8Array(lengthB);
  let matches = 0;
  for (let i = 0; i < lengthA; i++) {
    const from = Math.max(0, i - window);
    const to = Math.min(lengthB - 1, i + window);
    for (let j = from; j <= to; j++) {
      if (matchedB[j] === 1 || a.charCodeAt(i) !== b.charCodeAt(j)) continue;
      matchedA[i] = 1;
      matchedB[j] = 1;
      matches++;
      break;
    }
  }
  if (matches === 0) return 0;
  let halfTranspositions = 0;
  let k = 0;
  for (let i = 0; i < lengthA; i++) {
    if (matchedA[i] === 0) continue;
    while (matchedB[k] === 0) k++;
    if (a.charCodeAt(i) !== b.charCodeAt(k)) halfTranspositions++;
    k++;
  }
  const transpositions = halfTranspositions / 2;
  const jaro = (matches / lengthA + matches / lengthB + (matches - transpositions) / matches) / 3;
  if (jaro <= 0.7) return jaro;
  let prefix = 0;
  const maxPrefix = Math.min(4, lengthA, lengthB);
  while (prefix < maxPrefix && a.charCodeAt(prefix) === b.charCodeAt(prefix)) prefix++;
  return jaro + prefix * 0.1 * (1 - jaro);
}
