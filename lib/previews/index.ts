export {
  deletePreviewNamespace,
  listPreviewNamespaces,
  type PreviewNamespace,
  previewNamespaceOf,
} from './namespaces.js';
