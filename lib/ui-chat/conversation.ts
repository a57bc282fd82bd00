import { MAX_MESSAGE_CHARS } from '../chat/index.js';
import { HttpError } from '../http/index.js';
import { MAX_STORED_TURNS, type Turn } from '../sessions/index.js';
import type { UIMessageInput } from './schema.js';

/** Longest earlier turn kept, in characters (as Variant B's history items). */
const MAX_TURN_CHARS = 8000;

/** What a useChat request asks: the latest user message, an image with it, and the turns before it. */
export interface UIConversation {
  message: string;
  /** Earlier user and assistant turns, oldest first, at most as many as a session keeps. */
  history: Turn[];
  /** A `data:` URL image attached to the latest user message (a file part). */
  imageDataUrl?: string;
}

/**
 * Reads `messages` as a conversation. The last message must be the user's and carry text; its
 * one image may come as a file part with a `data:` URL. Earlier turns keep their text parts only.
 */
export function readUIConversation(messages: UIMessageInput[]): UIConversation {
  const lastIndex = messages.length - 1;
  const last = messages[lastIndex]!;
  if (last.role !== 'user') {
    throw invalid(`messages.${lastIndex}.role`, 'the last message must be the user\'s (role "user")');
  }
  const message = textOf(last).trim();
  if (message === '') throw invalid(`messages.${lastIndex}.parts`, 'the last user message has no text part');
  if (message.length > MAX_MESSAGE_CHARS) {
    throw invalid(`messages.${lastIndex}.parts`, `its text must be at most ${MAX_MESSAGE_CHARS} characters`);
  }
  const images = last.parts.filter((part) => part.type === 'file' && part.mediaType?.startsWith('image/'));
  if (images.length > 1) throw invalid(`messages.${lastIndex}.parts`, 'at most one image per message');
  const imageUrl = images[0]?.url;
  if (images.length === 1 && !imageUrl?.startsWith('data:')) {
    throw invalid(
      `messages.${lastIndex}.parts`,
      'an image must be sent inline as a data: URL (data:image/png;base64,...); this service does not fetch URLs',
    );
  }
  const history: Turn[] = [];
  for (const earlier of messages.slice(0, lastIndex)) {
    if (earlier.role === 'system') continue;
    const content = textOf(earlier).trim().slice(0, MAX_TURN_CHARS);
    if (content !== '') history.push({ role: earlier.role, content });
  }
  return {
    message,
    history: history.slice(-MAX_STORED_TURNS),
    ...(imageUrl !== undefined ? { imageDataUrl: imageUrl } : {}),
  };
}

function textOf(message: UIMessageInput): string {
  return message.parts
    .flatMap((part) => (part.type === 'text' && part.text !== undefined ? [part.text] : []))
    .join('\n');
}

function invalid(field: string, message: string): HttpError {
  return new HttpError('validation_failed', `${field}: ${message}`, { field, fields: [field] });
}
