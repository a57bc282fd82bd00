/** Training from a file: the text split under the size cap, and the parts sent one after another. */

/** Bytes of text per POST /api/train: under the 1 MB cap with room for the JSON escapes. */
export const PART_BYTES = 900_000;

const encoder = new TextEncoder();
const byteLength = (text) => encoder.encode(text).length;

/** Cuts one line longer than `maxBytes` into pieces, at the last space before the cap when there is one. */
function cutLine(line, maxBytes) {
  const pieces = [];
  const scratch = new Uint8Array(maxBytes);
  let rest = line;
  while (byteLength(rest) > maxBytes) {
    // `read` counts the UTF-16 units that fit whole, so a character is never cut in two.
    let { read } = encoder.encodeInto(rest, scratch);
    const space = rest.lastIndexOf(' ', read);
    if (space > read / 2) read = space + 1;
    pieces.push(rest.slice(0, read));
    rest = rest.slice(read);
  }
  if (rest) pieces.push(rest);
  return pieces;
}

/**
 * `text` as parts of at most `maxBytes` UTF-8 bytes, cut at paragraph boundaries (blank lines)
 * when it can, else at line ends, else inside an over-long line at a space. Parts keep their
 * order; blank parts are left out; line ends become \n.
 * @param {string} text
 * @param {number} [maxBytes]
 * @returns {string[]}
 */
export function splitForTraining(text, maxBytes = PART_BYTES) {
  const parts = [];
  let current = '';
  let currentBytes = 0;
  const flush = () => {
    if (current.trim()) parts.push(current);
    current = '';
    currentBytes = 0;
  };
  /** Adds `piece` after `separator`, starting a new part when the two would not fit. */
  const add = (piece, separator) => {
    const bytes = byteLength(piece);
    if (current && currentBytes + separator.length + bytes > maxBytes) flush();
    if (current) {
      current += separator;
      currentBytes += separator.length;
    }
    current += piece;
    currentBytes += bytes;
  };
  for (const paragraph of text.replace(/\r\n?/g, '\n').split(/\n[ \t]*\n\s*/)) {
    if (!paragraph.trim()) continue;
    if (byteLength(paragraph) <= maxBytes) {
      add(paragraph, '\n\n');
      continue;
    }
    flush();
    for (const line of paragraph.split('\n')) {
      for (const piece of byteLength(line) > maxBytes ? cutLine(line, maxBytes) : [line]) add(piece, '\n');
    }
    flush();
  }
  flush();
  return parts;
}

/**
 * How a file is written, from its name: 'markdown', 'html', 'pdf', else 'text'.
 * @param {string} name
 * @returns {'text' | 'markdown' | 'html' | 'pdf'}
 */
export function formatOfFileName(name) {
  const extension = /\.([a-z0-9]+)$/i.exec(name ?? '')?.[1]?.toLowerCase() ?? '';
  if (extension === 'md' || extension === 'markdown') return 'markdown';
  if (extension === 'html' || extension === 'htm' || extension === 'xhtml') return 'html';
  if (extension === 'pdf') return 'pdf';
  return 'text';
}

/**
 * Markdown as parts of at most `maxBytes`, cut before headings (never inside a fenced code block)
 * so each part reads as Markdown of its own; a section larger than a part is cut as text is.
 * @param {string} text
 * @param {number} [maxBytes]
 * @returns {string[]}
 */
export function splitMarkdownForTraining(text, maxBytes = PART_BYTES) {
  const sections = [];
  let section = [];
  let fence = null;
  for (const line of text.replace(/\r\n?/g, '\n').split('\n')) {
    const opened = /^ {0,3}(`{3,}|~{3,})/.exec(line)?.[1];
    if (fence === null && /^ {0,3}#{1,6}(\s|$)/.test(line) && section.length > 0) {
      sections.push(section.join('\n'));
      section = [];
    }
    if (opened && fence === null) fence = opened[0];
    else if (opened && fence !== null && opened[0] === fence) fence = null;
    section.push(line);
  }
  if (section.length > 0) sections.push(section.join('\n'));
  const parts = [];
  let part = '';
  const flush = () => {
    if (part.trim()) parts.push(part);
    part = '';
  };
  for (const piece of sections) {
    if (!piece.trim()) continue;
    if (byteLength(piece) > maxBytes) {
      flush();
      parts.push(...splitForTraining(piece, maxBytes));
      continue;
    }
    if (part && byteLength(part) + 1 + byteLength(piece) > maxBytes) flush();
    part = part ? `${part}\n${piece}` : piece;
  }
  flush();
  return parts;
}

/**
 * @typedef {{ phase: 'sending' | 'waiting' | 'done', part: number, parts: number,
 *   bytesDone: number, bytesTotal: number, tokens: number, vocabSize: number | null,
 *   seconds?: number }} TrainingProgress
 */

/** @type {(seconds: number, signal?: AbortSignal) => Promise<void>} */
const sleep = (seconds, signal) =>
  new Promise((resolve, reject) => {
    const timer = setTimeout(() => resolve(), seconds * 1000);
    signal?.addEventListener(
      'abort',
      () => {
        clearTimeout(timer);
        reject(signal.reason);
      },
      { once: true },
    );
  });

/**
 * Sends `parts` in order through `send(text, signal)` (which resolves to `{ tokens, vocabSize }`
 * or rejects with an error carrying `status` and `retryAfter` seconds). A 429 waits as long as
 * it asks (at least 1 s, at most `maxWaitSeconds`) and tries the same part again, up to
 * `maxRetries` times in a row; any other failure stops the run. `onProgress` hears
 * `{ phase: 'sending' | 'waiting' | 'done', part, parts, bytesDone, bytesTotal, tokens, vocabSize, seconds? }`
 * (`tokens` so far, `vocabSize` after the last part learnt, null before the first).
 * Resolves to `{ parts, tokens, vocabSize, retries }`.
 * A part is a text, or a whole file (a PDF, sent as it is).
 * @param {(string | Blob)[]} parts
 * @param {{
 *   send: (part: string | Blob, signal?: AbortSignal) => Promise<{ tokens: number, vocabSize: number }>,
 *   onProgress?: (progress: TrainingProgress) => void,
 *   signal?: AbortSignal,
 *   wait?: (seconds: number, signal?: AbortSignal) => Promise<void>,
 *   maxRetries?: number,
 *   maxWaitSeconds?: number,
 * }} options
 */
export async function trainInParts(
  parts,
  { send, onProgress = () => {}, signal, wait = sleep, maxRetries = 8, maxWaitSeconds = 120 },
) {
  const sizes = parts.map((part) => (typeof part === 'string' ? byteLength(part) : part.size));
  const bytesTotal = sizes.reduce((sum, size) => sum + size, 0);
  let bytesDone = 0;
  let tokens = 0;
  let vocabSize = null;
  let retries = 0;
  for (let index = 0; index < parts.length; index++) {
    const progress = () => ({
      part: index + 1,
      parts: parts.length,
      bytesTotal,
      bytesDone,
      tokens,
      vocabSize,
    });
    for (let attempt = 0; ; attempt++) {
      signal?.throwIfAborted();
      onProgress({ phase: 'sending', ...progress() });
      try {
        const result = await send(parts[index], signal);
        tokens += result.tokens;
        vocabSize = result.vocabSize;
        break;
      } catch (error) {
        if (error?.status !== 429 || error?.body?.code === 'session_limit' || attempt >= maxRetries)
          throw error;
        const seconds = Math.min(Math.max(error.retryAfter ?? 1, 1), maxWaitSeconds);
        retries++;
        onProgress({ phase: 'waiting', ...progress(), seconds });
        await wait(seconds, signal);
      }
    }
    bytesDone += sizes[index];
  }
  onProgress({
    phase: 'done',
    part: parts.length,
    parts: parts.length,
    bytesDone,
    bytesTotal,
    tokens,
    vocabSize,
  });
  return { parts: parts.length, tokens, vocabSize, retries };
}
