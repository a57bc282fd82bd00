/** Capacity to grow to: half again, so a long-lived model wastes at most a third of a column. */
export function nextCapacity(current: number, needed: number): number {
  let capacity = Math.max(16, current);
  while (capacity < needed) capacity = Math.ceil(capacity * 1.5);
  return capacity;
}

/** A copy of `column` with room for `capacity` entries (new slots zeroed). */
export function resizeInt32(column: Int32Array, capacity: number): Int32Array {
  const grown = new Int32Array(capacity);
  grown.set(column.length <= capacity ? column : column.subarray(0, capacity));
  return grown;
}

/** A copy of `column` with room for `capacity` entries (new slots zeroed). */
export function resizeFloat32(column: Float32Array, capacity: number): Float32Array {
  const grown = new Float32Array(capacity);
  grown.set(column.length <= capacity ? column : column.subarray(0, capacity));
  return grown;
}
