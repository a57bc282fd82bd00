export {
  adminExportHandlers,
  adminResetModelHandlers,
  adminSessionHandlers,
  adminStatsHandlers,
} from './handlers.js';
