import type { ColourName } from './types.js';

type Rgb = readonly [number, number, number];
type Lab = [number, number, number];

/** The named colours an image is described with, as sRGB. */
const palette: ReadonlyArray<readonly [ColourName, Rgb]> = [
  ['black', [0, 0, 0]],
  ['dark grey', [64, 64, 64]],
  ['grey', [128, 128, 128]],
  ['light grey', [200, 200, 200]],
  ['white', [255, 255, 255]],
  ['red', [255, 0, 0]],
  ['maroon', [128, 0, 0]],
  ['brown', [139, 69, 19]],
  ['orange', [255, 140, 0]],
  ['beige', [240, 220, 180]],
  ['yellow', [255, 255, 0]],
  ['olive', [128, 128, 0]],
  ['lime', [0, 255, 0]],
  ['green', [0, 128, 0]],
  ['teal', [0, 128, 128]],
  ['cyan', [0, 255, 255]],
  ['sky blue', [135, 206, 235]],
  ['blue', [0, 0, 255]],
  ['navy', [0, 0, 128]],
  ['purple', [128, 0, 128]],
  ['magenta', [255, 0, 255]],
  ['pink', [255, 182, 193]],
];

const paletteLab = palette.map(([name, rgb]) => [name, toLab(rgb)] as const);

/** The palette name nearest to a CIELAB colour (distance in Lab is close to how eyes judge it). */
export function nearestColourName([l, a, bb]: Lab): ColourName {
  let best: ColourName = 'black';
  let bestDistance = Number.POSITIVE_INFINITY;
  for (const [name, [pl, pa, pb]] of paletteLab) {
    const distance = (l - pl) ** 2 + (a - pa) ** 2 + (bb - pb) ** 2;
    if (distance < bestDistance) {
      bestDistance = distance;
      best = name;
    }
  }
  return best;
}

/** CIELAB (D65) of an sRGB colour; L runs from 0 (black) to 100 (white). */
export function toLab([r, g, b]: Rgb): Lab {
  const [lr, lg, lb] = [r, g, b].map(linear) as [number, number, number];
  const x = (0.4124 * lr + 0.3576 * lg + 0.1805 * lb) / 0.95047;
  const y = 0.2126 * lr + 0.7152 * lg + 0.0722 * lb;
  const z = (0.0193 * lr + 0.1192 * lg + 0.9505 * lb) / 1.08883;
  const [fx, fy, fz] = [x, y, z].map(labCurve) as [number, number, number];
  return [116 * fy - 16, 500 * (fx - fy), 200 * (fy - fz)];
}

function linear(channel: number): number {
  const c = channel / 255;
  return c <= 0.04045 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
}

function labCurve(t: number): number {
  return t > 216 / 24389 ? Math.cbrt(t) : (24389 / 27 / 116) * t + 16 / 116;
}
