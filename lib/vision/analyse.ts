import { nearestColourName, toLab } from './colour-names.js';
import { decodeSlot } from './decode-gate.js';
import { decodeOptions } from './decode-options.js';
import { inspectImage } from './inspect.js';
import { loadSharp } from './load-sharp.js';
import type { TextRecognizer } from './text-recognition/index.js';
import type { RecognizedText } from './text-recognition/types.js';
import type { BrightnessWord, ColourName, DominantColour, ImageAnalysis, Orientation } from './types.js';

/** Side of the downscaled copy the colours and brightness are measured on. */
const SAMPLE_SIZE = 64;
const MIN_COLOUR_SHARE = 0.05;
const MAX_COLOURS = 4;

export interface AnalyseOptions {
  /** Reads the image's text; without it the text is `skipped`. */
  recognizer?: TextRecognizer;
  /** The text already read from these bytes (an upload's), instead of reading it again. */
  knownText?: RecognizedText;
}

/**
 * Local vision analysis: validates the image as `inspectImage` does (same errors), then measures
 * brightness (mean CIELAB lightness, 0..1) and dominant colours (each pixel named after the nearest
 * palette colour) on a small upright copy of its first frame, and reads its text with the
 * recognizer (503 `recognizer_busy` when its queue is full). Pixels are weighted by their alpha,
 * so transparent areas count for nothing.
 */
export async function analyseImage(bytes: Uint8Array, options: AnalyseOptions = {}): Promise<ImageAnalysis> {
  if (!options.knownText) options.recognizer?.assertRoom();
  const image = await inspectImage(bytes);
  const recognized = options.knownText ?? (await options.recognizer?.recognize(bytes));
  const sharp = await loadSharp();
  const { data, info } = await decodeSlot(() =>
    sharp(bytes, decodeOptions)
      .autoOrient()
      .resize(SAMPLE_SIZE, SAMPLE_SIZE, { fit: 'inside' })
      .toColourspace('srgb')
      .ensureAlpha()
      .raw()
      .toBuffer({ resolveWithObject: true }),
  );
  const { brightness, colours } = measure(data, info.channels);

  return {
    text: recognized?.lines.map((line) => line.text) ?? [],
    textConfidence: recognized?.confidence ?? 0,
    textStatus: recognized?.status ?? 'skipped',
    textLines: recognized?.lines ?? [],
    format: image.mimeType.slice('image/'.length),
    mimeType: image.mimeType,
    width: image.width,
    height: image.height,
    orientation: orientationOf(image.width, image.height),
    megapixels: round((image.width * image.height) / 1_000_000, 2),
    hasAlpha: image.hasAlpha,
    transparent: image.transparent,
    brightness: { value: round(brightness, 3), word: brightnessWord(brightness) },
    dominantColours: colours,
    animated: image.pages > 1,
    pages: image.pages,
  };
}

function measure(data: Buffer, channels: number): { brightness: number; colours: DominantColour[] } {
  const weights = new Map<ColourName, number>();
  let totalWeight = 0;
  let lightness = 0;
  for (let offset = 0; offset + channels <= data.length; offset += channels) {
    const [r, g, b, alpha] = [data[offset]!, data[offset + 1]!, data[offset + 2]!, data[offset + 3]!];
    const weight = alpha / 255;
    if (weight === 0) continue;
    totalWeight += weight;
    const lab = toLab([r, g, b]);
    lightness += weight * (lab[0] / 100);
    const name = nearestColourName(lab);
    weights.set(name, (weights.get(name) ?? 0) + weight);
  }
  if (totalWeight === 0) return { brightness: 0, colours: [] };
  const colours = [...weights]
    .map(([name, weight]) => ({ name, share: round(weight / totalWeight, 3) }))
    .filter((colour) => colour.share >= MIN_COLOUR_SHARE)
    .sort((a, b) => b.share - a.share)
    .slice(0, MAX_COLOURS);
  return { brightness: lightness / totalWeight, colours };
}

function orientationOf(width: number, height: number): Orientation {
  if (width === height) return 'square';
  return width > height ? 'landscape' : 'portrait';
}

function brightnessWord(value: number): BrightnessWord {
  if (value < 0.25) return 'dark';
  if (value < 0.45) return 'dim';
  if (value < 0.7) return 'balanced';
  return 'bright';
}

function round(value: number, digits: number): number {
  const factor = 10 ** digits;
  return Math.round(value * factor) / factor;
}
