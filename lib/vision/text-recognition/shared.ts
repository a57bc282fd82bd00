import { createTextRecognizer, type RecognizerOptions, type TextRecognizer } from './recognizer.js';

const shared = new Map<string, TextRecognizer>();

/**
 * The recognizer of this process for these options: every set of services made in one process
 * (tests make many) shares one engine, so an instance never runs two.
 */
export function sharedTextRecognizer(options: Omit<RecognizerOptions, 'start'>): TextRecognizer {
  const key = JSON.stringify([
    options.languages,
    options.timeoutMs,
    options.maxWaiting,
    options.minConfidence,
  ]);
  let recognizer = shared.get(key);
  if (!recognizer) {
    recognizer = createTextRecognizer(options);
    shared.set(key, recognizer);
  }
  return recognizer;
}

/** The recognizer options of a configuration's OCR_* variables. */
export function recognizerOptionsOf(config: {
  OCR_LANGS: string;
  OCR_TIMEOUT_MS: number;
  OCR_QUEUE: number;
  OCR_MIN_CONFIDENCE: number;
}): Omit<RecognizerOptions, 'start'> {
  return {
    languages: config.OCR_LANGS.split('+'),
    timeoutMs: config.OCR_TIMEOUT_MS,
    maxWaiting: config.OCR_QUEUE,
    minConfidence: config.OCR_MIN_CONFIDENCE,
  };
}
