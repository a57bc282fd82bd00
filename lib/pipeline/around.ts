import type { LanguageModel } from '../lm/index.js';
import { type PassageIndex, queryTermsOf } from '../retrieval/index.js';
import { splitSentences } from '../text/index.js';
import { fence, passageSnippet, sourceOf } from './extract/snippet.js';
import type { Source } from './types.js';

/** A reply built around the previous answer's passage. */
export interface AroundAnswer {
  text: string;
  sources: Source[];
  thought: string;
}

/** Sections under a section (its subsections, in order) searched for an example when it has none. */
const EXAMPLE_SUBSECTIONS = 3;

/**
 * The code block nearest a unit in its section (after it first, then before it); where the section
 * has none, the first in the subsections right under it: documentation often gives what a section
 * explains its example under a heading of its own ("Enable Logging", then "Basic Logging Setup"
 * with the code). Undefined when there is none.
 */
export function exampleNear(index: PassageIndex, from: number): number | undefined {
  const section = index.sectionIdOf(from);
  const start = index.sectionStarts[section];
  const end = start + index.sectionSizes[section];
  const order = [
    ...Array.from({ length: end - from }, (_, i) => from + i),
    ...Array.from({ length: from - start }, (_, i) => from - 1 - i),
  ];
  const own = order.find((at) => index.kindOf(at) === 'code');
  if (own !== undefined) return own;
  const path = index.section(from).path;
  if (path.length === 0) return undefined;
  for (
    let next = section + 1;
    next <= section + EXAMPLE_SUBSECTIONS && next < index.sectionStarts.length;
    next++
  ) {
    const first = index.sectionStarts[next];
    const under = index.section(first).path;
    if (under.length <= path.length || path.some((heading, i) => under[i] !== heading)) break;
    for (let at = first; at < first + index.sectionSizes[next]; at++)
      if (index.kindOf(at) === 'code') return at;
  }
  return undefined;
}

/** Passages or lines "tell me more" adds after the previous answer. */
const MORE_PASSAGES = 2;
/** How far (in lines or blocks) "why?" looks around the previous answer for a reason. */
const REASON_REACH = 3;
/** Words that give a reason, strongest first. */
const REASON_MARKERS: [RegExp, number][] = [
  [/\bbecause\b/i, 3],
  [/\b(?:so that|in order to|due to|since|therefore|wherefore|lest)\b/i, 2],
  [/(?:^|[,;:]\s*)for\b/i, 1.5],
  // A fronted purpose clause ("To avoid breaking those legacy databases, enforcement is off by
  // default") says what the main clause is done for; a "to" elsewhere is mostly an infinitive.
  [/^(?:to|in order to)\s+\p{L}+[^,.]*,/iu, 1],
  [/\b(?:to|so)\b/i, 0.3],
];

/**
 * The passage the previous reply quoted first, found again by searching for its words (the reply
 * is all a stateless client sends back). -1 when none matches well.
 */
export function previousPassage(index: PassageIndex, lastAnswer: string): number {
  return previousPassages(index, lastAnswer, 1)[0] ?? -1;
}

/**
 * Every passage the previous reply quoted, in the order it cited them: a reply is its snippets,
 * each closed by its citation mark `[n]`, so the text before each mark is one quoted passage (its
 * first block: a snippet followed by the code it announces is two passages). A snippet whose
 * passage is not found again well is skipped. Found from the reply's words alone, the same for
 * a conversation the server keeps and one a client sends back.
 */
export function previousPassages(index: PassageIndex, lastAnswer: string, most = 4): number[] {
  return quotedPassages(index, lastAnswer, most).map((quoted) => quoted.id);
}

/** A passage an earlier reply quoted; `partly` when the reply showed only part of it (cut with "…"). */
export interface QuotedPassage {
  id: number;
  partly: boolean;
}

/** {@link previousPassages}, each with whether the reply showed it whole or cut. */
export function quotedPassages(index: PassageIndex, lastAnswer: string, most = 4): QuotedPassage[] {
  const found: QuotedPassage[] = [];
  // The text after the last mark is no quoted passage ("…" or nothing); a reply cut by a length
  // limit before any mark is still its first passage, shown in part.
  const pieces = lastAnswer.split(/\[\d+\]/);
  const quoted = pieces.length > 1 ? pieces.slice(0, -1) : pieces;
  for (const [at, piece] of quoted.entries()) {
    if (found.length >= most) break;
    const id = quotedPassage(index, at === 0 ? piece.replace(SHORT_ANSWER_LEAD, '') : piece);
    if (id < 0 || found.some((other) => other.id === id)) continue;
    // A snippet cut at either end ("…which may consist", "the page size… ") left part of its
    // passage unread.
    const partly = pieces.length === 1 || /^\s*…|…\s*$/.test(piece.split(/\n\s*\n/)[0]);
    found.push({ id, partly });
  }
  return found;
}

/** A short answer put before the first snippet ("Naomi. ..."): not the passage's own words. */
const SHORT_ANSWER_LEAD = /^\p{Lu}[\p{L}'’ -]{0,40}\.\s+/u;

function quotedPassage(index: PassageIndex, piece: string): number {
  const quoted = piece
    .trim()
    // The first block: a snippet followed by the code it announces is two passages.
    .split(/\n\s*\n/)[0]
    .replace(/[…`*_#>|]/g, ' ');
  const terms = queryTermsOf(quoted);
  if (terms.length === 0) return -1;
  const [hit] = index.search(terms, 1);
  if (!hit) return -1;
  return hit.matched.length >= Math.min(terms.length, Math.max(2, Math.ceil(terms.length * 0.6)))
    ? hit.id
    : -1;
}

/** "Tell me more": the passages that follow the previous answer's, in reading order. */
export function continueFrom(model: LanguageModel, index: PassageIndex, from: number): AroundAnswer | null {
  const ids: number[] = [];
  for (let id = from + 1; id < index.size && ids.length < MORE_PASSAGES; id++) {
    if (index.chunkOf(id) !== index.chunkOf(from)) break;
    ids.push(id);
  }
  if (ids.length === 0) return null;
  const sources: Source[] = [];
  const parts: string[] = [];
  for (const id of ids) {
    const snippet = passageSnippet(model, index, id, { weights: new Map(), answer: null, allowSecond: true });
    sources.push(sourceOf(index, id, 0));
    parts.push(`${index.kindOf(id) === 'paragraph' ? index.display(id) : snippet.text} [${sources.length}]`);
  }
  const block = ids.some((id) => index.kindOf(id) === 'code' || index.kindOf(id) === 'list-item');
  return {
    text: parts.join(block ? '\n\n' : ' '),
    sources,
    thought: `continued after the previous answer's passage (chunk ${index.chunkOf(from)} line ${index.lineOf(from)})`,
  };
}

/** "Why?": the sentence around the previous answer's passage that gives a reason, or null. */
export function reasonAround(index: PassageIndex, from: number): AroundAnswer | null {
  let best: { id: number; sentence: string; score: number } | null = null;
  for (let step = -REASON_REACH; step <= REASON_REACH; step++) {
    const id = from + step;
    if (
      id < 0 ||
      id >= index.size ||
      index.chunkOf(id) !== index.chunkOf(from) ||
      // A reason given under another heading is the reason for something else ("Because SQLite is
      // flexible …" opens the next quirk, not why the one before is so).
      index.sectionIdOf(id) !== index.sectionIdOf(from) ||
      index.kindOf(id) === 'code'
    )
      continue;
    for (const sentence of splitSentences(index.display(id))) {
      const marker = REASON_MARKERS.find(([pattern]) => pattern.test(sentence));
      if (!marker) continue;
      const score = marker[1] / (1 + Math.abs(step) * 0.5) + (step === 0 ? 0.2 : 0);
      if (!best || score > best.score) best = { id, sentence, score };
    }
  }
  if (!best || best.score < 0.5) return null;
  return {
    text: `${best.sentence} [1]`,
    sources: [sourceOf(index, best.id, best.score)],
    thought: `looked for the reason around the previous answer's passage (chunk ${index.chunkOf(from)} line ${index.lineOf(from)})`,
  };
}

/**
 * "An example": the code block (or the example list) nearest the previous answer's unit in its
 * section, after it first: documentation shows an example right after what it explains.
 */
export function exampleAround(index: PassageIndex, from: number): AroundAnswer | null {
  const id = exampleNear(index, from);
  if (id === undefined) return null;
  const before = index.sibling(id, -1);
  const intro =
    before >= 0 && index.kindOf(before) !== 'code'
      ? (splitSentences(index.display(before)).at(-1) ?? '')
      : '';
  const code = fence(index, id);
  return {
    text: `${intro && /:\s*$/.test(intro) ? `${intro}\n\n` : ''}${code} [1]`,
    sources: [sourceOf(index, id, 0)],
    thought: `the example nearest the previous answer's passage (chunk ${index.chunkOf(from)} line ${index.lineOf(from)})`,
  };
}
