import { relevantSentences } from './sentences.js';
import type { GroundingPrompt, WikiLookup, WikiSource } from './types.js';

/** The article a lookup points at, or null when it found none. */
export function sourceOf(lookup: WikiLookup): WikiSource | null {
  if (lookup.kind === 'found' || lookup.kind === 'disambiguation') {
    return { title: lookup.title, url: lookup.url };
  }
  return null;
}

/** The line that closes a grounded answer: `Source: <title> — <url>`. */
export function sourceLine(source: WikiSource): string {
  return `Source: ${source.title} — ${source.url}`;
}

/**
 * The answer the local model gives on its own: the extract's sentences most relevant to the
 * question and the source, or an honest sentence saying why there is nothing to quote.
 */
export function groundedAnswer(lookup: WikiLookup, question: string): string {
  switch (lookup.kind) {
    case 'found': {
      const sentences = relevantSentences(lookup.extract, question);
      const body =
        sentences.length > 0
          ? sentences.join(' ')
          : `Wikipedia has an article “${lookup.title}”, but it has no summary I can quote.`;
      return `${body}\n\n${sourceLine(lookup)}`;
    }
    case 'disambiguation':
      return (
        `“${lookup.title}” may refer to several things on Wikipedia; please be more specific.\n\n` +
        `See: ${lookup.title} — ${lookup.url}`
      );
    case 'no_results':
      return `I found nothing on Wikipedia for “${lookup.query}”, so I have no grounded answer to give.`;
    case 'unavailable':
      return `I couldn't reach Wikipedia (${lookup.reason}), so I won't guess. Please try again in a moment.`;
  }
}

/**
 * Instructions and context for an external model: answer from the extract alone, say so when it
 * does not hold the answer, cite the title and URL. Null when there is no extract to ground in;
 * answer with `groundedAnswer` then.
 */
export function groundingPrompt(lookup: WikiLookup, question: string): GroundingPrompt | null {
  if (lookup.kind !== 'found' || lookup.extract === '') return null;
  const system = [
    'You answer questions using only the Wikipedia extract below.',
    'Do not use any other knowledge. If the extract does not contain the answer, say that the',
    'Wikipedia summary does not say, instead of guessing.',
    `End your answer with the line "${sourceLine(lookup)}".`,
    '',
    `Article: ${lookup.title}${lookup.description ? ` (${lookup.description})` : ''}`,
    `URL: ${lookup.url}`,
    '<extract>',
    lookup.extract,
    '</extract>',
  ].join('\n');
  return { system, prompt: question };
}
