/** The bounds every document read runs under (settings; see docs/configuration.md). */
export interface ReadLimits {
  /** Pages a PDF may have (its page tree is walked and counted before any text is extracted). */
  maxPdfPages: number;
  /** Bytes all compressed streams of one document may inflate to, together and each. */
  maxInflatedBytes: number;
  /** Depth of nested elements (HTML) or containers (Markdown block quotes and lists). */
  maxNesting: number;
  /** Longest one document may take to be read, then the reader is stopped. */
  timeoutMs: number;
  /** Bytes of text a read may produce (the train text limit). */
  maxTextBytes: number;
}

/** The settings' defaults, for callers without a configuration (tests, scripts). */
export const DEFAULT_READ_LIMITS: ReadLimits = {
  maxPdfPages: 2000,
  maxInflatedBytes: 64 * 1024 * 1024,
  maxNesting: 256,
  timeoutMs: 10_000,
  maxTextBytes: 1024 * 1024,
};

/** The read limits of a configuration. */
export function readLimitsOf(
  config: {
    MAX_PDF_PAGES: number;
    MAX_INFLATED_BYTES: number;
    MAX_NESTING: number;
    DOCUMENT_READ_TIMEOUT_MS: number;
  },
  maxTextBytes = DEFAULT_READ_LIMITS.maxTextBytes,
): ReadLimits {
  return {
    maxPdfPages: config.MAX_PDF_PAGES,
    maxInflatedBytes: config.MAX_INFLATED_BYTES,
    maxNesting: config.MAX_NESTING,
    timeoutMs: config.DOCUMENT_READ_TIMEOUT_MS,
    maxTextBytes,
  };
}
