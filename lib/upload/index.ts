export { assertImageId, imageIdOf } from './image-keys';
export { loadStoredImage } from './load-image';
export { type ParsedUpload, parseImageUpload } from './parse-upload';
export { type UploadedImage, uploadedImageSchema } from './schema';
export {
  RESPONSE_BASE64_BUDGET,
  STORED_IMAGE_CACHE_CONTROL,
  type StoreImageOptions,
  storeUploadedImage,
} from './store-image';
