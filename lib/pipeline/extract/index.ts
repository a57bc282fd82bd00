import { type LanguageModel, usuallyCapitalised } from '../../lm/index.js';
import type { PassageIndex } from '../../retrieval/index.js';
import { capitalise, countTokens, escapeRegExp, includesWord, splitSentences } from '../../text/index.js';
import type { ReadingSearch } from '../gather.js';
import type { Evidence } from '../rank.js';
import {
  ANSWER_COVERAGE,
  ANTECEDENT_LINES,
  COMMON_ANSWER_PASSAGES,
  CONFIDENCE_MARGIN,
  FURTHER_CITATION_SHARE,
  LEAD_IN_WORDS,
  NAMING_PASSAGES,
  NEARBY_SHARE,
  OTHER_PASSAGE_SHARE,
} from '../tuning.js';
import type { EvidenceBudget, Source } from '../types.js';
import { isCommonName } from '../understand/index.js';
import type { QuestionShape } from '../understand/shape.js';
import { NEAREST_PREFACE, statesDefaultValue } from '../wording.js';
import { fitsKind } from './kind-fit.js';
import { type AnswerCandidate, answerCandidates, type EvidenceLine } from './short-answer.js';
import { fence, keyOf, passageSnippet, sourceOf } from './snippet.js';
import { trimToQuestion } from './trim.js';

export { sourceOf } from './snippet.js';

/** What the extract stage made of the best units. */
export interface Extracted {
  /** The reply's text, answer first, each snippet cited as [n]. */
  text: string;
  sources: Source[];
  /** The short answer put first, when the question asks for one and the evidence names it. */
  answer: string | null;
  /** A different short answer the evidence also supports well (conflicting passages), if any. */
  runnerUp: string | null;
}

export interface ExtractRequest {
  budget: EvidenceBudget;
  /** The reply's length limit in tokens: what does not fit whole is left out, not cut. */
  maxTokens?: number;
  /**
   * For "the closest I found": no short answer put first (nothing is stated as the answer); the
   * passages are cited as for an answer, since the one that holds it is often not the first.
   */
  hedged?: boolean;
}

/**
 * Extract: the reply from whole sentences of the best units, the answering sentence first; the
 * unit's name carried from its heading or term; a lead-in ending in ":" with what it announces or
 * not at all; a code block whole or not at all; a problem with the fix that follows it; a short
 * answer (a name, a number) first when the question asks for one and the evidence names it;
 * within maxTokens.
 */
export function extract(
  model: LanguageModel,
  index: PassageIndex,
  search: ReadingSearch,
  ranked: readonly Evidence[],
  best: Evidence,
  request: ExtractRequest,
): Extracted {
  const evidence = ranked.filter((item) => item.reading === best.reading);
  const weights = new Map(search.query.map((term, i) => [term.term, search.idf[i] * term.weight]));
  const shape = search.reading.shape;
  const questionTerms = new Set(search.query.map((term) => term.term));
  const ownTerms = new Set(search.query.slice(0, search.own).map((term) => term.term));
  const maxIdf = index.idf('');
  const isName = (word: string) => usuallyCapitalised(model, word);
  const lines = evidenceLines(
    index,
    shape.kind === 'choice' ? evidence : evidence.slice(0, NAMING_PASSAGES),
    shape,
  );
  const candidates = answerCandidates(
    shape,
    questionTerms,
    lines,
    (term) => (index.idf(term) / maxIdf) ** 2,
    isName,
    search.reading.carried ? ownTerms : undefined,
  ).filter(
    (candidate) =>
      fitsKind(index, candidate.text, shape.kind) &&
      // A name written nearly everywhere (the program a manual documents) is the text's own
      // subject, not one of the X a "which X" question asks for.
      (shape.kind !== 'choice' || !isCommonName(index, candidate.text, COMMON_ANSWER_PASSAGES)),
  );
  const answer = request.hedged ? null : confidentAnswer(candidates);
  // A closest-passage reply states no short answer, but the best unit's own line that names the
  // likeliest one is shown with it (as it is for an answer), so the reader can judge.
  const shown = answer ?? (request.hedged ? confidentAnswer(candidates) : null);
  const cited = citedEvidence(
    index,
    evidence,
    best,
    answer,
    request.budget.cite,
    shape,
    request.hedged === true,
  );

  const snippets: { text: string; block: boolean }[] = [];
  const sources: Source[] = [];
  const covered = new Set<string>();
  const limit = request.maxTokens ?? Number.POSITIVE_INFINITY;
  // A closest passage is shown after NEAREST_PREFACE, which the limit counts too.
  const blockLimit = limit - (request.hedged ? countTokens(NEAREST_PREFACE) : 0);
  let used = 0;
  for (const item of cited) {
    let snippet = snippetOf(model, index, item, weights, shown, covered, request.budget.cite > 1, shape);
    if (!snippet) continue;
    // The first snippet always stays: where the limit would cut through its code block, the
    // block keeps the whole lines that fit.
    if (snippets.length === 0) snippet = withinLimitWhole(snippet, blockLimit);
    const cost = countTokens(snippet.text);
    // Later snippets that do not fit are left out whole; the first one always stays.
    if (snippets.length > 0 && used + cost > limit) break;
    used += cost;
    sources.push(sourceOf(index, item.hit.id, item.hit.score));
    snippets.push({ text: `${snippet.text} [${sources.length}]`, block: snippet.block });
  }
  const lead = answer ? leadOf(shape, answer, snippets.map((snippet) => snippet.text).join(' ')) : '';
  return {
    text: joinSnippets(lead, snippets),
    sources,
    answer: lead ? answer : null,
    runnerUp: runnerUpOf(candidates, answer),
  };
}

/**
 * A snippet whose code block the limit would cut mid-line: the block keeps the whole lines that
 * fit, then "…" inside the fence for the rest, so it reads as an excerpt of the block, closed,
 * never as a broken line. (Leaving the block out, with the sentence that announces it, was
 * measured: the answer is often in the block's first lines, and held-out answers were lost.)
 * As it was where the block fits, or where not even its first line would.
 */
export function withinLimitWhole(
  snippet: { text: string; block: boolean },
  limit: number,
): { text: string; block: boolean } {
  if (countTokens(snippet.text) + CITATION_TOKENS <= limit) return snippet;
  const open = /^ {0,3}(```|~~~)[^\n]*\n/m.exec(snippet.text);
  if (!open) return snippet;
  const bodyStart = open.index + open[0].length;
  const close = snippet.text.indexOf(`\n${open[1]}`, bodyStart);
  if (close < 0) return snippet;
  const head = snippet.text.slice(0, bodyStart);
  const lines = snippet.text.slice(bodyStart, close).split('\n');
  const fence = `\n${open[1]}`;
  // Room for the lines: the limit less what comes before them, the "…" line, the fence and the mark.
  let room = limit - countTokens(head) - countTokens(`…${fence}`) - CITATION_TOKENS;
  let kept = 0;
  while (kept < lines.length) {
    const cost = countTokens(lines[kept]!);
    if (cost > room) break;
    room -= cost;
    kept++;
  }
  if (kept === 0 || kept === lines.length) return snippet;
  return { text: `${head}${lines.slice(0, kept).join('\n')}\n…${fence}`, block: true };
}

/** Tokens of a citation mark, " [1]". */
const CITATION_TOKENS = 3;

/**
 * The units cited: the best, then others that cover enough of the question nearly as well; when a
 * short answer was found, the best unit that contains it (with its neighbours) comes first, so the
 * answer is always backed by a citation.
 */
function citedEvidence(
  index: PassageIndex,
  evidence: readonly Evidence[],
  best: Evidence,
  answer: string | null,
  cite: number,
  shape: QuestionShape,
  hedged: boolean,
): Evidence[] {
  const floor = best.rank * FURTHER_CITATION_SHARE;
  const eligible = [
    best,
    ...evidence.filter(
      (item) =>
        item !== best &&
        item.coverage >= ANSWER_COVERAGE &&
        item.hasRarest &&
        item.rank >= floor &&
        // A unit that only points elsewhere (rank.ts) adds no sentence the reader can use.
        !item.features?.pointer,
    ),
  ];
  // A closest passage is not known to answer, and the unit that does is often the best of
  // another section (the asker's words led the search a little astray): the reader is shown that
  // one too, when it scores nearly as well, as a second place to look.
  if (hedged && eligible.length < 2) {
    const section = index.sectionIdOf(best.hit.id);
    const other = evidence.find(
      (item) => item !== best && index.sectionIdOf(item.hit.id) !== section && item.rank >= floor,
    );
    if (other) eligible.push(other);
  }
  if (!answer) return eligible.slice(0, cite);
  const holds = (id: number) => id >= 0 && includesWord(index.text(id), answer);
  const bearer = evidence.find(
    (item) =>
      item.hasRarest &&
      (holds(item.hit.id) ||
        holds(index.neighbour(item.hit.id, -1)) ||
        holds(index.neighbour(item.hit.id, 1)) ||
        // The line that answers, when the name is the one it refers back to (see evidenceLines).
        (item === evidence[0] &&
          definiteFocus(index.text(item.hit.id), shape) &&
          linesBefore(index, item.hit.id).some(holds))),
  );
  if (!bearer) return eligible.slice(0, cite);
  return [bearer, ...eligible.filter((item) => item !== bearer)].slice(0, cite);
}

/**
 * The lines candidates are drawn from: every unit given, and the lines around one-a-line text.
 * When the best line speaks of what a "which X" question asks for as "the X" (a definite
 * description: "the king saw the part of the hand"), the X was introduced earlier, and the lines
 * before it, back to ANTECEDENT_LINES, are where a name was bound to it ("Belshazzar the king
 * made a great feast"); only such bindings make a candidate of a choice question.
 */
function evidenceLines(
  index: PassageIndex,
  evidence: readonly Evidence[],
  shape: QuestionShape,
): EvidenceLine[] {
  const lines: EvidenceLine[] = [];
  const top = evidence[0]?.rank ?? 1;
  for (const item of evidence) {
    const weight = item === evidence[0] ? 1 : OTHER_PASSAGE_SHARE * (Math.max(0, item.rank) / top) ** 2;
    const id = item.hit.id;
    const text = index.text(id);
    const best = item === evidence[0];
    lines.push({ text, weight, best });
    for (const step of [-1, 1] as const) {
      const other = index.neighbour(id, step);
      if (other >= 0) lines.push({ text: index.text(other), weight: weight * NEARBY_SHARE, best });
    }
    // The line speaks of what a "which X" asks for as "the X": the lines before it are read for
    // the name bound to X, as the best unit is.
    if (best && definiteFocus(text, shape)) {
      for (const back of linesBefore(index, id))
        lines.push({ text: index.text(back), weight: weight * NEARBY_SHARE, best });
    }
  }
  return lines;
}

/** True when a text speaks of a choice question's focus as known: "the king", "this city". */
function definiteFocus(text: string, shape: QuestionShape): boolean {
  if (shape.kind !== 'choice' || !shape.focus) return false;
  return new RegExp(`\\b(?:the|this|that) ${escapeRegExp(shape.focus)}\\b`, 'i').test(text);
}

/** The lines of a one-a-line text before a unit's neighbour, nearest first, back to ANTECEDENT_LINES. */
function linesBefore(index: PassageIndex, id: number): number[] {
  const found: number[] = [];
  let back = index.neighbour(id, -1);
  for (let k = 1; k < ANTECEDENT_LINES && back >= 0; k++) {
    back = index.neighbour(back, -1);
    if (back >= 0) found.push(back);
  }
  return found;
}

function confidentAnswer(candidates: readonly AnswerCandidate[]): string | null {
  const [first, second] = candidates;
  if (!first) return null;
  if (second && second.score * CONFIDENCE_MARGIN > first.score) return null;
  return first.text;
}

/** A second answer with at least half the support of the first: the passages disagree. */
function runnerUpOf(candidates: readonly AnswerCandidate[], answer: string | null): string | null {
  const [first, second] = candidates;
  if (!answer || !first || !second) return null;
  return second.score * 2 >= first.score ? second.text : null;
}

/**
 * What a unit says in the reply (see passageSnippet), with its name carried from the heading when
 * the snippet lacks it, and the fix that follows a problem; for one-a-line text, the neighbouring
 * line when it holds the answer the unit itself lacks. Null when the unit adds no sentence that
 * earlier snippets did not already give.
 */
function snippetOf(
  model: LanguageModel,
  index: PassageIndex,
  item: Evidence,
  weights: ReadonlyMap<string, number>,
  answer: string | null,
  covered: Set<string>,
  allowSecond: boolean,
  shape: QuestionShape,
): { text: string; block: boolean } | null {
  const id = item.hit.id;
  const snippet = passageSnippet(model, index, id, { weights, answer, allowSecond, shape });
  if (covered.has(snippet.keys[0])) return null;
  for (const key of snippet.keys) covered.add(key);
  let text = snippet.text;
  let block = snippet.block;
  if (answer && !includesWord(text, answer)) {
    for (const step of [-1, 1] as const) {
      const other = index.neighbour(id, step);
      if (other < 0 || !includesWord(index.text(other), answer)) continue;
      const extra = trimToQuestion(model, index.text(other), weights, answer);
      text = step < 0 ? `${extra} ${text}` : `${text} ${extra}`;
      break;
    }
  }
  // A name bound to "the X" lines before (see evidenceLines) is shown where it was bound, with the
  // gap marked, so the answer stays backed by what the reply quotes.
  if (answer && !includesWord(text, answer) && definiteFocus(index.text(id), shape)) {
    const back = linesBefore(index, id).find((line) => includesWord(index.text(line), answer));
    if (back !== undefined) text = `${trimToQuestion(model, index.text(back), weights, answer)} … ${text}`;
  }
  // The default's value first: it is what a question about a default asks for.
  const stated =
    shape.wants === 'default' && !statesDefaultValue(text) ? defaultOf(index, id, covered) : null;
  if (stated) text = `${/[.!?]$/.test(stated) ? stated : `${stated}.`} ${text.replace(/^- /, '')}`;
  const name = unitName(index, id, shape.wants);
  if (name && !text.toLowerCase().includes(name.toLowerCase())) {
    const shown = index.section(id).markdown ? `\`${name}\`` : name;
    text = /^- /.test(text) ? `- ${shown}: ${text.slice(2)}` : `${shown}: ${text}`;
  }
  const fix = block ? null : fixAfter(index, id, text);
  if (fix) {
    text = `${text}\n\n${fix}`;
    block = true;
  }
  return { text, block };
}

/**
 * The name a unit describes, from the last heading of its section, when that heading is written
 * as a name: an identifier (`max_retries`, `--keep`, `after`), a name and its type (`retries (Number)`:
 * "retries"), or any short heading when the question asks which setting. Reference documentation
 * puts the name in the heading and only the description below it.
 */
function unitName(index: PassageIndex, id: number, wants: string): string | null {
  if (index.kindOf(id) === 'list-item' || index.kindOf(id) === 'table-row') return null;
  const heading = index.section(id).path.at(-1)?.trim();
  if (!heading) return null;
  const typed = /^(\S+)\s*\([^)]*\)$/.exec(heading);
  if (typed) return typed[1].replace(/^`|`$/g, '');
  // Prose headings start with a capital; one word in lower case (`after`, `ready`) is a name
  // from the code: a method, an option, a command.
  if (/^`?(?:--?[\w-]+|[\w-]*[_.][\w.-]+|[a-z]+[A-Z]\w*|\.?[a-z][\w-]*)`?$/.test(heading))
    return heading.replace(/^`|`$/g, '');
  // A numbered heading ("1. Overview", "6.2 Startup Files") is a part of the manual's outline,
  // named by its place in it: no setting or command is called that.
  if (/^\s*\d+(?:\.\d+)*\.?\s/.test(heading)) return null;
  if (wants === 'name' && heading.split(/\s+/).length <= 3 && heading.length <= 40) return heading;
  return null;
}

/** Units either side of the shown one, in its section, searched for the value of a default it describes. */
const DEFAULT_REACH_UNITS = 3;
/** Longest default line added to a snippet, in words. */
const DEFAULT_LINE_WORDS = 20;

/**
 * A question about a default gets the default's value: reference entries describe a setting in a
 * paragraph and give its default on a line of its own above or below it ("+ Default: `1048576`
 * (1MiB)"). When the shown text states no default value, the nearest short unit of the same
 * section that does is added. Null when there is none.
 */
function defaultOf(index: PassageIndex, id: number, covered: Set<string>): string | null {
  for (let distance = 1; distance <= DEFAULT_REACH_UNITS; distance++) {
    for (const step of [-1, 1] as const) {
      let at = id;
      for (let moved = 0; moved < distance && at >= 0; moved++) at = index.sibling(at, step);
      if (at < 0) continue;
      const text = index
        .display(at)
        .trim()
        .replace(/^[-*+]\s+/, '');
      if (text.split(/\s+/).length > DEFAULT_LINE_WORDS || !statesDefaultValue(text)) continue;
      const key = keyOf(index.text(at));
      if (covered.has(key)) return null;
      covered.add(key);
      return text;
    }
  }
  return null;
}

/** Words that say a sentence describes a problem: an error, a failure, something that cannot be done. */
const PROBLEM =
  /\b(?:error|errors|fails?|failed|failure|cannot|can't|unable|problem|issue|warning|crash(?:es|ed)?|broken|denied|refuses?|refused|not found|missing)\b/i;

/**
 * A problem comes with its fix: when the shown text describes one and is its paragraph's end, the
 * block that follows in the same section (a command, or the next paragraph's first sentence) is
 * what a reader needs next. So does a short paragraph shown to its end: a paragraph of a sentence
 * or two sets up what the next one says ("Say you reset a branch and lose the only reference to
 * a commit." / "Fortunately, git also keeps a log, called a reflog"). Null when there is none,
 * or the text is neither.
 */
function fixAfter(index: PassageIndex, id: number, shown: string): string | null {
  if (index.kindOf(id) === 'line') return null;
  const display = index.display(id);
  if (
    !PROBLEM.test(shown) &&
    !(index.kindOf(id) === 'paragraph' && display.split(/\s+/).length <= LEAD_IN_WORDS)
  )
    return null;
  const sentences = splitSentences(display);
  const last = sentences[sentences.length - 1] ?? '';
  if (
    !shown
      .replace(/\s*\[\d+\]$/, '')
      .trim()
      .endsWith(last.trim().slice(-20))
  )
    return null;
  const next = index.sibling(id, 1);
  if (next < 0) return null;
  if (index.kindOf(next) === 'code') {
    return fence(index, next);
  }
  if (index.kindOf(next) !== 'paragraph') return null;
  return splitSentences(index.display(next))[0] ?? null;
}

/** The lead and the snippets as one reply: on one line, or as paragraphs when a snippet is a block. */
function joinSnippets(lead: string, snippets: readonly { text: string; block: boolean }[]): string {
  const texts = snippets.map((snippet) => snippet.text);
  const listItem = (text: string) => /^- /.test(text);
  if (!snippets.some((snippet) => snippet.block || listItem(snippet.text))) {
    return [lead, ...texts].filter(Boolean).join(' ');
  }
  // Markdown list items stay on lines of their own, one list; blocks are paragraphs.
  let text =
    lead && !listItem(texts[0]) ? `${lead} ${texts[0]}` : [lead, texts[0]].filter(Boolean).join('\n\n');
  for (let i = 1; i < texts.length; i++) {
    text += listItem(texts[i]) && listItem(texts[i - 1]) ? `\n${texts[i]}` : `\n\n${texts[i]}`;
  }
  return text;
}

/** The short answer as the reply's first words, when the snippets bear it out. */
function leadOf(shape: { kind: string; focus: string | null }, answer: string, snippets: string): string {
  if (!includesWord(snippets, answer)) return '';
  // A piece of an identifier (TAR_ENTRY_INVALID, some.Name) is not an answer of its own.
  if (insideIdentifier(snippets, answer)) return '';
  // "Which river ...?": "The Hudson river." where the text writes "the Hudson river" (a name that
  // qualifies the noun, after a determiner); a name in apposition to the noun ("Henry, king of
  // England", "Zedekiah king of Judah") is given alone, not as "The Zedekiah king".
  const named =
    shape.kind === 'choice' && shape.focus && includesWord(snippets, `the ${answer} ${shape.focus}`);
  // A name written as code (`mail-transport-agent`, `lsb_release`, `onClose`) keeps its case; a
  // number with a point ("3.0") is no code.
  const code = /^--?\p{L}|\p{L}[_.-][\p{L}\p{N}]|[\p{L}\p{N}][_.-]\p{L}|\p{Ll}\p{Lu}/u.test(answer);
  const text = code ? `\`${answer}\`` : named ? `The ${answer} ${shape.focus}` : capitalise(answer);
  return `${text}.`;
}

/** True when every occurrence of the answer is a piece of a longer identifier (TAR_ENTRY_INVALID, a.Name). */
function insideIdentifier(text: string, answer: string): boolean {
  const pattern = new RegExp(escapeRegExp(answer), 'giu');
  for (const match of text.matchAll(pattern)) {
    const before = text[(match.index ?? 0) - 1] ?? ' ';
    const after = text[(match.index ?? 0) + match[0].length] ?? ' ';
    if (!/[\p{L}\p{N}_./-]/u.test(before) && !/[\p{L}\p{N}_/-]/u.test(after)) return false;
  }
  return true;
}
