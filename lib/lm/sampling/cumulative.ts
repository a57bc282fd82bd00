/** The first index whose running total exceeds `target`: a draw from a cumulative distribution. */
export function searchCumulative(
  cumulative: ArrayLike<number>,
  target: number,
  size = cumulative.length,
): number {
  let low = 0;
  let high = size - 1;
  while (low < high) {
    const mid = (low + high) >>> 1;
    if (cumulative[mid]! > target) high = mid;
    else low = mid + 1;
  }
  return low;
}
