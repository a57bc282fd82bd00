/** Images decoded at once in this process; the rest wait their turn (first come, first served). */
export const DECODE_CONCURRENCY = 1;

let running = 0;
const waiting: (() => void)[] = [];

/**
 * Runs one piece of pixel work (a decode, a re-encode) when a decoding slot is free, so that
 * parallel uploads and chat images add at most one image's decoding memory (`MAX_DECODE_BYTES`)
 * to the process, whatever their number.
 */
export async function decodeSlot<T>(work: () => Promise<T>): Promise<T> {
  if (running >= DECODE_CONCURRENCY) await new Promise<void>((resolve) => waiting.push(resolve));
  else running++;
  try {
    return await work();
  } finally {
    const next = waiting.shift();
    if (next) next();
    else running--;
  }
}
