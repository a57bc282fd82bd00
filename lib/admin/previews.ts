import { previewCorpus, storeNamespace } from '../config/index.js';
import { HttpError, json } from '../http/index.js';
import { deletePreviewNamespace, listPreviewNamespaces, previewNamespaceOf } from '../previews/index.js';
import type { Services } from '../services/index.js';
import { type Handlers, ownerOnly } from './handlers.js';
import type { DeletePreviewResult, PreviewList } from './schema.js';

/**
 * GET /api/admin/previews: this deployment's namespace and every preview namespace with its size.
 * DELETE /api/admin/previews?branch=<branch> (or ?namespace=preview:<branch>): deletes one.
 */
export function adminPreviewsHandlers(services: () => Services): Handlers {
  return {
    GET: ownerOnly(services, async () => {
      const { config, rootStore } = services();
      return json({
        namespace: storeNamespace(config),
        corpus: previewCorpus(config),
        previews: await listPreviewNamespaces(rootStore),
      } satisfies PreviewList);
    }),
    DELETE: ownerOnly(services, async (request) => {
      const params = new URL(request.url).searchParams;
      const branch = params.get('branch');
      const named = params.get('namespace');
      if ((branch === null) === (named === null)) {
        throw new HttpError(
          'bad_request',
          'Name the preview to delete: DELETE /api/admin/previews?branch=<branch> or ?namespace=preview:<branch>, one of the two.',
        );
      }
      const namespace = previewNamespaceOf(branch ?? named!);
      if (named !== null && !named.trim().startsWith('preview:')) {
        throw new HttpError(
          'bad_request',
          `namespace: "${named}" is not a preview namespace (preview:<branch>).`,
        );
      }
      const deletedKeys = await deletePreviewNamespace(services().rootStore, namespace);
      if (deletedKeys === 0) throw new HttpError('not_found', `There is no data under ${namespace}.`);
      return json({ ok: true, namespace, deletedKeys } satisfies DeletePreviewResult);
    }),
  };
}
