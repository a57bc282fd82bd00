import type { Config } from './schema.js';

/** Longest branch part of a preview namespace; longer names are cut and keep a hash of the whole. */
const BRANCH_CHARS = 60;

/**
 * The namespace of a branch's previews: `preview:` and the branch in lower case, every run of
 * characters other than letters, digits, "." and "_" turned into one "-" (`feature/Quokka` ->
 * `preview:feature-quokka`). The CLI and the admin endpoint name branches the same way.
 */
export function branchNamespace(branch: string): string {
  let name = branch
    .trim()
    .toLowerCase()
    .replace(/[^a-z0-9._]+/g, '-')
    .replace(/^[-._]+|-+$/g, '');
  if (name.length > BRANCH_CHARS) name = `${name.slice(0, BRANCH_CHARS - 9)}-${fnv1a(branch)}`;
  return `preview:${name || 'unnamed'}`;
}

/** Whether this is a Vercel preview deployment. */
export function isPreview(config: Config): boolean {
  return config.VERCEL_ENV === 'preview';
}

/**
 * The namespace every key of this deployment goes under: STORE_NAMESPACE when set; on a Vercel
 * preview `preview:<branch>` from VERCEL_GIT_COMMIT_REF; else none ("").
 */
export function storeNamespace(config: Config): string {
  if (config.STORE_NAMESPACE !== undefined) return config.STORE_NAMESPACE;
  if (isPreview(config)) return branchNamespace(config.VERCEL_GIT_COMMIT_REF ?? '');
  return '';
}

/**
 * Where a namespaced deployment's corpus starts: `production` (read production's chunks and
 * snapshot, read-only, under its own) or `own` (empty). Without a namespace the corpus is simply
 * the store's own, reported as `own`.
 */
export function previewCorpus(config: Config): 'production' | 'own' {
  if (!storeNamespace(config)) return 'own';
  return config.PREVIEW_CORPUS ?? (isPreview(config) ? 'production' : 'own');
}

/** A short stable hash (8 hex digits), so two long branch names that share a start stay apart. */
function fnv1a(text: string): string {
  let hash = 0x811c9dc5;
  for (let index = 0; index < text.length; index++) {
    hash ^= text.charCodeAt(index);
    hash = Math.imul(hash, 0x01000193) >>> 0;
  }
  return hash.toString(16).padStart(8, '0');
}
