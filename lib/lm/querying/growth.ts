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

/** Arrays at least this large are given back at once by `freeNow` (smaller ones are cheap to leave to the collector). */
const FREE_NOW_BYTES = 1 << 16;

/**
 * Gives the memory of a large typed array back to the system at once (its buffer is detached:
 * the array reads as empty after), instead of when the garbage collector gets to it. Counts
 * growing, compacting and being written leave arrays of tens of megabytes behind, and the
 * collector, which does not see them as pressure, let two directions' worth pile up. Only for an
 * array nothing else refers to.
 */
export function freeNow(array: Int32Array | Float64Array | null | undefined): void {
  if (!array || array.buffer.byteLength < FREE_NOW_BYTES) return;
  (array.buffer as ArrayBuffer & { transfer?: (length: number) => ArrayBuffer }).transfer?.(0);
}
