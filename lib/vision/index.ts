export { analyseImage } from './analyse';
export { decodeImageBase64 } from './decode-base64';
export { describeImage, formatAnalysis } from './describe';
export { downscaleToJpeg } from './downscale';
export { inspectImage } from './inspect';
export { formatByteLimit, MAX_IMAGE_BYTES, MAX_IMAGE_PIXELS } from './limits';
export { sniffImageType } from './sniff';
export { stripMetadata } from './strip-metadata';
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
} from './types';
