import { isActionWord, isEnglishWord, isStanceAdverb, relatedWords } from '../lexicon/index.js';
import {
  type PassageHit,
  type PassageIndex,
  type QueryTerm,
  queryTermsOf,
  searchTerm,
} from '../retrieval/index.js';
import {
  CARRIED_WEIGHT,
  REJECTED_WEIGHT,
  RELATED_PER_WORD,
  RELATED_TOTAL,
  RELATED_WEIGHT,
  TOPIC_WORD_SHARE,
  UNKNOWN_WORD_SHARE,
} from './tuning.js';
import type { EvidenceBudget } from './types.js';
import type { Reading } from './understand/index.js';

/** One reading's search: its query, how much each word counts, and the passages it found. */
export interface ReadingSearch {
  reading: Reading;
  query: QueryTerm[];
  /** Per query term, how much it counts towards coverage (its idf, see weightsOf). */
  idf: number[];
  /** How many of the query's terms are the reading's own (weight 1); the rest are carried or related. */
  own: number;
  /** How many terms count towards coverage: the own and the carried ones (not related words). */
  counted: number;
  /** Sum of the counted terms' idf, each times its weight (carried words count less). */
  ownWeight: number;
  /** Words of the message that nothing taught contains. */
  unknownWords: string[];
  /**
   * Whether a never-taught word may be what the question is about: a thing (a noun), not an
   * action or a quality. What a question asks about is named by a noun ("What causes
   * earthquakes?"); a verb the documents never use is the asker's word for what they say in their
   * own ("colors turned off" where the text says "disabled"), so it asks no more of the rest.
   */
  unknownSubject: boolean;
  /** A word written like a name or number that was never taught ("Brazil", "2018"). */
  unknownName: boolean;
  /** The reading's rarest taught own term (index into query), -1 when none. */
  rarest: number;
  /**
   * The carried terms that can tell what the earlier question was about (indexes into query): those
   * found in few passages. A carried word found in many ("files", "see", "git" in Git's manual)
   * is in units about anything, so holding it does not keep a unit on the earlier topic. All the
   * carried terms where none is that rare; empty for a reading that carries nothing.
   */
  topical: number[];
  hits: PassageHit[];
}

/**
 * Gather: the candidate units of every reading of the message, from the passage index (BM25 over
 * the body and the heading path as separate fields). Nothing is ranked here beyond what the
 * index returns; the rank stage scores the candidates of all readings together.
 */
export function gather(
  index: PassageIndex,
  readings: readonly Reading[],
  budget: EvidenceBudget,
  related: boolean,
): ReadingSearch[] {
  return readings.map((reading) => {
    const query = queryOf(reading.question, reading.carried);
    const counted = query.length;
    if (related) addRelatedWords(index, query);
    addRejectedWords(reading.question, query);
    const ownCount = query.filter((term) => term.weight === 1).length;
    const own = ownCount > 0 ? ownCount : query.length;
    const idf = weightsOf(index, query);
    let ownWeight = 0;
    let rarest = -1;
    for (let i = 0; i < counted; i++) ownWeight += idf[i] * query[i].weight;
    for (let i = 0; i < own; i++) {
      if (index.documentFrequency(query[i].term) === 0 || (rarest >= 0 && idf[i] <= idf[rarest])) continue;
      // An adverb of time or stance ("anyway", "instead") may be rare in the text, but it says how
      // the asker relates the question to their situation, not what it is about. (Asked last:
      // only a word that would be the rarest is looked up.)
      if (!isStanceAdverb(query[i].word)) rarest = i;
    }
    const unknown = query.slice(0, own).filter((term) => index.documentFrequency(term.term) === 0);
    const hits = query.length > 0 ? index.search(query, budget.retrieve) : [];
    const carriedTerms = Array.from({ length: counted - own }, (_, k) => own + k);
    const rare = carriedTerms.filter(
      (i) =>
        index.documentFrequency(query[i].term) > 0 &&
        index.documentFrequency(query[i].term) <= index.size * TOPIC_WORD_SHARE,
    );
    return {
      reading,
      query,
      idf,
      own,
      counted,
      ownWeight,
      unknownWords: unknown.map((term) => term.word),
      unknownSubject: unknown.some(
        (term) => !isActionWord(term.word) && !inVerbSlot(reading.question, term.word),
      ),
      // A never-taught word that is no English word (WordNet knows none of its forms) names a tool,
      // a product or a place: what the question is about, and the documents never mention it.
      unknownName:
        unknown.some((term) => term.name || isEnglishWord(term.word) === false) ||
        namesNotFound(index, reading.question, hits),
      rarest,
      topical: rare.length > 0 ? rare : carriedTerms,
      hits,
    };
  });
}

/**
 * Whether a word stands where English puts the main verb of a question: after an auxiliary or a
 * modal and its subject ("does it support …?", "can I pin …?", "how do I rebase …?") or after the
 * "to" of an infinitive ("how to vendor …"). A word that is a noun as often as a verb ("support",
 * "fork") is then the action asked about, not the thing (see `unknownSubject`).
 */
function inVerbSlot(question: string, word: string): boolean {
  const words: string[] = question.toLowerCase().match(/[\p{L}\p{N}'’-]+/gu) ?? [];
  const at = words.indexOf(word.toLowerCase());
  if (at < 1) return false;
  if (words[at - 1] === 'to') return true;
  return at >= 2 && VERB_SLOT_AUXILIARIES.has(words[at - 2]) && VERB_SLOT_SUBJECTS.has(words[at - 1]);
}

const VERB_SLOT_AUXILIARIES = new Set(
  'do does did can could will would should shall may might must'.split(' '),
);
const VERB_SLOT_SUBJECTS = new Set('i you we they it he she this that one'.split(' '));

/**
 * A proper name of several capitalised words ("Dead Sea Scrolls", "Gospel of Thomas", "Visual
 * Studio Code") names one thing: passages that hold only its parts ("sea", "Thomas", "code") are
 * about other things. When no candidate holds the whole name, the documents do not mention what
 * the question is about. Written in the question's own capitals, so all-capital words (acronyms,
 * SQL keywords) and "and" (two names, "Moses and Aaron") do not join a name; a question written in
 * title case says nothing by its capitals and is left alone.
 */
export function namePhrases(question: string): string[] {
  // A possessive ends a name ("Rust's Actix Web": two names) as a comma or a full stop does.
  const tokens = question
    .replace(/['’]s\b/g, ' , ')
    .split(/\s+/)
    .flatMap((token) =>
      /[,.;:!?()"]$/.test(token) ? [token.replace(/[^\p{L}\p{N}'-]+$/u, ''), ','] : [token],
    )
    .filter(Boolean);
  const capital = (word: string) => /^\p{Lu}.*\p{Ll}/u.test(word);
  const words = tokens.filter((token) => token !== ',');
  if (words.slice(1).every((word) => capital(word) || FUNCTION_WORDS.has(word))) return [];
  const names: string[] = [];
  let run: string[] = [];
  let capitals = 0;
  const close = () => {
    while (run.length > 0 && !capital(run[run.length - 1])) run.pop();
    if (capitals >= 2)
      names.push(
        run
          .join(' ')
          .toLowerCase()
          .replace(/[^\p{L}\p{N}'-]+/gu, ' '),
      );
    run = [];
    capitals = 0;
  };
  for (const [i, word] of tokens.entries()) {
    // The first word is capitalised by the sentence, not by the name.
    if (i > 0 && capital(word)) {
      run.push(word);
      capitals++;
    } else if (run.length > 0 && NAME_JOINERS.has(word)) run.push(word);
    else close();
  }
  close();
  return names;
}

/** Words a title-case question leaves in lower case. */
const FUNCTION_WORDS = new Set([
  'I',
  'a',
  'an',
  'the',
  'of',
  'and',
  'or',
  'in',
  'on',
  'to',
  'for',
  'with',
  'at',
  'by',
]);

/** Lower-case words inside a proper name: "Church of the Holy Sepulchre". */
const NAME_JOINERS = new Set(['of', 'the', 'de', 'von', 'van', 'da', 'del']);

function namesNotFound(index: PassageIndex, question: string, hits: readonly PassageHit[]): boolean {
  const names = namePhrases(question);
  if (names.length === 0) return false;
  const flat = (text: string) =>
    ` ${text
      .toLowerCase()
      .replace(/['’]s\b/g, '')
      .replace(/[^\p{L}\p{N}'-]+/gu, ' ')} `;
  return names.some((name) => !hits.some((hit) => flat(index.text(hit.id)).includes(` ${name} `)));
}

/**
 * A follow-up that carries the earlier question's words ("how do I undo it?") is about that
 * question's topic: a unit that holds none of those words answers the new words about something
 * else. Only the carried words that can tell a topic count (`topical`): "does it go into untracked
 * folders too?" after a question about `git clean` is not kept on the topic by a unit about a mail
 * folder that says "files" too. True for a reading that carries nothing.
 */
export function keepsTopic(search: ReadingSearch, hit: PassageHit): boolean {
  if (search.counted <= search.own) return true;
  return hit.matched.some((i) => search.topical.includes(i));
}

/**
 * The words searched for: the message's own (weight 1), then those carried over from the earlier
 * question, weighing less; for a question about the service itself with no other words ("what
 * can you do?"), the words the guide uses for that.
 */
export function queryOf(message: string, carried: string): QueryTerm[] {
  const query: QueryTerm[] = queryTermsOf(withoutRejected(message), 1);
  if (query.length === 0 && ADDRESSES_SERVICE.test(message)) query.push(...queryTermsOf(SELF_QUERY, 1));
  const seen = new Set(query.map((term) => term.term));
  for (const term of queryTermsOf(withoutRejected(carried), CARRIED_WEIGHT)) {
    if (seen.has(term.term)) continue;
    seen.add(term.term);
    query.push(term);
  }
  return query;
}

/**
 * A question that names an alternative it rejects ("render it on the client rather than on the
 * server", "instead of a full copy") asks about the other side of the contrast: the rejected
 * words are what the answer is not about, and searching for them (or requiring them, when one is
 * the rarest) finds passages about the alternative. The contrast runs to the end of its clause.
 * On the tuning halves: hits unchanged (one gained, one lost), leads +1, wrong-cited -1; held
 * out unchanged (docs/benchmarks.md, sixteenth round).
 */
function withoutRejected(text: string): string {
  return text.replace(REJECTED_ALTERNATIVE, ' ');
}

/**
 * The rejected alternative's words are still searched, at a low weight and never counted as
 * covering the question: a passage that contrasts the two ("renders on the client, not on the
 * server") is nearer than one that says neither.
 */
function addRejectedWords(question: string, query: QueryTerm[]): void {
  const seen = new Set(query.map((term) => term.term));
  for (const match of question.matchAll(REJECTED_ALTERNATIVE)) {
    for (const term of queryTermsOf(match[0], REJECTED_WEIGHT)) {
      if (seen.has(term.term)) continue;
      seen.add(term.term);
      query.push(term);
    }
  }
}

const REJECTED_ALTERNATIVE = /\b(?:rather than|instead of|as opposed to)\b[^,;:?!.]*/giu;

const ADDRESSES_SERVICE = /\b(?:you|your|yourself)\b/i;
/** What a question about the service itself searches for. */
const SELF_QUERY = 'service can chat answer';

/**
 * How much each query word counts towards coverage: its BM25 idf when it was taught. A word never
 * taught counts fully (the highest idf) when written like a name or a number ("France", "2018"):
 * the question is about something unknown. Another unknown word ("last", "handled") is more
 * likely a paraphrase, and counts less than an average word of the question.
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
