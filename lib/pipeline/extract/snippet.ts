import { type LanguageModel, ownCopy } from '../../lm/index.js';
import type { PassageIndex } from '../../retrieval/index.js';
import { includesWord, splitSentences } from '../../text/index.js';
import type { Source } from '../types.js';
import type { QuestionShape } from '../understand/shape.js';
import { DEFAULT, REASON, VALUE } from '../wording.js';
import { SNIPPET_WORDS, trimToQuestion, weightOf } from './trim.js';

/**
 * What a sentence that states the kind of thing asked counts against one that matches the
 * question's words alike: "the default cache size is -2000" answers "what is the default cache
 * size?" where "the default page cache honors the request" only repeats its words.
 */
const STATES_SHARE = 1.3;

/** A sentence that answers a yes/no question outright: "Yes.", "No, but …", "Yes, if …". */
const YES_OR_NO = /^(?:yes|no)\b[.,!;:]/i;

/** Words one unit of prose may give a reply: about a short paragraph, so two units fit a reply of 80 tokens. */
const UNIT_WORDS = 50;
/** Words of a list item or table row shown whole; longer ones are trimmed like prose. */
const ITEM_WORDS = 70;
/** Lines of a code block shown; a longer block is cut at a line with a closing note. */
const CODE_LINES = 24;
/** Words of a paragraph that follows an announcing sentence, shown with it (a command, a short example). */
const ANNOUNCED_WORDS = 30;
/** List items that follow an announcing sentence, shown with it. */
const FOLLOWING_ITEMS = 6;

/** What one passage contributes to a reply, and whether it is a block (code, list) that needs its own lines. */
export interface PassageSnippet {
  text: string;
  block: boolean;
  /** Lower-case keys of the sentences used, so another passage does not repeat them. */
  keys: string[];
}

export interface SnippetRequest {
  weights: ReadonlyMap<string, number>;
  /** A short answer the snippet must keep when it can. */
  answer: string | null;
  /** A second sentence of the same paragraph may join the first. */
  allowSecond: boolean;
  /** What the question asks for: a sentence that states that kind of thing answers it. */
  shape?: Pick<QuestionShape, 'kind' | 'wants' | 'polar' | 'defines'>;
}

/**
 * The part of a passage that answers, as a reply shows it: the best sentence (or two) of prose,
 * trimmed to the question; a list item or table row whole, with the name it describes; a code
 * block whole and fenced, after the sentence that announces it; a sentence that announces an
 * example ("run the following command:") with the example. Markdown where the source was Markdown.
 */
export function passageSnippet(
  model: LanguageModel,
  index: PassageIndex,
  id: number,
  request: SnippetRequest,
): PassageSnippet {
  const kind = index.kindOf(id);
  if (kind === 'code') return codeSnippet(model, index, id, request);
  if (kind === 'list-item' || kind === 'table-row') {
    const text = itemText(model, index, id, request);
    const keys = [keyOf(index.text(id))];
    // An item that announces what follows ("To list them, run:") brings it along.
    const following = announces(text) ? followingBlocks(index, id, request.weights) : null;
    if (following) return { text: `${text}\n\n${following}`, block: true, keys };
    return { text, block: false, keys };
  }
  const source = index.display(id);
  const sentences = kind === 'line' ? [source] : splitSentences(source);
  const ranked = sentences
    .map((sentence, order) => ({
      sentence,
      order,
      weight:
        weightOf(sentence, request.weights) *
          (statesWhatIsAsked(sentence, request.shape) ? STATES_SHARE : 1) +
        (request.answer && includesWord(sentence, request.answer) ? 1 : 0),
    }))
    .sort((a, b) => b.weight - a.weight || a.order - b.order);
  const chosen = ranked[0];
  const keys = [keyOf(chosen.sentence)];
  // A sentence that announces what follows brings it along, as does one that breaks off where a
  // code block goes on.
  const next = index.sibling(id, 1);
  const codeNext = next >= 0 && index.kindOf(next) === 'code';
  if (
    (announces(chosen.sentence) || (codeNext && breaksOff(chosen.sentence))) &&
    chosen.order === sentences.length - 1
  ) {
    const following = followingBlocks(index, id, request.weights);
    if (following) return { text: `${chosen.sentence}\n\n${following}`, block: true, keys };
  }
  let text = announces(chosen.sentence)
    ? chosen.sentence
    : trimToQuestion(model, chosen.sentence, request.weights, request.answer);
  // A yes/no question is answered by the "Yes." or "No." a unit opens with; the sentence that
  // matches the question best only qualifies it ("However any library routines … must also be").
  if (request.shape?.polar && chosen.order > 0 && YES_OR_NO.test(sentences[0]!)) {
    keys.push(keyOf(sentences[0]!));
    text = `${sentences[0]} ${text}`;
  }
  // More of the same unit follows the answering sentence, best first, while it bears on the
  // question and the unit's share of the reply lasts: the answer is often a sentence or two
  // away from the one that matches best.
  if (request.allowSecond) {
    let words = text.split(/\s+/).length;
    for (const next of ranked.slice(1)) {
      if (next.weight <= 0 || announces(next.sentence)) continue;
      const extra = trimToQuestion(model, next.sentence, request.weights, request.answer);
      const size = extra.split(/\s+/).length;
      if (words + size > UNIT_WORDS) break;
      keys.push(keyOf(next.sentence));
      text = `${text} ${extra}`;
      words += size;
    }
  }
  // A unit that opens by pointing back ("This switches on the 'hlsearch' option.", "It depends on
  // the entries in …") has its subject in the unit before it, which the reader has not seen: the
  // command or the sentence it points at comes first. Not for one-a-line text, where every line
  // opens with "And" and stands on its own.
  if (kind !== 'line' && chosen.order === 0 && POINTS_BACK.test(chosen.sentence)) {
    const before = index.sibling(id, -1);
    if (before >= 0) {
      const code = index.kindOf(before) === 'code';
      const lead = code
        ? fence(index, before, request.weights)
        : trimToQuestion(
            model,
            splitSentences(index.display(before)).at(-1) ?? '',
            request.weights,
            request.answer,
          );
      if (lead && (code || !announces(lead))) {
        keys.push(keyOf(code ? index.text(before) : lead));
        return {
          text: code ? `${lead}\n\n${balanceBackticks(text)}` : `${lead} ${balanceBackticks(text)}`,
          block: code,
          keys,
        };
      }
    }
  }
  // "Which option ...": when the sentences shown name nothing, the unit's sentence that gives the
  // name ("See 'incsearch'.") comes along: the name is the answer.
  if (request.shape?.wants === 'name' && !NAME_LIKE.test(text)) {
    const naming = sentences.find((sentence) => sentence !== chosen.sentence && NAME_LIKE.test(sentence));
    if (naming && !text.includes(naming)) {
      keys.push(keyOf(naming));
      text = `${text} ${naming}`;
    }
  }
  // "How do I ...": a paragraph that ends announcing an example or command ("It is:") brings the
  // announcing sentence and the command along after the sentence that matched.
  const last = sentences.length - 1;
  if (
    wantsCode(request.shape) &&
    chosen.order !== last &&
    (announces(sentences[last]) || breaksOff(sentences[last])) &&
    codeNext
  ) {
    keys.push(keyOf(sentences[last]));
    const code = fence(index, next, request.weights);
    return { text: `${balanceBackticks(text)} ${sentences[last]}\n\n${code}`, block: true, keys };
  }
  return { text: balanceBackticks(text), block: false, keys };
}

/** A code block fenced with its language, preceded by the sentence that announces it, if any. */
function codeSnippet(
  model: LanguageModel,
  index: PassageIndex,
  id: number,
  request: SnippetRequest,
): PassageSnippet {
  const fenced = fence(index, id, request.weights);
  const before = index.sibling(id, -1);
  if (before >= 0 && index.kindOf(before) !== 'code') {
    const sentences = splitSentences(index.display(before));
    const last = sentences[sentences.length - 1] ?? '';
    const leads = announces(last) || breaksOff(last);
    const intro = leads ? last : trimToQuestion(model, last, request.weights, request.answer);
    if (last && (leads || weightOf(last, request.weights) > 0)) {
      return { text: `${balanceBackticks(intro)}\n\n${fenced}`, block: true, keys: [keyOf(last)] };
    }
  }
  return { text: fenced, block: true, keys: [keyOf(index.text(id))] };
}

/**
 * The lines of a long code block (a command's usage text) that bear on the question: the best line
 * with the lines around it, "…" for what is left out; the block's start when nothing matches.
 */
function codeWindow(lines: readonly string[], weights?: ReadonlyMap<string, number>): string[] {
  let best = -1;
  let bestWeight = 0;
  lines.forEach((line, at) => {
    const weight = weights ? weightOf(line, weights) : 0;
    if (weight > bestWeight) {
      best = at;
      bestWeight = weight;
    }
  });
  if (best < 0) return [...lines.slice(0, CODE_LINES), '…'];
  const from = Math.max(0, best - 1);
  const to = Math.min(lines.length, best + CODE_CONTEXT);
  return [...(from > 0 ? ['…'] : []), ...lines.slice(from, to), ...(to < lines.length ? ['…'] : [])];
}

/** Lines shown from the best line of a long code block on. */
const CODE_CONTEXT = 4;

/** The blocks an announcing sentence introduces: the code block, or the list items, after it. */
function followingBlocks(
  index: PassageIndex,
  id: number,
  weights: ReadonlyMap<string, number>,
): string | null {
  const next = index.sibling(id, 1);
  if (next < 0) return null;
  if (index.kindOf(next) === 'code') return fence(index, next, weights);
  if (index.kindOf(next) !== 'list-item' && index.kindOf(next) !== 'table-row') {
    // What a plain text announces is often its next paragraph (an indented command the text
    // reader cannot tell from prose): a short one comes along.
    const text = index.display(next);
    return text.split(/\s+/).length <= ANNOUNCED_WORDS ? text : null;
  }
  const items: string[] = [];
  for (let at = next; at >= 0 && items.length < FOLLOWING_ITEMS; at = index.sibling(at, 1)) {
    if (index.kindOf(at) !== index.kindOf(next)) break;
    items.push(asListItem(index, at));
  }
  return items.join('\n');
}

function itemText(model: LanguageModel, index: PassageIndex, id: number, request: SnippetRequest): string {
  const text = asListItem(index, id);
  const words = text.split(/\s+/);
  if (words.length <= ITEM_WORDS) return text;
  // A long entry: its name, then its first sentence and the sentence that bears most on the question.
  const name = index.names.get(id);
  const markdown = index.section(id).markdown;
  let body = index.display(id).replace(/^[-*+]\s+/, '');
  if (name && body.startsWith(name)) body = body.slice(name.length).replace(/^[`*\s:–—-]+/, '');
  else if (name && markdown && body.startsWith(`\`${name}\``))
    body = body.slice(name.length + 2).replace(/^[\s:–—-]+/, '');
  const label = name ? (markdown ? `\`${name}\`` : name) : '';
  const labelled = (summary: string) =>
    balanceBackticks(`${markdown ? '- ' : ''}${label ? `${label}: ` : ''}${summary}`);
  const sentences = splitSentences(body);
  // A definition question asks what the entry says the term is, and an entry says it in its
  // opening sentences, in order (the first often only names the class of thing: "a borrowed
  // reference is a reference to an object"; what sets it apart follows): every sentence of an
  // entry mentions its term, so the question's words cannot choose among them.
  if (request.shape?.defines) {
    const opening: string[] = [];
    let words = 0;
    for (const sentence of sentences) {
      const size = sentence.split(/\s+/).length;
      if (opening.length > 0 && words + size > SNIPPET_WORDS) break;
      opening.push(sentence);
      words += size;
    }
    return labelled(trimToQuestion(model, opening.join(' '), request.weights, request.answer));
  }
  const best = sentences
    .map((sentence, order) => ({ sentence, order, weight: weightOf(sentence, request.weights) }))
    .sort((a, b) => b.weight - a.weight || a.order - b.order)[0];
  const chosen = [sentences[0], best && best.order > 0 ? best.sentence : undefined].filter(
    Boolean,
  ) as string[];
  return labelled(trimToQuestion(model, chosen.join(' '), request.weights, request.answer));
}

/** A list item or table row as one Markdown (or plain) list line that keeps its name. */
function asListItem(index: PassageIndex, id: number): string {
  const shown = index.display(id).trim();
  const markdown = index.section(id).markdown;
  const name = index.names.get(id);
  let text = shown.replace(/^[-*+]\s+/, '').replace(/^\d+[.)]\s+/, '');
  if (name && !text.toLowerCase().includes(name.toLowerCase())) {
    text = `${markdown ? `\`${name}\`` : name}: ${text}`;
  }
  return markdown ? `- ${text}` : text;
}

/** A code block fenced with its language; a long one shows the lines that bear on the question. */
export function fence(index: PassageIndex, id: number, weights?: ReadonlyMap<string, number>): string {
  const lines = index.text(id).replace(/\s+$/, '').split('\n');
  const shown = lines.length > CODE_LINES ? codeWindow(lines, weights) : lines;
  const lang = index.langs.get(id) ?? '';
  return `\`\`\`${lang}\n${shown.join('\n')}\n\`\`\``;
}

/** Keys of texts met lately: the same passages and sentences recur from message to message. */
const snippetKeys = new Map<string, string>();
const SNIPPET_KEYS_KEPT = 20_000;

/** What makes two snippets the same: their first words, case-folded (a list item repeated with an extra note). */
export function keyOf(text: string): string {
  // Twelve words fit in the first 400 characters of any prose; the rest is never read.
  const head = text.length > 400 ? text.slice(0, 400) : text;
  let key = snippetKeys.get(head);
  if (key !== undefined) return key;
  key = head
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, ' ')
    .trim()
    .split(' ')
    .slice(0, 12)
    .join(' ');
  if (snippetKeys.size >= SNIPPET_KEYS_KEPT) snippetKeys.clear();
  // A copy: a slice would keep the whole passage alive.
  snippetKeys.set(ownCopy(head), key);
  return key;
}

/** A sentence that opens by pointing at what came before it: "This switches …", "It depends …", "These are …". */
const POINTS_BACK = /^(?:this|these|it|they|that)\s+(?!is\s+(?:a|an|the)\b)[a-z]+/i;

/** A sentence that ends by announcing what follows ("execute the following command:"). */
function announces(sentence: string): boolean {
  return /:\s*$/.test(sentence);
}

/**
 * A paragraph that breaks off at a comma right before a code block ("Or, if you have already
 * committed the merge," / `git reset --hard ORIG_HEAD`): the block completes its sentence. Only
 * before code: a line of verse or a list item ending in a comma goes on in more prose.
 */
function breaksOff(sentence: string): boolean {
  return /,\s*$/.test(sentence);
}

/** An odd number of backticks (a cut inside inline code) gets its closing one. */
function balanceBackticks(text: string): string {
  const ticks = text.match(/`/g)?.length ?? 0;
  return ticks % 2 === 1 ? text.replace(/…?$/, '`…') : text;
}

/** The source entry of a passage: its text, score and place, with its section, file and page. */
export function sourceOf(index: PassageIndex, id: number, score: number): Source {
  const section = index.section(id);
  const page = index.pages.get(id) ?? section.page;
  return {
    text: index.text(id),
    score: Math.round(score * 1000) / 1000,
    ref: { chunk: index.chunkOf(id), line: index.lineOf(id) },
    ...(section.path.length > 0 ? { section: section.path.join(' > ') } : {}),
    ...(section.file ? { file: section.file } : {}),
    ...(page ? { page } : {}),
    ...(section.documentId ? { documentId: section.documentId } : {}),
    ...(section.url ? { url: section.url } : {}),
    ...(formatOf(section.file) ? { format: formatOf(section.file) } : {}),
  };
}

/** A document's format from its file name: what kind of anchor its headings have in a link. */
function formatOf(file: string | undefined): Source['format'] | undefined {
  if (!file) return undefined;
  if (/\.(?:md|markdown|mdx)$/i.test(file)) return 'markdown';
  if (/\.html?$/i.test(file)) return 'html';
  if (/\.pdf$/i.test(file)) return 'pdf';
  return undefined;
}

/**
 * A name as code or a manual writes it: `inline code`, an option (--keep), a word joined by - _ .
 * (build-essential, max_retries), or one word in quotes ('incsearch', the way Vim names options).
 */
const NAME_LIKE =
  /`[^`]+`|(?:^|\s)--?[A-Za-z][\w-]*|\b[A-Za-z]\w*[-_.]\w[\w.-]*\b|(?:^|\s)['‘"“][A-Za-z][\w-]*['’"”]/;

/** Code written inline in a sentence. */
const INLINE_CODE = /`[^`\n]+`/;

/** A "how do I …?" or "show me an example": what answers is an instruction or code. */
function wantsCode(shape: SnippetRequest['shape']): boolean {
  return shape?.wants === 'procedure' || shape?.wants === 'example';
}

/**
 * Whether a sentence states the kind of thing the question asks for: a default with its value, a
 * quantity or a time with a number, a reason with a word of cause, and for "how do I …" what to
 * type (inline code): the instruction, where the sentences around it describe the behaviour
 * ("Enable it by passing `{ logger: true }`" beside "it cannot be enabled at runtime").
 */
function statesWhatIsAsked(sentence: string, shape: SnippetRequest['shape']): boolean {
  if (!shape) return false;
  if (shape.wants === 'default') return DEFAULT.test(sentence) && VALUE.test(sentence);
  if (wantsCode(shape)) return INLINE_CODE.test(sentence);
  if (shape.kind === 'number' || shape.kind === 'time') return /\d/.test(sentence);
  if (shape.wants === 'reason') return REASON.test(sentence);
  return false;
}
