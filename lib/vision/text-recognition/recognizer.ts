import { HttpError } from '../../http/errors.js';
import { decodeSlot } from '../decode-gate.js';
import { type RecognitionEngine, startEngine } from './engine.js';
import { linesOf } from './layout.js';
import { MAX_RECOGNITION_PIXELS, MAX_UPSCALE, prepareImage } from './prepare.js';
import type { RecognizedLine, RecognizedText } from './types.js';

export interface RecognizerOptions {
  /** Tesseract language codes, e.g. ["eng"] (OCR_LANGS). */
  languages: readonly string[];
  /** Longest one image may take, preparation included (OCR_TIMEOUT_MS). */
  timeoutMs: number;
  /** Images that may wait for the recognizer; one more is refused with 503 (OCR_QUEUE). */
  maxWaiting: number;
  /** Words under this confidence, 0..100, are dropped (OCR_MIN_CONFIDENCE). */
  minConfidence: number;
  /** Starts the engine; the default runs tesseract.js on a worker thread. */
  start?: (languages: readonly string[]) => Promise<RecognitionEngine>;
}

/** Reads the text in images, one at a time; see `createTextRecognizer`. */
export interface TextRecognizer {
  /** The image's text. Throws HttpError 503 `recognizer_busy` (with Retry-After) when the queue is full. */
  recognize(bytes: Uint8Array): Promise<RecognizedText>;
  /**
   * Throws the same 503 as `recognize` when the queue is full now: called before an image's other
   * checks, it refuses an image before any decoding is spent on it.
   */
  assertRoom(): void;
  /** Images waiting and being read now. */
  readonly pending: number;
  /** Stops the engine (a later call starts it again). */
  close(): Promise<void>;
}

/** Line height (recognised pixels) under which text is read a second time, enlarged. */
const SMALL_TEXT_HEIGHT = 20;
/** Pixels read past which the engine is restarted afterwards (a 1920×1080 screenshot keeps it). */
const RECYCLE_PIXELS = 2_100_000;
/** Mean word confidence under which small text is worth that second reading. */
const SURE_CONFIDENCE = 0.92;
/** Line height small text is enlarged to. */
const TARGET_TEXT_HEIGHT = 32;

/**
 * A text recognizer for one instance: the engine is started on the first image and reused (restarted
 * after an image over 2.1 MP, whose memory it would keep); images are read one at a time, within
 * the process's decoding slot, at most `maxWaiting` waiting (so memory stays bounded however many
 * arrive), each within `timeoutMs` — past it the engine is stopped (the only way to interrupt it)
 * and restarted for the next image, and the image counts as `timed_out`. Text whose lines are
 * small is read again, enlarged, when the first reading leaves time and the pixel budget allows.
 */
export function createTextRecognizer(options: RecognizerOptions): TextRecognizer {
  const start = options.start ?? startEngine;
  let engine: Promise<RecognitionEngine> | undefined;
  let running = 0;
  const waiting: (() => void)[] = [];

  const engineNow = () => {
    engine ??= start(options.languages).catch((error) => {
      engine = undefined;
      throw error;
    });
    return engine;
  };
  /** Stops the engine; a start still under way is stopped once it is done (never waited for). */
  const stopEngine = () => {
    const current = engine;
    engine = undefined;
    const stopped = current?.then((started) => started.terminate()).catch(() => {});
    void stopped;
    return stopped;
  };

  const read = async (bytes: Uint8Array): Promise<RecognizedText> => {
    const started = performance.now();
    let largest = 0;
    const deadline = started + options.timeoutMs;
    const timeLeft = () => deadline - performance.now();
    const pass = async (scale?: number) => {
      const image = await prepareImage(bytes, scale);
      largest = Math.max(largest, image.width * image.height);
      const blocks = await withTimeout(
        engineNow().then((started) => started.recognize(image.png)),
        timeLeft(),
      );
      return { lines: linesOf(blocks, { minConfidence: options.minConfidence, scale: image.scale }), image };
    };
    let lines: RecognizedLine[];
    try {
      const first = await pass();
      lines = first.lines;
      const height = medianHeight(first.lines) * first.image.scale;
      const enlarge = Math.min(MAX_UPSCALE, TARGET_TEXT_HEIGHT / height);
      const pixels = first.image.width * first.image.height * enlarge * enlarge;
      const unsure = confidenceOf(first.lines) < SURE_CONFIDENCE;
      if (
        height > 0 &&
        height < SMALL_TEXT_HEIGHT &&
        unsure &&
        pixels <= MAX_RECOGNITION_PIXELS &&
        timeLeft() > 0
      ) {
        const second = await pass(first.image.scale * enlarge).catch((error) => {
          if (error instanceof RecognitionTimeout) return undefined;
          throw error;
        });
        if (second && yieldOf(second.lines) > yieldOf(first.lines)) lines = second.lines;
        if (!second) stopEngine();
      }
    } catch (error) {
      if (!(error instanceof RecognitionTimeout)) throw error;
      stopEngine();
      return { status: 'timed_out', lines: [], confidence: 0, ms: Math.round(performance.now() - started) };
    }
    // The engine's memory grows to the largest image it has read and never shrinks: after a
    // large one it is stopped, to be started afresh (about a second) for the next image.
    if (largest > RECYCLE_PIXELS) stopEngine();
    return {
      status: lines.length > 0 ? 'read' : 'none',
      lines,
      confidence: confidenceOf(lines),
      ms: Math.round(performance.now() - started),
    };
  };

  const assertRoom = () => {
    if (running > 0 && waiting.length >= options.maxWaiting) throw recognizerBusy(options.timeoutMs);
  };

  return {
    assertRoom,
    async recognize(bytes) {
      assertRoom();
      if (running > 0) await new Promise<void>((resolve) => waiting.push(resolve));
      else running++;
      try {
        // Recognition is pixel work like decoding: one image's worth at a time in the process.
        return await decodeSlot(() => read(bytes));
      } finally {
        const next = waiting.shift();
        if (next) next();
        else running--;
      }
    },
    get pending() {
      return running + waiting.length;
    },
    async close() {
      await stopEngine();
    },
  };
}

class RecognitionTimeout extends Error {}

function withTimeout<T>(work: Promise<T>, ms: number): Promise<T> {
  if (ms <= 0) {
    work.catch(() => {});
    return Promise.reject(new RecognitionTimeout());
  }
  return new Promise<T>((resolve, reject) => {
    const timer = setTimeout(() => reject(new RecognitionTimeout()), ms);
    work.then(
      (value) => {
        clearTimeout(timer);
        resolve(value);
      },
      (error) => {
        clearTimeout(timer);
        reject(error);
      },
    );
  });
}

/** Median height of the lines, in the original image's pixels; 0 without lines. */
function medianHeight(lines: RecognizedLine[]): number {
  const heights = lines.map((line) => line.box.height).sort((a, b) => a - b);
  return heights.length === 0 ? 0 : heights[Math.floor(heights.length / 2)]!;
}

/** Mean confidence of the words of the lines, 0..1 (0 without words). */
function confidenceOf(lines: RecognizedLine[]): number {
  const words = lines.flatMap((line) => line.words);
  const sum = words.reduce((total, word) => total + word.confidence, 0);
  return Math.round((sum / (words.length || 1)) * 100) / 100;
}

/** What a reading is worth: its kept characters weighted by confidence. */
function yieldOf(lines: RecognizedLine[]): number {
  return lines.reduce(
    (sum, line) => sum + line.words.reduce((total, word) => total + word.text.length * word.confidence, 0),
    0,
  );
}

/** 503: the recognizer's queue is full. */
function recognizerBusy(timeoutMs: number): HttpError {
  const retryAfter = Math.max(1, Math.ceil(timeoutMs / 1000));
  return new HttpError(
    'recognizer_busy',
    `Too many images are waiting to have their text read; try again in ${retryAfter} seconds.`,
    { retryAfter },
    { 'Retry-After': String(retryAfter) },
  );
}
