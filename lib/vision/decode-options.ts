import type { SharpOptions } from 'sharp';
import { MAX_IMAGE_PIXELS } from './limits.js';

/**
 * Input options of every sharp call on untrusted bytes. `failOn: 'error'` makes a truncated or
 * corrupt image throw while decoding (the default of libvips would render the missing part grey)
 * yet tolerates the harmless warnings many camera JPEGs carry.
 */
export const decodeOptions: SharpOptions = { failOn: 'error', limitInputPixels: MAX_IMAGE_PIXELS };
