import { MAX_MESSAGE_CHARS } from '../chat/index.js';
import { HttpError } from '../http/index.js';
import type { Turn } from '../sessions/index.js';
import type { CompletionMessage } from './schema.js';

/** What a Chat Completions request asks of the chat: the latest user message and what came before. */
export interface Conversation {
  message: string;
  /** Earlier user and assistant turns, oldest first (system messages are not turns). */
  history: Turn[];
  /** A `data:` URL image attached to the latest user message. */
  imageDataUrl?: string;
}

/**
 * Reads the conversation from `messages`. The last message must come from the user and carry
 * text; an image may come with it as an `image_url` part holding a `data:` URL.
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
  if (imageUrl !== undefined && !imageUrl.startsWith('data:')) {
    throw invalid(
      `messages.${lastIndex}.content`,
      'an image must be sent inline as a data: URL (data:image/png;base64,...); this service does not fetch URLs',
    );
  }
  const history: Turn[] = [];
  for (const earlier of messages.slice(0, lastIndex)) {
    if (earlier.role !== 'user' && earlier.role !== 'assistant') continue;
    const content = earlier.content == null ? '' : textOf(earlier.content).trim();
    if (content !== '') history.push({ role: earlier.role, content });
  }
  return { message, history, ...(imageUrl !== undefined ? { imageDataUrl: imageUrl } : {}) };
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
