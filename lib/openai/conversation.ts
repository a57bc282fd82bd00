import { type ChatImageSource, MAX_MESSAGE_CHARS } from '../chat/index.js';
import { HttpError } from '../http/index.js';
import type { Turn } from '../sessions/index.js';
import type { CompletionMessage } from './schema.js';

/** What a Chat Completions request asks of the chat: the latest user message and what came before. */
export interface Conversation {
  message: string;
  /** Earlier user and assistant turns, oldest first (system messages are not turns). */
  history: Turn[];
  /** The image attached to the latest user message: a `data:` URL, or an uploaded image of this service. */
  image?: ChatImageSource;
}

/**
 * Reads the conversation from `messages`. The last message must come from the user and carry
 * text; an image may come with it as an `image_url` part holding a `data:` URL or the URL
 * POST /api/upload returned (`…/api/upload?id=<id>`, absolute or not), which is looked up in the
 * store, never fetched.
 */
export function readConversation(messages: CompletionMessage[]): Conversation {
  const lastIndex = messages.length - 1;
  const last = messages[lastIndex]!;
  if (last.role !== 'user') {
    throw invalid(`messages.${lastIndex}.role`, 'the last message must have role "user"');
  }
  const message = textOf(last.content).trim();
  if (message === '') throw invalid(`messages.${lastIndex}.content`, 'the last user message has no text');
  if (message.length > MAX_MESSAGE_CHARS) {
    throw invalid(`messages.${lastIndex}.content`, `must be at most ${MAX_MESSAGE_CHARS} characters`);
  }
  const images =
    typeof last.content === 'string' ? [] : last.content.filter((part) => part.type === 'image_url');
  if (images.length > 1) throw invalid(`messages.${lastIndex}.content`, 'at most one image per message');
  const imageUrl = images[0]?.image_url.url;
  const image = imageUrl === undefined ? undefined : imageSourceOfUrl(imageUrl);
  if (imageUrl !== undefined && !image) {
    throw invalid(
      `messages.${lastIndex}.content`,
      'an image must be a data: URL (data:image/png;base64,...) or the URL POST /api/upload returned (/api/upload?id=...); this service does not fetch other URLs',
    );
  }
  const history: Turn[] = [];
  for (const earlier of messages.slice(0, lastIndex)) {
    if (earlier.role !== 'user' && earlier.role !== 'assistant') continue;
    const content = earlier.content == null ? '' : textOf(earlier.content).trim();
    if (content !== '') history.push({ role: earlier.role, content });
  }
  return { message, history, ...(image ? { image } : {}) };
}

/** The image an image_url names: inline data, or an upload of this service by its id; undefined otherwise. */
function imageSourceOfUrl(url: string): ChatImageSource | undefined {
  if (url.startsWith('data:')) return { base64: url };
  let parsed: URL;
  try {
    parsed = new URL(url, 'http://service.invalid');
  } catch {
    return undefined;
  }
  const id = parsed.searchParams.get('id');
  if (!parsed.pathname.endsWith('/api/upload') || !id || !/^[0-9a-f]{64}$/.test(id)) return undefined;
  return { id };
}

function textOf(content: string | { type: string; text?: string }[]): string {
  if (typeof content === 'string') return content;
  return content
    .flatMap((part) => (part.type === 'text' && part.text !== undefined ? [part.text] : []))
    .join('\n');
}

function invalid(field: string, message: string): HttpError {
  return new HttpError('validation_failed', `${field}: ${message}`, { field, fields: [field] });
}
