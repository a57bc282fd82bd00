import { PassageIndex, queryTermsOf, termsOf } from '../../retrieval/index.js';
import type { Turn } from '../../sessions/index.js';
import type { Source } from '../types.js';

/** The text of an image a conversation is about: its id and the lines read in it. */
export interface ImageText {
  id: string;
  lines: string[];
}

/** A reply made from an image's text. */
export interface ImageTextReply {
  text: string;
  sources: Source[];
  thought: string;
}

/** Lines quoted when asked what an image says; the rest is summarised by its count. */
const MAX_QUOTED_LINES = 30;
/** Share of the question's words a line (or its neighbour) must hold to answer it. */
const COVERAGE = 0.5;
/** Lines cited at most for a question. */
const MAX_CITED = 2;
/** Earlier turns searched for the last image the user sent. */
const IMAGE_MEMORY_TURNS = 12;

/** "What does it say?", "read the text", "what is written", "transcribe this". */
const READ_REQUEST =
  /\b(what|which)\b[^?]*\b(say|says|said|written|text|words?|reads?|wording)\b|\b(read|transcribe|quote|ocr)\b|\btext (in|of|on)\b/i;

/** Words that point at the image itself rather than at what is in it. */
const IMAGE_WORDS = new Set(
  termsOf(
    'image picture photo photograph screenshot screen shot pic this that it say says written text show shows see',
  ),
);

/** Words by which a later message points back at an earlier image. */
const POINTS_AT_IMAGE = /\b(image|picture|photo|screenshot|receipt|sign|it|this|that)\b/i;

/**
 * Answers a message from an image's text: a request to read it quotes the lines (cited as the
 * image); a question whose words a line holds ("what is the total?" on a receipt) is answered
 * with that line. An image of an earlier message (`remembered`) is quoted only when the message
 * points at it ("what did it say?"), so "what did Moses read?" still goes to the trained text.
 * Undefined when the text does not answer the message.
 */
export function answerFromImageText(
  image: ImageText & { remembered?: boolean },
  message: string,
): ImageTextReply | undefined {
  if (image.lines.length === 0) return undefined;
  const pointsAtImage = !image.remembered || POINTS_AT_IMAGE.test(message);
  if (pointsAtImage && READ_REQUEST.test(message)) return quoteImage(image);
  const query = queryTermsOf(message).filter((term) => !IMAGE_WORDS.has(term.term));
  if (query.length === 0) return undefined;
  const index = lineIndexOf(image.lines);
  const cited = index
    .search(query, 10)
    .filter((hit) => coverageOf(hit, query.length) >= COVERAGE)
    .slice(0, MAX_CITED)
    .sort((a, b) => a.id - b.id);
  if (cited.length === 0) return undefined;
  const quoted = cited.map((hit, i) => `“${image.lines[hit.id]}” [${i + 1}]`).join(' and ');
  return {
    text: `The image says ${quoted}.`,
    sources: cited.map((hit) => ({
      text: image.lines[hit.id]!,
      score: Math.round(hit.score * 1000) / 1000,
      ref: { image: image.id, line: hit.id + 1 },
    })),
    thought: `answered from the image's text: ${query.map((term) => term.word).join(', ')} · used line ${cited.map((hit) => hit.id + 1).join(', ')}`,
  };
}

/** The image's text as the reply to "what does it say?". */
function quoteImage(image: ImageText): ImageTextReply {
  const shown = image.lines.slice(0, MAX_QUOTED_LINES);
  const more = image.lines.length - shown.length;
  const quote = shown.map((line) => `> ${line}`).join('\n');
  return {
    text: `The image reads [1]:\n\n${quote}${more > 0 ? `\n\n(and ${more} more line${more === 1 ? '' : 's'})` : ''}`,
    sources: [{ text: shown.join('\n'), score: 1, ref: { image: image.id, line: 1 } }],
    thought: `quoted the image's text: ${image.lines.length} line${image.lines.length === 1 ? '' : 's'}`,
  };
}

/** A search index of the image's lines, one passage a line (line n is passage n - 1). */
function lineIndexOf(lines: readonly string[]): PassageIndex {
  const index = new PassageIndex();
  const section = index.addSection({ path: [], markdown: false });
  lines.forEach((text, i) => {
    index.addPassage({ chunk: 0, line: i + 1, text, kind: 'line' }, termsOf(text), section);
  });
  return index;
}

function coverageOf(hit: { matched: number[]; matchedNearby: number[] }, terms: number): number {
  return (hit.matched.length + 0.5 * hit.matchedNearby.length) / terms;
}

/** The image of this message, or else the last one the user sent in the recent turns of the session. */
export function imageTextOf(
  current: ImageText | undefined,
  history: readonly Turn[],
): (ImageText & { remembered?: boolean }) | undefined {
  if (current) return current;
  for (const turn of history.slice(-IMAGE_MEMORY_TURNS).reverse()) {
    const image = turn.role === 'user' ? turn.image : undefined;
    if (image && typeof image.id === 'string' && Array.isArray(image.lines))
      return { ...image, remembered: true };
  }
  return undefined;
}

/** Most lines of an image kept in the session for follow-ups. */
export const MAX_REMEMBERED_LINES = 200;
