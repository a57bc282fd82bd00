export { adminDocumentsHandlers } from './documents.js';
export {
  adminExportHandlers,
  adminResetModelHandlers,
  adminSessionHandlers,
  adminStatsHandlers,
  ownerOnly,
} from './handlers.js';
export { adminPreviewsHandlers } from './previews.js';
export {
  type AdminStats,
  adminStatsSchema,
  type DeleteDocumentResult,
  type DeletePreviewResult,
  type DeleteSessionResult,
  deleteDocumentResultSchema,
  deletePreviewResultSchema,
  deleteSessionResultSchema,
  type PreviewList,
  previewListSchema,
  type ResetModelResult,
  resetModelResultSchema,
} from './schema.js';
