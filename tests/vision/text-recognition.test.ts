import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { HttpError } from '../../lib/http/errors.js';
import { analyseImage, createTextRecognizer, languageDataPath } from '../../lib/vision/index.js';
import type { RecognitionEngine } from '../../lib/vision/text-recognition/index.js';
import { testRecognizer } from '../support/text-recognizer.js';
import { shapesImage, textImage } from './images.js';

describe('text recognition (tesseract.js, English data from node_modules)', () => {
  it('reads a rendered line back with its confidence and boxes in the original pixels', async () => {
    const png = await textImage(['The lighthouse keeper lit the lamp at dusk.']);
    const result = await testRecognizer().recognize(png);
    expect(result.status).toBe('read');
    expect(result.lines.map((line) => line.text)).toEqual(['The lighthouse keeper lit the lamp at dusk.']);
    expect(result.confidence).toBeGreaterThanOrEqual(0.6);
    const [line] = result.lines;
    expect(line!.words).toHaveLength(8);
    expect(line!.box.x).toBeGreaterThanOrEqual(25);
    expect(line!.box.x).toBeLessThan(40);
    expect(line!.box.y + line!.box.height).toBeLessThanOrEqual(70);
  });

  it('claims no text on an image without any', async () => {
    const result = await testRecognizer().recognize(await shapesImage());
    expect(result).toMatchObject({ status: 'none', lines: [], confidence: 0 });
  });

  it('reads two columns as two blocks, the left one first', async () => {
    const left = ['Gardening tips for spring', 'Plant tomatoes after frost', 'Water seedlings every morning'];
    const right = ['Local football results', 'Rovers defeated United', 'Captain scored twice'];
    const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="1000" height="200"><rect width="100%" height="100%" fill="#fff"/>${[
      ...left.map(
        (text, i) =>
          `<text x="30" y="${60 + i * 36}" font-family="Liberation Serif" font-size="24">${text}</text>`,
      ),
      ...right.map(
        (text, i) =>
          `<text x="540" y="${60 + i * 36}" font-family="Liberation Serif" font-size="24">${text}</text>`,
      ),
    ].join('')}</svg>`;
    const result = await testRecognizer().recognize(await sharp(Buffer.from(svg)).png().toBuffer());
    expect(result.lines.map((line) => line.text)).toEqual([...left, ...right]);
    expect(result.lines.map((line) => line.block)).toEqual([0, 0, 0, 1, 1, 1]);
  });

  it('gives the analysis the text, its confidence and its lines', async () => {
    const analysis = await analyseImage(await textImage(['Platform nine', 'Trains to London']), {
      recognizer: testRecognizer(),
    });
    expect(analysis).toMatchObject({ text: ['Platform nine', 'Trains to London'], textStatus: 'read' });
    expect(analysis.textLines[1]!.words.map((word) => word.text)).toEqual(['Trains', 'to', 'London']);
  });

  it('reads the language data from its npm package, never from the network', () => {
    expect(languageDataPath('eng')).toMatch(
      /node_modules\/@tesseract\.js-data\/eng\/4\.0\.0_best_int\/eng\.traineddata\.gz$/,
    );
    expect(() => languageDataPath('xyz')).toThrow(/@tesseract\.js-data\/xyz/);
  });
});

/** An engine that answers only when told to, to hold the recognizer busy. */
function heldEngine() {
  const started: number[] = [];
  const releases: (() => void)[] = [];
  let terminated = 0;
  const start = async (): Promise<RecognitionEngine> => {
    started.push(started.length);
    return {
      recognize: () => new Promise((resolve) => releases.push(() => resolve([]))),
      terminate: async () => {
        terminated++;
      },
    };
  };
  return { start, started, releases, terminated: () => terminated };
}

describe('the recognizer is bounded', () => {
  it('refuses an image with 503 recognizer_busy and Retry-After when its queue is full', async () => {
    const engine = heldEngine();
    const recognizer = createTextRecognizer({
      languages: ['eng'],
      timeoutMs: 5000,
      maxWaiting: 1,
      minConfidence: 60,
      start: engine.start,
    });
    const png = await textImage(['queue']);
    const first = recognizer.recognize(png);
    const second = recognizer.recognize(png);
    const third = await recognizer.recognize(png).catch((error: unknown) => error);
    expect(third).toBeInstanceOf(HttpError);
    expect(third).toMatchObject({ status: 503, code: 'recognizer_busy', headers: { 'Retry-After': '5' } });
    expect(recognizer.pending).toBe(2);
    await waitUntil(() => engine.releases.length === 1);
    engine.releases[0]!();
    await waitUntil(() => engine.releases.length === 2);
    engine.releases[1]!();
    expect((await first).status).toBe('none');
    expect((await second).status).toBe('none');
    expect(engine.started).toHaveLength(1);
  });

  it('gives up on an image past the time limit, stops the engine and starts a new one for the next', async () => {
    const engine = heldEngine();
    const recognizer = createTextRecognizer({
      languages: ['eng'],
      timeoutMs: 300,
      maxWaiting: 4,
      minConfidence: 60,
      start: engine.start,
    });
    const png = await textImage(['slow']);
    expect(await recognizer.recognize(png)).toMatchObject({ status: 'timed_out', lines: [] });
    expect(engine.terminated()).toBe(1);
    const next = recognizer.recognize(png);
    await waitUntil(() => engine.releases.length === 2);
    engine.releases[1]!();
    expect((await next).status).toBe('none');
    expect(engine.started).toHaveLength(2);
  });
});

async function waitUntil(condition: () => boolean): Promise<void> {
  for (let i = 0; i < 200 && !condition(); i++) await new Promise((resolve) => setTimeout(resolve, 10));
  expect(condition()).toBe(true);
}
