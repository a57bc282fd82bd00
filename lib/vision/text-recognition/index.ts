export { type RecognitionEngine, startEngine } from './engine.js';
export { LANGUAGE_DATA_FLAVOUR, languageDataPath } from './language-data.js';
export { MAX_RECOGNITION_PIXELS } from './prepare.js';
export { createTextRecognizer, type RecognizerOptions, type TextRecognizer } from './recognizer.js';
export { recognizerOptionsOf, sharedTextRecognizer } from './shared.js';
export type { RecognizedLine, RecognizedText, RecognizedWord, TextBox } from './types.js';
