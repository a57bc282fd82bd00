import {
  analyseImage,
  decodeImageBase64,
  describeImage,
  formatAnalysis,
  type ImageAnalysis,
} from '../vision/index.js';

/** An image sent with a chat message, checked and analysed locally. */
export interface ChatImage {
  bytes: Uint8Array;
  analysis: ImageAnalysis;
  /** Plain sentences about the image, for the reply. */
  description: string;
  /** One line of figures, for `thought`. */
  summary: string;
}

/**
 * Decodes `imageBase64` (plain or a data: URL) and analyses it: bad base64 is a 400, not an image
 * a 415, over 5 MB a 413, a truncated image a 400.
 */
export async function readChatImage(imageBase64: string): Promise<ChatImage> {
  const bytes = decodeImageBase64(imageBase64);
  const analysis = await analyseImage(bytes);
  return { bytes, analysis, description: describeImage(analysis), summary: formatAnalysis(analysis) };
}
