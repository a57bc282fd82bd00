/** Discounts used when counts-of-counts cannot give valid ones yet (tiny data), as lmplz's --discount_fallback. */
export const FALLBACK_DISCOUNTS: readonly [number, number, number] = [0.5, 1, 1.5];

/**
 * Modified Kneser-Ney discounts [D1, D2, D3+] of one order from its counts-of-counts n1..n4
 * (Chen & Goodman's estimate, as lmplz computes it). Falls back to `FALLBACK_DISCOUNTS` when a
 * count-of-counts is zero or a discount leaves its valid range [0, k].
 */
export function modifiedKneserNeyDiscounts(countsOfCounts: ArrayLike<number>): [number, number, number] {
  const n1 = countsOfCounts[1];
  const n2 = countsOfCounts[2];
  const n3 = countsOfCounts[3];
  const n4 = countsOfCounts[4];
  const y = n1 / (n1 + 2 * n2);
  const discounts: [number, number, number] = [
    1 - (2 * y * n2) / n1,
    2 - (3 * y * n3) / n2,
    3 - (4 * y * n4) / n3,
  ];
  for (let i = 0; i < 3; i++) {
    const d = discounts[i];
    if (!Number.isFinite(d) || d < 0 || d > i + 1) return [...FALLBACK_DISCOUNTS];
  }
  return discounts;
}
