import type { ChatImage } from './image-input.js';

/**
 * The local reply with the image described first, and what its text reading found: "I found no
 * text in it.", or the first lines it reads.
 */
export function withImageDescription(image: ChatImage | undefined, reply: string): string {
  if (!image) return reply;
  const { text, textStatus } = image.analysis;
  let reading = '';
  if (textStatus === 'none') reading = 'I found no text in it.';
  else if (textStatus === 'timed_out') reading = 'Reading its text took too long, so I left it.';
  else if (text.length > 0) {
    const first = text.slice(0, 3).join(' / ');
    reading = `It reads: “${first}”${text.length > 3 ? ` and ${text.length - 3} more line${text.length === 4 ? '' : 's'}` : ''}.`;
  }
  return [image.description, reading, reply].filter(Boolean).join(' ');
}
