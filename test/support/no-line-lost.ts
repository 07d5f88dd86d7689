/**
 * What a receipt resumed after a cut-short print looks like on paper when no line is lost: the
 * lines printed before the stop (a prefix of the receipt), then the resumed print from some line
 * at or before where the paper stopped — so lines may repeat, none may be missing, nothing else
 * may appear. Returns how many lines were printed twice; throws naming the first difference.
 */
export function linesRepeatedNoneLost(paper: string, receipt: string): number {
  const d = paper.split('\n');
  const l = receipt.split('\n');
  for (let k = 0; k <= Math.min(d.length, l.length); k++) {
    if (k > 0 && d[k - 1] !== l[k - 1]) break;
    const rest = d.length - k;
    const r = l.length - rest;
    if (r < 0 || r > k) continue;
    if (d.slice(k).every((line, i) => line === l[r + i])) return k - r;
  }
  throw new Error(`lines are missing or changed:\n--- paper ---\n${paper}\n--- receipt ---\n${receipt}`);
}
