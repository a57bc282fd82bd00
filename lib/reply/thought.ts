import type { Reply } from './types.js';

/** A one-line account of how a reply was reached, e.g. "keywords: moses, egypt · 180 candidates (42 kept) in 38 ms · seed moses · surprise 21.3 bits". */
export function formatThought(reply: Reply): string {
  const parts: string[] = [];
  if (reply.fallback === 'empty-model') return 'nothing learned yet';
  parts.push(reply.keywords.length > 0 ? `keywords: ${reply.keywords.join(', ')}` : 'no keywords');
  parts.push(`${reply.candidates} candidates (${reply.accepted} kept) in ${Math.round(reply.elapsedMs)} ms`);
  if (reply.seed) parts.push(`seed ${reply.seed}`);
  if (reply.score > 0) parts.push(`surprise ${reply.score.toFixed(1)} bits`);
  if (reply.fallback === 'all-rejected')
    parts.push(`every candidate copied the training text (${reply.copiedRun} tokens)`);
  if (reply.unknownWords.length > 0) parts.push(`unknown: ${reply.unknownWords.join(', ')}`);
  return parts.join(' · ');
}
