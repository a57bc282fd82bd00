export { adminDocumentsHandlers } from './documents.js';
export {
  adminExportHandlers,
  adminResetModelHandlers,
  adminSessionHandlers,
  adminStatsHandlers,
  ownerOnly,
} from './handlers.js';
export { adminPreviewsHandlers } from './previews.js';
