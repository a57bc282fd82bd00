/** A source of uniform numbers in [0, 1), like `Math.random`. */
export type RandomSource = () => number;

/** Mulberry32: a small, fast seeded PRNG, so tests and benchmarks can replay a reply exactly. */
export function mulberry32(seed: number): RandomSource {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
