export { assertImageId, imageIdOf } from './image-keys.js';
export { loadStoredImage, loadStoredImageText } from './load-image.js';
export { type ParsedUpload, parseFileUpload, parseImageUpload, type UploadOptions } from './parse-upload.js';
export { type UploadedImage, uploadedImageSchema, uploadFieldsSchema } from './schema.js';
export {
  RESPONSE_BASE64_BUDGET,
  STORED_IMAGE_CACHE_CONTROL,
  type StoreImageOptions,
  storeUploadedImage,
} from './store-image.js';
export { imageSourceName, trainImageText, wantsTraining } from './train-image.js';
