import { relatedWords } from '../lexicon/index.js';
import { type LanguageModel, usuallyCapitalised } from '../lm/index.js';
import {
  type PassageHit,
  type PassageIndex,
  type QueryTerm,
  queryTermsOf,
  searchTerm,
} from '../retrieval/index.js';
import { capitalise, escapeRegExp, includesWord } from '../text/index.js';

import { type AnswerCandidate, answerCandidates, type EvidenceLine } from './candidates.js';
import { fitsKind, relationCandidates, relationOf } from './lead-rules.js';
import { passageSnippet, sourceOf } from './passage-reply.js';
import type { QuestionShape } from './question.js';
import { trimToQuestion } from './trim.js';
import type { EvidenceBudget, Source } from './types.js';

/** Least share of the question (weighted by how rare its words are) the best passage must cover. */
export const COVERAGE_THRESHOLD = 0.5;
/** What a related word (synonym) found in a passage counts for the word it stands for. */
const RELATED_SHARE = 0.8;
/** Weight of a related word in the search, against the word itself. */
const RELATED_WEIGHT = 0.35;
/** Related words searched per query word, and in all. */
const RELATED_PER_WORD = 3;
const RELATED_TOTAL = 12;

/**
 * Adds the related words (WordNet synonyms, a verb's narrower verbs) of the query's own words that
 * the taught text uses, at a lower weight: "killed" also finds "slew", "car" "automobile".
 */
function addRelatedWords(index: PassageIndex, query: QueryTerm[]): void {
  const own = query.length;
  const present = new Set(query.map((term) => term.term));
  let added = 0;
  for (let i = 0; i < own && added < RELATED_TOTAL; i++) {
    const term = query[i];
    if (term.name || term.weight !== 1) continue;
    let kept = 0;
    for (const { word } of relatedWords(term.word)) {
      const related = searchTerm(word);
      if (!related || present.has(related) || index.documentFrequency(related) === 0) continue;
      present.add(related);
      query.push({ term: related, word, weight: RELATED_WEIGHT, name: false, expands: i });
      added++;
      if (++kept >= RELATED_PER_WORD || added >= RELATED_TOTAL) break;
    }
  }
}

/** Coverage needed when some word of the question was never taught. */
const UNKNOWN_WORD_THRESHOLD = 0.6;
/** Words an ellipsis carries over from the earlier question count this much against the message's own. */
const CARRIED_WEIGHT = 0.6;
/** Nearby lines (one-unit-a-line text) count this much for coverage and answers. */
const NEARBY_SHARE = 0.5;
/** What a name in a passage other than the best one counts for, against one in the best passage. */
const OTHER_PASSAGE_SHARE = 0.35;
/** How far the best short answer must lead the next to be put first. */
const CONFIDENCE_MARGIN = 1.25;
/** Passages whose names may answer a who/where/how-many question (a "which X" looks at all). */
const NAMING_PASSAGES = 3;
/** Passages whose lines may hold the name a relation question asks for. */
const RELATION_PASSAGES = 10;
/** Rank added per word of the longest run of the message's words a passage repeats in order (quotes). */
const RUN_BONUS = 0.08;

/** A passage judged as evidence. */
export interface Evidence {
  hit: PassageHit;
  /** Share of the message's weighted words the passage (with its neighbours) covers, 0-1. */
  coverage: number;
  rank: number;
}

/** What the evidence says about a question. */
export interface GroundedAnswer {
  /** `answered` when a passage covers enough of the question. */
  status: 'answered' | 'unknown';
  text: string;
  sources: Source[];
  /** The words searched for (the message's first, then earlier user turns'). */
  searched: string[];
  /** Words of the message that nothing taught contains. */
  unknownWords: string[];
  /** Passages that matched any searched word (up to the mode's retrieval budget). */
  matched: number;
  /** Best coverage reached, 0-1. */
  coverage: number;
  /** The short answer put first, when the question asks for one and the evidence names it. */
  answer: string | null;
  /** A different short answer the evidence also supports well (conflicting passages), if any. */
  runnerUp: string | null;
  /** Evidence considered, best first. */
  evidence: Evidence[];
}

export interface GroundedRequest {
  /** The question (a follow-up already made standalone). */
  message: string;
  /** Whether query words bring their synonyms (WordNet); off unless true. */
  related?: boolean;
  /** The earlier question an ellipsis leans on ("and which one?"), searched at lower weight; '' for none. */
  carried: string;
  shape: QuestionShape;
  budget: EvidenceBudget;
}

/**
 * Answers from the passages of the trained text: retrieves for the message (and, weighing less,
 * the user's earlier turns), re-ranks by how much of the question each passage covers, and builds
 * the reply from the best sentences, trimmed to the question, each cited as [n]; a short answer
 * (a name, a number) goes first when the question asks for one and the evidence names it.
 * Says it does not know when no passage covers enough of the question.
 */
export function answerFromPassages(
  model: LanguageModel,
  index: PassageIndex,
  request: GroundedRequest,
): GroundedAnswer {
  const query = queryOf(request.message, request.carried);
  // A follow-up without words of its own ("why?") is about what the user asked before.
  if (request.related === true) addRelatedWords(index, query);
  const ownCount = query.filter((term) => term.weight === 1).length;
  const own = ownCount > 0 ? query.slice(0, ownCount) : query;
  const idf = weightsOf(index, query);
  const unknownWords = own
    .filter((term) => index.documentFrequency(term.term) === 0)
    .map((term) => term.word);
  const ownWeight = own.reduce((sum, _, i) => sum + idf[i], 0);
  const weights = new Map(query.map((term, i) => [term.term, idf[i] * term.weight]));
  const base = {
    searched: query.map((term) => term.word),
    unknownWords,
    answer: null,
    runnerUp: null,
  };

  const hits = index.search(query, request.budget.retrieve);
  const messageTokens = wordsOf(request.message);
  const flags = flagsIn(request.message);
  const topScore = hits[0]?.score ?? 0;
  const evidence: Evidence[] = hits.map((hit) => {
    let covered = 0;
    const stoodFor = new Set<number>();
    for (const i of hit.matched) {
      if (i < own.length) covered += idf[i];
      const parent = query[i].expands;
      if (parent !== undefined && !hit.matched.includes(parent) && !stoodFor.has(parent)) {
        stoodFor.add(parent);
        covered += RELATED_SHARE * idf[parent];
      }
    }
    for (const i of hit.matchedNearby) if (i < own.length) covered += NEARBY_SHARE * idf[i];
    const coverage = ownWeight > 0 ? covered / ownWeight : 0;
    const run = sharedRun(messageTokens, index.text(hit.id));
    const named = flags.length > 0 && namesFlag(index.names.get(hit.id), flags) ? NAMED_BONUS : 0;
    return {
      hit,
      coverage,
      rank: coverage + 0.5 * (hit.score / topScore) + RUN_BONUS * Math.min(6, run - 1) + named,
    };
  });
  evidence.sort((a, b) => b.rank - a.rank);
  const best = evidence[0];
  // A name or number never taught ("Brazil", "2018") means the question is about something else.
  const unknownName = own.some((term) => term.name && index.documentFrequency(term.term) === 0);
  // A word never taught may be a paraphrase; it may also be what the question is about
  // ("What causes earthquakes?"), so the rest must then cover more of it.
  const threshold = unknownWords.length > 0 ? UNKNOWN_WORD_THRESHOLD : COVERAGE_THRESHOLD;
  if (!best || best.coverage < threshold || unknownName) {
    return {
      ...base,
      status: 'unknown',
      text: unknownReply(unknownWords, best?.coverage ?? 0),
      sources: [],
      matched: hits.length,
      coverage: best?.coverage ?? 0,
      evidence,
    };
  }

  const questionTerms = new Set(query.map((term) => term.term));
  const maxIdf = index.idf('');
  const isName = (word: string) => usuallyCapitalised(model, word);
  // A question that names a relation ("Ruth's mother in law") is answered by the name written in
  // that relation, or not at all; any other short answer must be of the kind asked (who: a person).
  const relation = request.shape.kind === 'person' ? relationOf(request.message) : null;
  const lines = evidenceLines(
    index,
    relation
      ? evidence.slice(0, RELATION_PASSAGES)
      : request.shape.kind === 'choice'
        ? evidence
        : evidence.slice(0, NAMING_PASSAGES),
  );
  const candidates = (
    relation
      ? relationCandidates(relation, lines, isName)
      : answerCandidates(
          request.shape,
          questionTerms,
          lines,
          (term) => (index.idf(term) / maxIdf) ** 2,
          isName,
        )
  ).filter((candidate) => fitsKind(index, candidate.text, request.shape.kind));
  const answer = confidentAnswer(candidates);
  const cited = citedEvidence(index, evidence, answer, request.budget.cite);
  const snippets: { text: string; block: boolean }[] = [];
  const sources: Source[] = [];
  const covered = new Set<string>();
  for (const item of cited) {
    const snippet = snippetOf(model, index, item, weights, answer, covered, request.budget.cite > 1);
    if (!snippet) continue;
    sources.push(sourceOf(index, item.hit.id, item.hit.score));
    snippets.push({ text: `${snippet.text} [${sources.length}]`, block: snippet.block });
  }
  const lead = answer ? leadOf(request.shape, answer, snippets.map((snippet) => snippet.text).join(' ')) : '';
  return {
    ...base,
    status: 'answered',
    text: joinSnippets(lead, snippets),
    sources,
    matched: hits.length,
    coverage: best.coverage,
    answer: lead ? answer : null,
    runnerUp: runnerUpOf(candidates, answer),
    evidence,
  };
}

/**
 * The passages cited: the best ones that cover enough of the question; when a short answer was
 * found, the best passage that contains it (with its neighbours) comes first, so the answer is
 * always backed by a citation.
 */
function citedEvidence(
  index: PassageIndex,
  evidence: readonly Evidence[],
  answer: string | null,
  cite: number,
): Evidence[] {
  // Later citations must bear on the question nearly as well as the best one.
  const floor = (evidence[0]?.rank ?? 0) * FURTHER_CITATION_SHARE;
  const eligible = evidence.filter(
    (item, at) => item.coverage >= COVERAGE_THRESHOLD && (at === 0 || item.rank >= floor),
  );
  if (!answer) return eligible.slice(0, cite);
  const holds = (id: number) => id >= 0 && includesWord(index.text(id), answer);
  const bearer = evidence.find(
    (item) =>
      holds(item.hit.id) || holds(index.neighbour(item.hit.id, -1)) || holds(index.neighbour(item.hit.id, 1)),
  );
  if (!bearer) return eligible.slice(0, cite);
  return [bearer, ...eligible.filter((item) => item !== bearer)].slice(0, cite);
}

/**
 * How much each query word counts towards coverage: its BM25 idf when it was taught. A word never
 * taught counts fully (the highest idf) when written like a name or a number ("France", "2018"):
 * the question is about something unknown. Another unknown word ("last", "handled") is more
 * likely a paraphrase, and counts three quarters of an average word of the question.
 */
function weightsOf(index: PassageIndex, query: readonly QueryTerm[]): number[] {
  const known = query.filter((term) => index.documentFrequency(term.term) > 0);
  const average =
    known.length > 0 ? known.reduce((sum, term) => sum + index.idf(term.term), 0) / known.length : 0;
  return query.map((term) => {
    if (index.documentFrequency(term.term) > 0) return index.idf(term.term);
    return term.name || known.length === 0 ? index.idf(term.term) : UNKNOWN_WORD_SHARE * average;
  });
}

/** What an unknown word that is not a name counts, against the average taught word of the question. */
const UNKNOWN_WORD_SHARE = 0.75;

/**
 * The words searched for: the message's own (weight 1), then those an ellipsis carries over from
 * the earlier question, weighing less; for a question about the service itself with no other
 * words ("what can you do?"), the words the guide uses for that.
 */
export function queryOf(message: string, carried: string): QueryTerm[] {
  const query: QueryTerm[] = queryTermsOf(message, 1);
  if (query.length === 0 && ADDRESSES_SERVICE.test(message)) query.push(...queryTermsOf(SELF_QUERY, 1));
  const seen = new Set(query.map((term) => term.term));
  for (const term of queryTermsOf(carried, CARRIED_WEIGHT)) {
    if (seen.has(term.term)) continue;
    seen.add(term.term);
    query.push(term);
  }
  return query;
}

const ADDRESSES_SERVICE = /\b(?:you|your|yourself)\b/i;
/** What a question about the service itself searches for. */
const SELF_QUERY = 'service can chat answer';

/** The lines candidates are drawn from: every retrieved passage, and the lines around one-a-line text. */
function evidenceLines(index: PassageIndex, evidence: readonly Evidence[]): EvidenceLine[] {
  const lines: EvidenceLine[] = [];
  const top = evidence[0]?.rank ?? 1;
  for (const item of evidence) {
    const weight = item === evidence[0] ? 1 : OTHER_PASSAGE_SHARE * (item.rank / top) ** 2;
    const id = item.hit.id;
    lines.push({ text: index.text(id), weight });
    for (const step of [-1, 1] as const) {
      const other = index.neighbour(id, step);
      if (other >= 0) lines.push({ text: index.text(other), weight: weight * NEARBY_SHARE });
    }
  }
  return lines;
}

/** Least rank of a further citation, against the best passage's. */
const FURTHER_CITATION_SHARE = 0.75;

/** What an entry named by an option the question writes ("-c", "--depth") adds to its rank. */
const NAMED_BONUS = 0.6;

/** Command-line options a question writes: "-c", "--connections" (case kept: -c is not -C). */
function flagsIn(message: string): string[] {
  return [...message.matchAll(/(?:^|[\s(`"'])(--?[A-Za-z][\w-]*)/g)].map((match) => match[1]);
}

/** True when an entry's name is one of the options ("-c/--connections NUM", "-c, --count"). */
function namesFlag(name: string | undefined, flags: readonly string[]): boolean {
  if (!name) return false;
  const forms = name.split(/[\s/,|=[\]]+/).filter(Boolean);
  return flags.some((flag) => forms.includes(flag));
}

/** A second answer with at least half the support of the first: the passages disagree. */
function runnerUpOf(candidates: readonly AnswerCandidate[], answer: string | null): string | null {
  const [first, second] = candidates;
  if (!answer || !first || !second) return null;
  return second.score * 2 >= first.score ? second.text : null;
}

function confidentAnswer(candidates: readonly AnswerCandidate[]): string | null {
  const [first, second] = candidates;
  if (!first) return null;
  if (second && second.score * CONFIDENCE_MARGIN > first.score) return null;
  return first.text;
}

/**
 * What a passage says in the reply (see passageSnippet); for one-a-line text, the neighbouring
 * line is added when it holds the answer the passage itself lacks. Null when the passage adds no
 * sentence that earlier snippets did not already give.
 */
function snippetOf(
  model: LanguageModel,
  index: PassageIndex,
  item: Evidence,
  weights: ReadonlyMap<string, number>,
  answer: string | null,
  covered: Set<string>,
  allowSecond: boolean,
): { text: string; block: boolean } | null {
  const id = item.hit.id;
  const snippet = passageSnippet(model, index, id, { weights, answer, allowSecond });
  if (covered.has(snippet.keys[0])) return null;
  for (const key of snippet.keys) covered.add(key);
  let text = snippet.text;
  if (answer && !includesWord(text, answer)) {
    for (const step of [-1, 1] as const) {
      const other = index.neighbour(id, step);
      if (other < 0 || !includesWord(index.text(other), answer)) continue;
      const extra = trimToQuestion(model, index.text(other), weights, answer);
      text = step < 0 ? `${extra} ${text}` : `${text} ${extra}`;
      break;
    }
  }
  return { text, block: snippet.block };
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
function leadOf(shape: QuestionShape, answer: string, snippets: string): string {
  if (!includesWord(snippets, answer)) return '';
  // A piece of an identifier (TAR_ENTRY_INVALID, some.Name) is not an answer of its own.
  if (insideIdentifier(snippets, answer)) return '';
  const text = shape.kind === 'choice' && shape.focus ? `The ${answer} ${shape.focus}` : capitalise(answer);
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

/** What the service says when nothing it was taught answers the question. */
export function unknownReply(unknownWords: readonly string[], coverage: number): string {
  const teach = 'Teach me with POST /api/train (or `npm run train -- FILE`) and ask again.';
  if (unknownWords.length > 0) {
    const list = unknownWords.slice(0, 4).map((word) => `"${word}"`);
    const named =
      list.length === 1 ? list[0] : `${list.slice(0, -1).join(', ')} and ${list[list.length - 1]}`;
    return `I don't know about ${named} yet: nothing I was taught mentions ${list.length === 1 ? 'it' : 'them'}. ${teach}`;
  }
  if (coverage > 0) {
    return `I don't know that yet: nothing I was taught answers it (the closest passage covers ${Math.round(coverage * 100)}% of your question). ${teach}`;
  }
  return `I don't know that yet: I could not find anything about it in what I was taught. ${teach}`;
}

/** Lower-case words of a text, punctuation dropped (for matching quoted phrases). */
function wordsOf(text: string): string[] {
  return text.toLowerCase().match(/[\p{L}\p{N}]+(?:['’][\p{L}\p{N}]+)*/gu) ?? [];
}

/** Length of the longest run of `words` that `text` repeats in the same order. */
function sharedRun(words: readonly string[], text: string): number {
  const other = wordsOf(text);
  let best = 0;
  let previous = new Array<number>(other.length + 1).fill(0);
  for (let i = 1; i <= words.length; i++) {
    const row = new Array<number>(other.length + 1).fill(0);
    for (let j = 1; j <= other.length; j++) {
      if (words[i - 1] === other[j - 1]) {
        row[j] = previous[j - 1] + 1;
        if (row[j] > best) best = row[j];
      }
    }
    previous = row;
  }
  return best;
}
