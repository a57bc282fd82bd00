import * as v from 'valibot';
import { HttpError, json } from '../http/index.js';
import type { Services } from '../services/index.js';
import { decodeCursor, deleteDocument, listDocuments, MAX_DOCUMENTS_PAGE } from '../training/index.js';
import { documentIdSchema } from '../training/schema.js';
import { type Handlers, ownerOnly } from './handlers.js';
import type { DeleteDocumentResult } from './schema.js';

const DEFAULT_PAGE = 100;

/**
 * GET /api/admin/documents?limit=N&cursor=C: the document table by id, a page at a time
 * (`nextCursor` when there is more). DELETE /api/admin/documents?id=ID: forgets the document
 * exactly, on this instance before the answer and on every other at its next request; 404
 * `document_not_found` for an unknown id.
 */
export function adminDocumentsHandlers(services: () => Services): Handlers {
  return {
    GET: ownerOnly(services, async (request) => {
      const params = new URL(request.url).searchParams;
      const limit = pageSizeOf(params.get('limit'));
      const cursorParam = params.get('cursor');
      const cursor = cursorParam === null ? undefined : decodeCursor(cursorParam);
      return json(await listDocuments(services().model, limit, cursor));
    }),
    DELETE: ownerOnly(services, async (request) => {
      const id = new URL(request.url).searchParams.get('id');
      if (id === null || !v.is(documentIdSchema, id)) {
        throw new HttpError(
          'validation_failed',
          'id: name the document to delete (?id=ID, 1-200 printable characters)',
          { field: 'id' },
        );
      }
      const { model, store } = services();
      await deleteDocument(model, store, id);
      return json({ deleted: id } satisfies DeleteDocumentResult);
    }),
  };
}

function pageSizeOf(raw: string | null): number {
  if (raw === null) return DEFAULT_PAGE;
  const limit = Number(raw);
  if (!/^\d+$/.test(raw) || limit < 1 || limit > MAX_DOCUMENTS_PAGE) {
    throw new HttpError(
      'validation_failed',
      `limit: must be a whole number from 1 to ${MAX_DOCUMENTS_PAGE}`,
      {
        field: 'limit',
      },
    );
  }
  return limit;
}
