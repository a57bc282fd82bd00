import type { DialoguePair } from '../types.js';

/** `User:` / `Assistant:` (also Human/AI/Bot, Me/You) or `Q:` / `A:` turn markers. */
const PROMPT = /^(?:user|human|me|customer|q|question)\s*:\s*/i;
const REPLY = /^(?:assistant|ai|bot|you|agent|a|answer)\s*:\s*/i;

/**
 * Reads a dialogue: alternating prompt and reply turns, each starting with its marker
 * (`User:`/`Assistant:` or `Q:`/`A:`); a turn's text runs on over the lines after its marker
 * until the next marker or a blank line. A prompt without a reply is left out.
 */
export function readDialogue(text: string): DialoguePair[] {
  const pairs: DialoguePair[] = [];
  let prompt: string[] | undefined;
  let reply: string[] | undefined;
  const flush = () => {
    if (prompt && reply) {
      const pair = { prompt: join(prompt), reply: join(reply) };
      if (pair.prompt !== '' && pair.reply !== '') pairs.push(pair);
    }
    prompt = undefined;
    reply = undefined;
  };
  let current: string[] | undefined;
  for (const raw of text.split(/\r?\n/)) {
    const line = raw.trim();
    if (line === '') {
      current = undefined;
      continue;
    }
    if (PROMPT.test(line)) {
      flush();
      prompt = [line.replace(PROMPT, '')];
      current = prompt;
    } else if (REPLY.test(line) && prompt) {
      if (reply) {
        reply.push(line.replace(REPLY, ''));
      } else reply = [line.replace(REPLY, '')];
      current = reply;
    } else if (current) current.push(line);
  }
  flush();
  return pairs;
}

function join(lines: string[]): string {
  return lines.join(' ').replace(/\s+/g, ' ').trim();
}
