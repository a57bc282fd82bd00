import { type PassageHit, type PassageIndex, searchTerm, termsOf } from '../retrieval/index.js';
import { escapeRegExp, splitSentences } from '../text/index.js';
import { keepsTopic, type ReadingSearch } from './gather.js';
import {
  ANSWER_COVERAGE,
  BM25_SHARE,
  NAMED_BONUS,
  NEARBY_SHARE,
  NEAREST_COVERAGE,
  NOT_EXAMPLE_PENALTY,
  OPPOSITE_STATE_PENALTY,
  OWN_HEADING_BONUS,
  POINTER_PENALTY,
  PRIOR_DOCUMENT_BONUS,
  PRIOR_SECTION_BONUS,
  PROXIMITY_BONUS,
  RAREST_MISSING_PENALTY,
  RELATED_SHARE,
  REPEAT_PENALTY,
  RUN_BONUS,
  TITLE_BONUS,
  UNIT_KIND_BONUS,
} from './tuning.js';
import type { UnitWanted } from './understand/index.js';
import { definedTerm, normalTerm } from './understand/shape.js';
import { DEFAULT, REASON } from './wording.js';

/** A candidate unit judged as evidence for one reading of the message. */
export interface Evidence {
  hit: PassageHit;
  /** Index of the reading (into the gathered searches) it was found for. */
  reading: number;
  /** Share of the reading's weighted words the unit (with its heading and neighbours) covers, 0-1. */
  coverage: number;
  /** The same as an amount: the idf (times weight) of the words covered, comparable across readings. */
  covered: number;
  /** Whether the unit holds the reading's rarest taught word (in its body, heading or neighbours). */
  hasRarest: boolean;
  /** 0-1: how close together the question's words stand in the unit (1: side by side). */
  proximity: number;
  /** Whether the unit is of the kind the question wants (an option entry, a default, a command). */
  fitsWanted: boolean;
  /** The parts its rank weighs (`rankOf`); absent on evidence made by hand in a test. */
  features?: RankFeatures;
  rank: number;
}

/** The parts of a unit's rank, each before its weight (`RANK_WEIGHTS`). */
export interface RankFeatures {
  /** Share of the question's weighted words the unit covers (`Evidence.coverage`). */
  coverage: number;
  /** Its BM25 against the best of its reading, 0-1. */
  bm25: number;
  /** Words of the longest run of the message's words it repeats, past the first (at most 6). */
  run: number;
  /** An entry named by an option or term the question writes: its bonus (NAMED_BONUS, more for the entry's first unit). */
  named: number;
  proximity: number;
  /** 1 when the unit is of the kind the question wants. */
  kind: number;
  /** Share of the question's words the document's file name holds. */
  title: number;
  /** 1 when its innermost heading holds the rarest word. */
  ownHeading: number;
  /** The earlier answer's place, for a resolved follow-up: its bonus or penalty, signed. */
  prior: number;
  /** 1 when it holds the message's phrasal verb only with the opposite particle. */
  opposite: number;
  /** 1 when it lacks the rarest word another unit has. */
  rarestMissing: number;
  /** 1 when it lacks the earlier topic another unit keeps (a follow-up). */
  offTopic: number;
  /** 1 when all it says is where to read more ("For more on X, see Y."). */
  pointer: number;
  /** 1 when an example is asked for and it is no code, while another unit is. */
  notExample: number;
}

/**
 * What each part of the rank weighs (tuning.ts says why each is what it is). `npm run bench:rank`
 * ranks the bench sets' candidates again under other weights, to refit them on the tuning halves.
 */
export const RANK_WEIGHTS: Readonly<RankFeatures> = {
  coverage: 1,
  bm25: BM25_SHARE,
  run: RUN_BONUS,
  named: 1,
  proximity: PROXIMITY_BONUS,
  kind: UNIT_KIND_BONUS,
  title: TITLE_BONUS,
  ownHeading: OWN_HEADING_BONUS,
  prior: 1,
  opposite: -OPPOSITE_STATE_PENALTY,
  rarestMissing: -RAREST_MISSING_PENALTY,
  offTopic: -RAREST_MISSING_PENALTY,
  pointer: -POINTER_PENALTY,
  notExample: -NOT_EXAMPLE_PENALTY,
};

/** A unit's rank: its features, weighed. */
export function rankOf(features: RankFeatures, weights: Readonly<RankFeatures> = RANK_WEIGHTS): number {
  return (
    weights.coverage * features.coverage +
    weights.bm25 * features.bm25 +
    weights.run * features.run +
    weights.named * features.named +
    weights.proximity * features.proximity +
    weights.kind * features.kind +
    weights.title * features.title +
    weights.ownHeading * features.ownHeading +
    weights.prior * features.prior +
    weights.opposite * features.opposite +
    weights.rarestMissing * features.rarestMissing +
    weights.offTopic * features.offTopic +
    weights.pointer * features.pointer +
    weights.notExample * features.notExample
  );
}

/**
 * Rank: scores the candidates of every reading together, by general evidence only: how much of
 * the question (weighted by rarity) the unit covers in its fields (body, heading path, names,
 * neighbours); its BM25; the question's words standing close together; the rarest word present;
 * the unit's kind against the question's shape; a quotation; an option the question names; the
 * earlier answer's section for a reading resolved against the conversation. Best first.
 */
export function rank(index: PassageIndex, searches: readonly ReadingSearch[], message: string): Evidence[] {
  const messageWords = wordsOf(message);
  const messagePositions = positionsOf(messageWords);
  const flags = flagsIn(message);
  const defined = definedTerm(message);
  const all: Evidence[] = [];
  searches.forEach((search, reading) => {
    const topScore = search.hits[0]?.score ?? 0;
    const ownTerms = new Set(search.query.slice(0, search.own).map((term) => term.term));
    // A file's title is the same for all its hits: its share is worked out once per reading.
    const titles = new Map<string, number>();
    const titleOf = (file: string) => {
      const known = titles.get(file);
      if (known !== undefined) return known;
      const share = titleShare(file, ownTerms);
      titles.set(file, share);
      return share;
    };
    const rarest = topicRarest(search);
    const items = search.hits.map((hit) =>
      judgeHit(
        index,
        search,
        rarest,
        reading,
        hit,
        topScore,
        messageWords,
        messagePositions,
        flags,
        defined,
        ownTerms,
        titleOf,
      ),
    );
    // The rarest taught word is what the question is about: while a unit that has it answers
    // the question well enough, one without it is never the answer. (When none that has it
    // does, the word may be a paraphrase of what the text says, and it is not required.)
    const example = search.reading.shape.wants === 'example';
    if (!example && rarestRequired(items)) {
      for (const item of items) {
        if (item.hasRarest) continue;
        item.rank += RANK_WEIGHTS.rarestMissing;
        if (item.features) item.features.rarestMissing = 1;
      }
    }
    // A follow-up that carries the earlier question's words is about that question's topic: a
    // unit that holds none of them answers something else (the judge never states it as the
    // answer), so it is not the reading's best while another unit keeps the topic.
    if (search.counted > search.own && items.some((item) => keepsTopic(search, item.hit))) {
      for (const item of items) {
        if (keepsTopic(search, item.hit)) continue;
        item.rank += RANK_WEIGHTS.offTopic;
        if (item.features) item.features.offTopic = 1;
      }
    }
    // An example asked for ("show me an example") is code: while a unit that covers enough of the
    // question is one (a code block, or the sentence right before one), prose is never the
    // example, however well it matches (it is most often what the reader was just shown). The
    // rarest word of the question is not required of it: an example shows what was asked about,
    // seldom in the words of the question ("what does the prefix option passed to register do?").
    if (example && items.some((item) => item.fitsWanted && item.coverage >= NEAREST_COVERAGE)) {
      for (const item of items) {
        if (item.fitsWanted) continue;
        item.rank += RANK_WEIGHTS.notExample;
        if (item.features) item.features.notExample = 1;
      }
    }
    all.push(...items);
  });
  return all.sort((a, b) => b.rank - a.rank || a.hit.id - b.hit.id);
}

/**
 * Whether the rarest word is required of a reading's units: while a unit that has it covers the
 * question well enough, one without it is never the answer (rank lowers it, the judge never
 * states it). When none that has it does, the word may be a paraphrase of what the text says.
 */
export function rarestRequired(items: readonly Evidence[]): boolean {
  return items.some((item) => item.hasRarest && item.coverage >= ANSWER_COVERAGE);
}

/**
 * The word a unit must hold to be the answer: the reading's rarest taught word. For a follow-up
 * read with the earlier question's words carried, the conversation has already said what it is
 * about: a word of the message that no unit keeping that topic holds is used there in another
 * sense or paraphrased ("carry on in the background" where the text says "resume ... in the
 * background"; "carry" is found only in a licence), so the rarest word that some unit on the
 * topic holds is required instead.
 */
function topicRarest(search: ReadingSearch): number {
  const { rarest, own, counted, hits, idf } = search;
  if (rarest < 0 || counted <= own) return rarest;
  const onTopic = hits.filter((hit) => keepsTopic(search, hit));
  if (onTopic.length === 0) return rarest;
  const held = (i: number) => onTopic.some((hit) => hit.matched.includes(i) || hit.matchedNearby.includes(i));
  if (held(rarest)) return rarest;
  let best = -1;
  for (let i = 0; i < own; i++) {
    if (search.unknownWords.includes(search.query[i].word) || !held(i)) continue;
    if (best < 0 || idf[i] > idf[best]) best = i;
  }
  // No unit on the topic holds any word of the message's own ("how do I undo it?" where only a
  // migration tool's "undo" is found): what the message asks is not there, and the rarest word
  // stays required.
  return best < 0 ? rarest : best;
}

/**
 * The amount of the reading's words a unit covers, each by its weight: fully where the unit, its
 * heading or its names hold it, a share where a related word stands for it or only a neighbour
 * holds it. `without` (an index into the query) leaves one word of the question out.
 */
export function coveredBy(search: ReadingSearch, hit: PassageHit, without = -1): number {
  const { query, idf, counted } = search;
  let covered = 0;
  let stoodFor: Set<number> | undefined;
  for (const i of hit.matched) {
    if (i === without) continue;
    if (i < counted) covered += idf[i] * query[i].weight;
    const parent = query[i].expands;
    if (
      parent !== undefined &&
      parent !== without &&
      !hit.matched.includes(parent) &&
      !stoodFor?.has(parent)
    ) {
      stoodFor ??= new Set();
      stoodFor.add(parent);
      covered += RELATED_SHARE * idf[parent] * query[parent].weight;
    }
  }
  for (const i of hit.matchedNearby)
    if (i < counted && i !== without) covered += NEARBY_SHARE * idf[i] * query[i].weight;
  return covered;
}

/**
 * A follow-up read with the earlier question's words carried, none of whose own words was ever
 * taught ("and how do I undo that?" where nothing says "undo"): its own words say what is asked
 * now, and the carried words alone find only the earlier topic, which is not that.
 */
function ownNeverTaught(search: ReadingSearch): boolean {
  return search.counted > search.own && search.own > 0 && search.unknownWords.length >= search.own;
}

function judgeHit(
  index: PassageIndex,
  search: ReadingSearch,
  rarest: number,
  reading: number,
  hit: PassageHit,
  topScore: number,
  messageWords: readonly string[],
  messagePositions: MessagePositions,
  flags: readonly string[],
  defined: string | null,
  ownTerms: ReadonlySet<string>,
  titleOf: (file: string) => number,
): Evidence {
  const { query } = search;
  const covered = coveredBy(search, hit);
  const coverage = search.ownWeight > 0 ? Math.min(1, covered / search.ownWeight) : 0;
  const hasRarest =
    rarest < 0 ? !ownNeverTaught(search) : hit.matched.includes(rarest) || hit.matchedNearby.includes(rarest);
  const text = index.text(hit.id);
  const words = passageWords(index, hit.id, text);
  const proximity = proximityOfWords(words, ownTerms);
  const fitsWanted = fits(index, hit.id, text, search.reading.shape.wants);
  const run = messageWords.length > 1 ? sharedRun(messagePositions, words) : messageWords.length;
  const section = index.section(hit.id);
  const namedEntry = flags.length > 0 && headingNames(section.path.at(-1), flags);
  // A reference entry opens with what its name is: the first unit under a heading the question
  // names is the definition ("SQLITE_BUSY: The database file could not be written ...").
  // A glossary or reference entry named exactly what a "what is X?" question asks about defines it.
  const named =
    (flags.length > 0 && namesFlag(index.names.get(hit.id), flags)) ||
    (defined !== null && sameTerm(index.names.get(hit.id), defined))
      ? NAMED_BONUS
      : namedEntry
        ? NAMED_BONUS + (index.sibling(hit.id, -1) < 0 ? UNIT_KIND_BONUS : 0)
        : 0;
  const title = section.file ? titleOf(section.file) : 0;
  const ownHeading = rarest >= 0 && innermostHeadingHolds(index, hit.id, query[rarest].term);
  // A phrasal verb is read with its particle ("turn on" and "turn off" are antonyms): in a
  // follow-up about turning a thing on, a unit that holds the verb only with the opposite particle
  // ("enforcement is turned off by default", most likely what the conversation has just said)
  // holds the search word "turn" but says the opposite state, not how to reach the one asked.
  const opposite =
    search.reading.resolved &&
    rarest >= 0 &&
    oppositeParticle(search.reading.question, query[rarest].word, text);
  const priorBonus = priorBonusOf(index, search, hit, rarest, opposite);
  const features: RankFeatures = {
    coverage,
    bm25: topScore > 0 ? hit.score / topScore : 0,
    run: Math.min(6, Math.max(0, run - 1)),
    named,
    proximity,
    kind: fitsWanted ? 1 : 0,
    title,
    ownHeading: ownHeading ? 1 : 0,
    prior: priorBonus,
    opposite: opposite ? 1 : 0,
    rarestMissing: 0,
    offTopic: 0,
    pointer: onlyPoints(text) ? 1 : 0,
    notExample: 0,
  };
  return {
    hit,
    reading,
    coverage,
    covered,
    hasRarest,
    proximity,
    fitsWanted,
    features,
    rank: rankOf(features),
  };
}

/**
 * The earlier answer's place as a prior, for a follow-up. A follow-up asks for something the
 * earlier answer did not give: the units it quoted (every one, not only the first) are the one
 * place the answer is not, while the first one's section and document are where to look next.
 * A quoted unit is pushed down, unless it holds the word the message is most about (then it says
 * what is asked now too; the reader may have passed over it) or the reply showed only part of it
 * (cut with "…": the answer may be in what was not shown).
 * All this only for a unit that holds some of the message's own words (one that matches only the
 * carried words is about the earlier question, and is judged by them), unless none of them was
 * ever taught ("how do I turn that on?" where the text never says "turn"): then every unit matches
 * only the carried words, and the one the reader was just shown is still no answer now.
 */
function priorBonusOf(
  index: PassageIndex,
  search: ReadingSearch,
  hit: PassageHit,
  rarest: number,
  opposite: boolean,
): number {
  const { prior, said, partly } = search.reading;
  if (prior < 0) return 0;
  const neverTaught = ownNeverTaught(search);
  if (!neverTaught && !hit.matched.some((i) => i < search.own)) return 0;
  if (said.includes(hit.id)) {
    if (partly?.includes(hit.id)) return 0;
    const holdsRarest = !neverTaught && rarest >= 0 && hit.matched.includes(rarest) && !opposite;
    return holdsRarest ? 0 : -REPEAT_PENALTY;
  }
  if (neverTaught) return 0;
  if (index.sectionIdOf(prior) === index.sectionIdOf(hit.id)) return PRIOR_SECTION_BONUS;
  const file = index.section(prior).file;
  return file !== undefined && file === index.section(hit.id).file ? PRIOR_DOCUMENT_BONUS : 0;
}

/**
 * Whether a text holds the message's phrasal verb only with the opposite particle: "turned off"
 * for "how do I turn them on?". The particle is part of such a verb's meaning ("turn on" and "turn
 * off" are antonyms), so a passage that says the thing is turned off does not hold what a
 * question about turning it on asks, though the search word "turn" matches. Only the first
 * particle the question gives its verb counts, within two words of it ("turn them on").
 */
function oppositeParticle(question: string, verb: string, text: string): boolean {
  const asked = askedParticle(question, verb);
  if (!asked) return false;
  const found = [...text.matchAll(asked.pattern)].map((match) => match[2].toLowerCase());
  return found.length > 0 && found.every((each) => each === asked.opposite);
}

/** The verb's phrasal pattern and the particle opposite the question's, worked out once per question. */
const askedParticles = new Map<string, { pattern: RegExp; opposite: string } | null>();

function askedParticle(question: string, verb: string): { pattern: RegExp; opposite: string } | null {
  const key = `${verb}\u0000${question}`;
  const known = askedParticles.get(key);
  if (known !== undefined) return known;
  const pattern = new RegExp(
    `\\b${escapeRegExp(verb)}\\p{L}*((?:\\s+[\\p{L}'’]+){0,2}?)\\s+(on|off|up|down|in|out)\\b`,
    'giu',
  );
  const particle = [...question.matchAll(pattern)][0]?.[2].toLowerCase();
  const opposite = particle ? OPPOSITE_PARTICLES[particle] : undefined;
  const asked = opposite ? { pattern, opposite } : null;
  if (askedParticles.size >= CACHED_PER_INDEX) askedParticles.clear();
  askedParticles.set(key, asked);
  return asked;
}

const OPPOSITE_PARTICLES: Record<string, string | undefined> = {
  on: 'off',
  off: 'on',
  up: 'down',
  down: 'up',
  in: 'out',
  out: 'in',
};

/**
 * How close together the question's words stand in a text: over the shortest stretch of words
 * that holds every question word the text has, (words found - 1) / (stretch length - 1); 0 when
 * it holds fewer than two. Words that belong together in the question are usually written
 * together in the passage that answers it.
 */
export function proximityOf(text: string, terms: ReadonlySet<string>): number {
  return proximityOfWords(wordsOf(text), terms);
}

function proximityOfWords(words: readonly string[], terms: ReadonlySet<string>): number {
  if (terms.size < 2) return 0;
  const positions: { at: number; term: string }[] = [];
  for (let at = 0; at < words.length; at++) {
    const term = searchTerm(words[at]);
    if (term && terms.has(term)) positions.push({ at, term });
  }
  const distinct = new Set(positions.map((position) => position.term)).size;
  if (distinct < 2) return 0;
  // The shortest window holding all `distinct` terms (two pointers over the positions).
  const counts = new Map<string, number>();
  let have = 0;
  let best = Number.POSITIVE_INFINITY;
  let left = 0;
  for (let right = 0; right < positions.length; right++) {
    const term = positions[right].term;
    counts.set(term, (counts.get(term) ?? 0) + 1);
    if (counts.get(term) === 1) have++;
    while (have === distinct) {
      best = Math.min(best, positions[right].at - positions[left].at + 1);
      const leftTerm = positions[left].term;
      counts.set(leftTerm, (counts.get(leftTerm) ?? 0) - 1);
      if (counts.get(leftTerm) === 0) have--;
      left++;
    }
  }
  return (distinct - 1) / Math.max(distinct - 1, best - 1);
}

/**
 * Whether a unit is of the kind the question's shape wants: a unit that names a setting (an
 * entry with a name, an option, inline code, a heading written as an identifier) for "which
 * option ..."; one that states a default for a question about defaults; a command or an
 * instruction for "how do I ..."; a sentence that gives a reason for "why".
 */
function fits(index: PassageIndex, id: number, text: string, wants: UnitWanted): boolean {
  switch (wants) {
    case 'name': {
      if (index.names.has(id)) return true;
      const heading = index.section(id).path.at(-1) ?? '';
      return OPTION_LIKE.test(text) || IDENTIFIER.test(heading) || /`[^`]+`/.test(index.display(id));
    }
    case 'default':
      return DEFAULT.test(text);
    case 'procedure':
      return isOrAnnouncesCode(index, id) || /`[^`]+`/.test(index.display(id));
    case 'example':
      // An example is code itself, not a command named inline.
      return isOrAnnouncesCode(index, id);
    case 'reason':
      return REASON.test(text);
    default:
      return false;
  }
}

/** A code block, or the unit right before one in its section (which announces it). */
function isOrAnnouncesCode(index: PassageIndex, id: number): boolean {
  if (index.kindOf(id) === 'code') return true;
  const next = index.sibling(id, 1);
  return next >= 0 && index.kindOf(next) === 'code';
}

/**
 * A cross-reference: a sentence that sends the reader elsewhere ("See also X.", "For more on
 * interactive mode, see Interactive Mode.", "Refer to the FAQ."). It repeats the words of what it
 * points to, so it matches a question about that as well as the text that answers it, and says
 * nothing itself.
 */
const POINTER =
  /^(?:see(?:\s+also)?\b|refer\s+to\b|(?:for|to\s+learn)\s+(?:more|further|details|additional|information|an?\s+(?:overview|explanation|list|description))\b[^.]*?\b(?:see|refer\s+to|read|consult)\b)/i;

/** Whether every sentence of a unit is a cross-reference, so the unit answers nothing by itself. */
function onlyPoints(text: string): boolean {
  // Its first sentence must point, so the text's opening decides for nearly every unit.
  if (text.length > 300 || !POINTER.test(text.trimStart())) return false;
  const sentences = splitSentences(text);
  return sentences.length > 0 && sentences.every((sentence) => POINTER.test(sentence.trim()));
}

/** A command-line option ("-z", "--keep") or a setting written key=value. */
const OPTION_LIKE = /(?:^|[\s(,[])--?[A-Za-z][\w-]*|\b\w+=\S/;
/** A heading written as an identifier: one word with _ . - or inner capitals, or a name and its type ("retries (Number)"). */
const IDENTIFIER = /^\s*(?:[\w.-]*[_.][\w.-]+|[a-z]+[A-Z]\w*|--?[\w-]+|`[^`]+`|\S+\s*\([^)]*\))\s*$/;

/** Share of the question's words the document's file name holds ("tar.html" for a question about tar). */
function titleShare(file: string, terms: ReadonlySet<string>): number {
  const words = file
    .replace(/\.[a-z0-9]+$/i, '')
    .split(/[^\p{L}\p{N}]+/u)
    .map((word) => (word ? searchTerm(word) : null))
    .filter((term): term is string => term !== null);
  if (words.length === 0 || terms.size === 0) return 0;
  return words.filter((term) => terms.has(term)).length / Math.min(words.length, terms.size);
}

/**
 * Names a question writes as the code does: command-line options ("-c", "--connections"; case
 * kept: -c is not -C) and identifiers (`SQLITE_BUSY`, `page_size`, `genReqId`, `fastify.close`).
 * A reference entry is written under its name, so a question that writes the name asks for it.
 */
function flagsIn(message: string): string[] {
  const options = [...message.matchAll(/(?:^|[\s(`"'])(--?[A-Za-z][\w-]*)/g)].map((match) => match[1]);
  const identifiers = [
    ...message.matchAll(/(?:^|[\s(`"'])([A-Za-z][\w]*(?:[_.][\w]+)+|[a-z]+[A-Z]\w*)(?=[\s)`"'?.,!:;]|$)/g),
  ].map((match) => match[1].replace(/\.$/, ''));
  return [...options, ...identifiers];
}

/** True when an entry's name is the term (any of its comma-separated spellings). */
function sameTerm(name: string | undefined, term: string): boolean {
  if (!name) return false;
  return name.split(/\s*,\s*/).some((spelling) => normalTerm(spelling) === term);
}

/** True when a section's heading is written as one of the names: "(5) SQLITE_BUSY", "`page_size`", "genReqId". */
function headingNames(heading: string | undefined, names: readonly string[]): boolean {
  if (!heading) return false;
  const forms = heading.split(/[\s,()`[\]]+/).filter(Boolean);
  return names.some((name) => forms.includes(name));
}

/** True when an entry's name is one of the options ("-c/--connections NUM", "-c, --count"). */
function namesFlag(name: string | undefined, flags: readonly string[]): boolean {
  if (!name) return false;
  const forms = name.split(/[\s/,|=[\]]+/).filter(Boolean);
  return flags.some((flag) => forms.includes(flag));
}

/**
 * Whether the innermost heading of a unit's section holds a search term. The heading path is one
 * field for the index (the chapter's words count for every section under it), but its last
 * heading names what this section is about: a unit under "Command line completion" is about
 * completion, one under "Command line completion > Context" about the context of it. A question's
 * rarest word in the innermost heading puts the unit in the section about that word rather than in
 * a subsection about something else, or merely in the chapter about it.
 */
function innermostHeadingHolds(index: PassageIndex, id: number, term: string): boolean {
  const section = index.sectionIdOf(id);
  const terms = cachedFor(headingCache, index, section, () => {
    const last = index.sections[section]?.path.at(-1);
    // termsOf, as the index reads a heading: "markDirectories" holds "directories" too.
    return new Set(last ? termsOf(last) : []);
  });
  return terms.has(term);
}

/** The terms of a section's innermost heading, kept per section: the same sections come back message after message. */
const headingCache = new WeakMap<PassageIndex, Map<number, ReadonlySet<string>>>();

/** Entries kept per index in each cache; past it the cache starts afresh (memory stays bounded). */
const CACHED_PER_INDEX = 20_000;

/** A value worked out once per index and key (a passage, a section), kept while the index lives. */
function cachedFor<T>(
  caches: WeakMap<PassageIndex, Map<number, T>>,
  index: PassageIndex,
  key: number,
  make: () => T,
): T {
  let cache = caches.get(index);
  if (!cache || cache.size >= CACHED_PER_INDEX) {
    cache = new Map();
    caches.set(index, cache);
  }
  let value = cache.get(key);
  if (value === undefined) {
    value = make();
    cache.set(key, value);
  }
  return value;
}

/** Lower-case words of a text, punctuation dropped (for matching quoted phrases). */
function wordsOf(text: string): string[] {
  return text.toLowerCase().match(/[\p{L}\p{N}]+(?:['’][\p{L}\p{N}]+)*/gu) ?? [];
}

/** Where each word of the message stands in it, worked out once per message. */
interface MessagePositions {
  length: number;
  at: ReadonlyMap<string, readonly number[]>;
}

function positionsOf(words: readonly string[]): MessagePositions {
  const at = new Map<string, number[]>();
  words.forEach((word, i) => {
    const list = at.get(word);
    if (list) list.push(i);
    else at.set(word, [i]);
  });
  return { length: words.length, at };
}

/** A passage's lower-case words, kept per passage: the same units come back message after message. */
const wordsCache = new WeakMap<PassageIndex, Map<number, string[]>>();

function passageWords(index: PassageIndex, id: number, text: string): string[] {
  return cachedFor(wordsCache, index, id, () => wordsOf(text));
}

/** The rows and touched cells of `sharedRun`, reused from call to call (all zero between calls). */
let runRows = [new Int32Array(32), new Int32Array(32)];
let runTouched = [new Int32Array(32), new Int32Array(32)];

/**
 * Length of the longest run of the message's words that a text repeats in the same order: one
 * row of the longest-common-substring table, touched only where a text word is a message word.
 */
function sharedRun(message: MessagePositions, text: readonly string[]): number {
  const size = message.length + 1;
  if (runRows[0].length < size) {
    runRows = [new Int32Array(2 * size), new Int32Array(2 * size)];
    runTouched = [new Int32Array(2 * size), new Int32Array(2 * size)];
  }
  let best = 0;
  // previous[i + 1]: the run ending at message word i and the previous text word.
  let [previous, current] = runRows;
  let [touched, next] = runTouched;
  let touchedCount = 0;
  for (let w = 0; w < text.length; w++) {
    const at = message.at.get(text[w]);
    if (!at && touchedCount === 0) continue;
    let nextCount = 0;
    if (at) {
      for (let k = 0; k < at.length; k++) {
        const i = at[k];
        const run = previous[i] + 1;
        current[i + 1] = run;
        next[nextCount++] = i + 1;
        if (run > best) best = run;
      }
    }
    for (let k = 0; k < touchedCount; k++) previous[touched[k]] = 0;
    const row = previous;
    previous = current;
    current = row;
    const cells = touched;
    touched = next;
    next = cells;
    touchedCount = nextCount;
  }
  for (let k = 0; k < touchedCount; k++) previous[touched[k]] = 0;
  return best;
}
