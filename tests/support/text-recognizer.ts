import { parseConfig } from '../../lib/config/index.js';
import { recognizerOptionsOf, sharedTextRecognizer, type TextRecognizer } from '../../lib/vision/index.js';

/** The recognizer services get by default (one tesseract worker per test file, started on first use). */
export function testRecognizer(): TextRecognizer {
  return sharedTextRecognizer(recognizerOptionsOf(parseConfig({})));
}
