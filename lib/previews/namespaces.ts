import { branchNamespace } from '../config/index.js';
import { HttpError } from '../http/index.js';
import { namespacePrefix, type Store } from '../store/index.js';

/** What every preview namespace starts with (`preview:<branch>`). */
const PREVIEW = 'preview:';
const PREVIEW_NAMESPACE = /^preview:[a-z0-9][a-z0-9._-]*$/;

/** One preview namespace and what it holds. */
export interface PreviewNamespace {
  namespace: string;
  keys: number;
  /** Approximate: key names and contents, without the backend's own overhead. */
  bytes: number;
}

/**
 * The namespace a user means: a namespace as it is (`preview:my-branch`), or a branch name
 * (`feature/Quokka`), named as the previews of that branch name it. Throws 400 for anything that
 * is not a preview namespace, so no cleanup can reach production's keys.
 */
export function previewNamespaceOf(nameOrBranch: string): string {
  const name = nameOrBranch.trim();
  if (name === '') {
    throw new HttpError('bad_request', 'Name the branch (or its namespace, preview:<branch>) to delete.');
  }
  const namespace = name.startsWith(PREVIEW) ? name : branchNamespace(name);
  if (!PREVIEW_NAMESPACE.test(namespace)) {
    throw new HttpError(
      'bad_request',
      `"${name}" is not a preview namespace: give a branch name or preview:<branch> (lower-case letters, digits, ".", "_" or "-").`,
    );
  }
  return namespace;
}

/** Every preview namespace in the store with its key count and size, largest first. */
export async function listPreviewNamespaces(rootStore: Store): Promise<PreviewNamespace[]> {
  const found = new Map<string, PreviewNamespace>();
  for (const { key, bytes } of await rootStore.keySizes(PREVIEW)) {
    const end = key.indexOf(':', PREVIEW.length);
    if (end < 0) continue;
    const namespace = key.slice(0, end);
    const entry = found.get(namespace) ?? { namespace, keys: 0, bytes: 0 };
    entry.keys++;
    entry.bytes += bytes;
    found.set(namespace, entry);
  }
  return [...found.values()].sort((a, b) => b.bytes - a.bytes || a.namespace.localeCompare(b.namespace));
}

/** Deletes every key of a preview namespace; returns how many. */
export async function deletePreviewNamespace(rootStore: Store, namespace: string): Promise<number> {
  if (!PREVIEW_NAMESPACE.test(namespace)) throw new Error(`not a preview namespace: ${namespace}`);
  return rootStore.deleteByPrefix(namespacePrefix(namespace));
}
