import sharp, { type OverlayOptions } from 'sharp';
import { describe, expect, it } from 'vitest';
import { analyseImage, describeImage, formatAnalysis } from '../../lib/vision/index.js';
import { animatedGif, jpegWithGps, solidImage } from './images.js';

/** A landscape PNG, the top 60% sky blue and the rest white, optionally with a transparent corner. */
async function skyPng(transparentCorner: boolean): Promise<Buffer> {
  const square = (width: number, height: number, background: string) =>
    sharp({ create: { width, height, channels: 4, background } })
      .png()
      .toBuffer();
  const layers: OverlayOptions[] = [{ input: await square(640, 288, '#87ceeb'), top: 0, left: 0 }];
  if (transparentCorner) {
    layers.push({ input: await square(32, 32, '#000000'), top: 448, left: 608, blend: 'dest-out' });
  }
  return sharp({ create: { width: 640, height: 480, channels: 4, background: '#ffffff' } })
    .composite(layers)
    .png()
    .toBuffer();
}

describe('analyseImage', () => {
  it('finds a pure red 100×50 PNG landscape, red and opaque', async () => {
    const analysis = await analyseImage(await solidImage('png', 100, 50, '#ff0000'));
    expect(analysis).toMatchObject({
      format: 'png',
      mimeType: 'image/png',
      width: 100,
      height: 50,
      orientation: 'landscape',
      hasAlpha: false,
      transparent: false,
      animated: false,
      pages: 1,
    });
    expect(analysis.dominantColours).toEqual([{ name: 'red', share: 1 }]);
  });

  it('finds a half-transparent PNG transparent', async () => {
    const analysis = await analyseImage(
      await solidImage('png', 20, 20, { r: 0, g: 0, b: 255, alpha: 0.5 }, 4),
    );
    expect(analysis).toMatchObject({ hasAlpha: true, transparent: true, orientation: 'square' });
    expect(analysis.dominantColours[0]?.name).toBe('blue');
  });

  it('calls a black image dark and a white portrait bright', async () => {
    const black = await analyseImage(await solidImage('jpeg', 50, 50, '#000000'));
    expect(black.brightness).toEqual({ value: 0, word: 'dark' });
    expect(black.dominantColours[0]?.name).toBe('black');
    const white = await analyseImage(await solidImage('webp', 30, 60, '#ffffff'));
    expect(white).toMatchObject({ orientation: 'portrait', brightness: { word: 'bright' } });
  });

  it('measures a mid-grey image as balanced', async () => {
    const analysis = await analyseImage(await solidImage('png', 10, 10, '#8a8a8a'));
    expect(analysis.brightness.word).toBe('balanced');
    expect(analysis.dominantColours[0]?.name).toBe('grey');
  });

  it('orders the dominant colours by share', async () => {
    const analysis = await analyseImage(await skyPng(false));
    expect(analysis.dominantColours.map((colour) => colour.name)).toEqual(['sky blue', 'white']);
    expect(analysis.dominantColours[0]!.share).toBeCloseTo(0.6, 1);
    expect(analysis.megapixels).toBe(0.31);
  });

  it('reads orientation after the EXIF rotation', async () => {
    expect((await analyseImage(await jpegWithGps(64, 48))).orientation).toBe('portrait');
  });

  it('notices an animated GIF', async () => {
    expect(await analyseImage(await animatedGif())).toMatchObject({
      animated: true,
      pages: 3,
      format: 'gif',
    });
  });
});

describe('describeImage', () => {
  it('says brightness, orientation, format, size, colours and transparency in one sentence', async () => {
    const analysis = await analyseImage(await skyPng(true));
    expect(describeImage(analysis)).toBe(
      'A bright landscape PNG, 640×480, mostly sky blue and white, with transparent areas.',
    );
  });

  it('says "almost entirely" for a single colour and names the frames of an animation', async () => {
    expect(describeImage(await analyseImage(await solidImage('png', 100, 50, '#ff0000')))).toBe(
      'A balanced landscape PNG, 100×50, almost entirely red.',
    );
    expect(describeImage(await analyseImage(await animatedGif()))).toMatch(
      /^A \w+ landscape animated GIF of 3 frames, 20×10/,
    );
  });
});

describe('formatAnalysis', () => {
  it('lists every figure of the analysis on one line', async () => {
    const line = formatAnalysis(await analyseImage(await skyPng(true)));
    expect(line).toContain('image: png 640×480 (0.31 MP, landscape)');
    expect(line).toMatch(/brightness 0\.\d+ \(bright\)/);
    expect(line).toMatch(/colours: sky blue \d+%, white \d+%/);
    expect(line).toContain('transparent pixels: yes');
    expect(line).toContain('animated: no');
    expect(line).not.toContain('\n');
  });
});
