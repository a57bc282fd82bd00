import type sharpModule from 'sharp';

let loading: Promise<typeof sharpModule> | undefined;

/**
 * sharp (libvips), loaded on the first image rather than when a function is imported: a cold
 * start that sees no image (most chats, the OpenAI model list) skips its 100-200 ms load.
 */
export function loadSharp(): Promise<typeof sharpModule> {
  loading ??= import('sharp').then(({ default: sharp }) => {
    // Uploads are all different: libvips' operation cache would only hold on to memory.
    sharp.cache(false);
    return sharp;
  });
  return loading;
}
