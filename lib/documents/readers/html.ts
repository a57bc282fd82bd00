import type { Section } from '../types.js';

export function readHtml(_text: string): { title?: string; sections: Section[] } {
  return { sections: [] };
}
