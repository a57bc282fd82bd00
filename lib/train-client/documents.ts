import { networkMessage, type OwnerCredentials, ownerHeaders } from './owner.js';
import { errorOf, TrainPartError } from './send.js';

/** One trained document as GET /api/admin/documents lists it. */
export interface ListedDocument {
  id: string;
  name: string;
  format: string;
  bytes: number;
  sha256: string;
  passages: number;
  url?: string;
  trainedAt: string;
}

interface AdminOptions {
  /** The service's base URL, e.g. `http://localhost:3000`. */
  base: string;
  owner: OwnerCredentials;
  fetch?: typeof globalThis.fetch;
}

const PAGE_SIZE = 500;

/** Every document the service holds, following `nextCursor` page by page. */
export async function listDocuments(options: AdminOptions): Promise<ListedDocument[]> {
  const fetch = options.fetch ?? globalThis.fetch;
  const documents: ListedDocument[] = [];
  let cursor: string | undefined;
  do {
    const url = new URL('api/admin/documents', options.base);
    url.searchParams.set('limit', String(PAGE_SIZE));
    if (cursor !== undefined) url.searchParams.set('cursor', cursor);
    const response = await adminRequest(fetch, url, 'GET', options.owner);
    const body = (await response.json().catch(() => null)) as {
      documents?: ListedDocument[];
      nextCursor?: string;
    } | null;
    if (!Array.isArray(body?.documents)) {
      throw new TrainPartError(`${url.pathname} answered without a documents list`);
    }
    documents.push(...body.documents);
    cursor = typeof body.nextCursor === 'string' && body.nextCursor !== '' ? body.nextCursor : undefined;
  } while (cursor !== undefined);
  return documents;
}

/** Deletes one document; a document already gone (404) counts as deleted. */
export async function deleteDocument(id: string, options: AdminOptions): Promise<'deleted' | 'gone'> {
  const url = new URL('api/admin/documents', options.base);
  url.searchParams.set('id', id);
  const response = await adminRequest(options.fetch ?? globalThis.fetch, url, 'DELETE', options.owner, [404]);
  return response.status === 404 ? 'gone' : 'deleted';
}

async function adminRequest(
  fetch: typeof globalThis.fetch,
  url: URL,
  method: string,
  owner: OwnerCredentials,
  accepted: number[] = [],
): Promise<Response> {
  let response: Response;
  try {
    response = await fetch(url, { method, headers: ownerHeaders(owner) });
  } catch (error) {
    throw new TrainPartError(`${method} ${url.href}: no answer (${networkMessage(error)})`);
  }
  if (response.ok || accepted.includes(response.status)) return response;
  const { message, code } = await errorOf(response);
  throw new TrainPartError(
    `${method} ${url.pathname}: HTTP ${response.status}: ${message}`,
    response.status,
    code,
  );
}
