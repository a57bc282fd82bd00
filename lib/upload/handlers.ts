import { HttpError, json, type MethodHandler } from '../http/index.js';
import { underClientLimit } from '../limits/index.js';
import type { Services } from '../services/index.js';
import { requireTrainAccess } from '../training/handlers.js';
import { MAX_IMAGE_BYTES } from '../vision/index.js';
import { loadStoredImage } from './load-image.js';
import { parseImageUpload } from './parse-upload.js';
import type { UploadedImage } from './schema.js';
import { STORED_IMAGE_CACHE_CONTROL, storeUploadedImage } from './store-image.js';
import { trainImageText, wantsTraining } from './train-image.js';

/**
 * POST /api/upload stores one image and reads its text (rate-limited per client like chat); with
 * the form field `train=true` the text is also trained into the model. GET /api/upload?id= serves
 * the image back.
 */
export function uploadHandlers(services: () => Services): { POST: MethodHandler; GET: MethodHandler } {
  return {
    POST(request) {
      const current = services();
      const { store, config } = current;
      return underClientLimit(current, request, async (caller) => {
        const { bytes, fields } = await parseImageUpload(request, { maxBytes: MAX_IMAGE_BYTES });
        const train = wantsTraining(fields);
        if (train) requireTrainAccess(current, caller);
        const stored = await storeUploadedImage(store, bytes, {
          ttlSeconds: config.UPLOAD_TTL_SECONDS,
          publicBaseUrl: new URL(request.url).origin,
          recognizer: current.textRecognizer,
        });
        if (!train) return json(stored);
        const training = await trainImageText(current.model, stored.id, stored.text);
        return json({ ...stored, training } satisfies UploadedImage);
      });
    },
    async GET(request) {
      const id = new URL(request.url).searchParams.get('id');
      if (!id) throw new HttpError('bad_request', 'Give the image id: GET /api/upload?id=<id>.');
      const image = await loadStoredImage(services().store, id);
      if (!image) throw new HttpError('not_found', 'No image with that id; it may have expired.');
      return new Response(new Uint8Array(image.bytes), {
        headers: {
          'Content-Type': image.mimeType,
          'Content-Length': String(image.bytes.byteLength),
          'Cache-Control': STORED_IMAGE_CACHE_CONTROL,
          'X-Content-Type-Options': 'nosniff',
        },
      });
    },
  };
}
