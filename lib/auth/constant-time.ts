import { createHash, timingSafeEqual } from 'node:crypto';

/** String equality that takes the same time wherever the inputs differ (and whatever their length). */
export function equalsConstantTime(a: string, b: string): boolean {
  return timingSafeEqual(sha256(a), sha256(b));
}

function sha256(value: string): Buffer {
  return createHash('sha256').update(value, 'utf8').digest();
}
