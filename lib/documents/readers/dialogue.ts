import type { DialoguePair } from '../types.js';

export function readDialogue(_text: string): DialoguePair[] {
  return [];
}
