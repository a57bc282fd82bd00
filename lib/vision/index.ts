export { type AnalyseOptions, analyseImage } from './analyse.js';
export { decodeImageBase64 } from './decode-base64.js';
export { describeImage, formatAnalysis } from './describe.js';
export { downscaleToJpeg } from './downscale.js';
export { inspectImage } from './inspect.js';
export { formatByteLimit, MAX_IMAGE_BYTES, MAX_IMAGE_PIXELS } from './limits.js';
export { sniffImageType } from './sniff.js';
export { stripMetadata } from './strip-metadata.js';
export {
  createTextRecognizer,
  LANGUAGE_DATA_FLAVOUR,
  languageDataPath,
  type RecognizedLine,
  type RecognizedText,
  type RecognizedWord,
  type RecognizerOptions,
  recognizerOptionsOf,
  sharedTextRecognizer,
  type TextBox,
  type TextRecognizer,
} from './text-recognition/index.js';
export {
  type BrightnessWord,
  type ColourName,
  colourNames,
  type DominantColour,
  type ImageAnalysis,
  type ImageMimeType,
  type InspectedImage,
  type Orientation,
  type StrippedImage,
} from './types.js';
