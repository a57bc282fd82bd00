import { keepsTopic, type ReadingSearch } from './gather.js';
import { coveredBy, type Evidence, RANK_WEIGHTS, rarestRequired } from './rank.js';
import {
  ANSWER_COVERAGE,
  ANSWER_COVERAGE_UNKNOWN_WORD,
  ANSWER_SCORE,
  FRAGILE_LEAD_WORDS,
  NEAREST_COVERAGE,
  NEAREST_COVERAGE_UNKNOWN_WORD,
  NEAREST_SCORE,
  PRIOR_SECTION_BONUS,
  RESOLVED_ANSWER_SCORE,
  RESOLVED_MARGIN,
  SCORE_BIAS,
  SCORE_COVERAGE,
  SCORE_MARGIN,
} from './tuning.js';
import type { Confidence } from './types.js';
import { definedTerm } from './understand/shape.js';

/** The unit chosen to answer from, and how sure the evidence makes the reply. */
export interface Judgement {
  best: Evidence | undefined;
  confidence: Confidence;
  /** Why the level is what it is, for `thought`. */
  reason: string;
}

/**
 * Judge: a confidence from the evidence. `answer` when the best unit covers enough of the
 * question (more when a word of it was never taught), holds its rarest taught word, and no name
 * or number of the question is unknown; `nearest` when it covers some of it, or would answer but
 * lacks the rarest word (a paraphrase, or another subject); else `none`.
 * Between the readings of a follow-up, the one resolved against the conversation wins only where
 * its evidence is stronger and it reaches `answer`.
 */
export function judge(searches: readonly ReadingSearch[], ranked: readonly Evidence[]): Judgement {
  const bestOf = (reading: number) => ranked.find((item) => item.reading === reading);
  const asWritten = bestOf(0);
  const resolvedIndex = searches.findIndex((search) => search.reading.resolved);
  const resolved = resolvedIndex >= 0 ? bestOf(resolvedIndex) : undefined;
  const writtenJudgement = levelOf(searches[0], asWritten, ranked);
  if (resolved) {
    const resolvedJudgement = levelOf(searches[resolvedIndex], resolved, ranked);
    // Evidence compared as an amount: the resolved reading has more words to match, so the share
    // of them a unit covers is no measure across readings; what it covers of the question is.
    // Where both readings choose the same unit the evidence cannot tell them apart, and the
    // resolved reading says more of what is asked of that unit: "what about the keep-alive
    // timeout?" after a question about a default asks for the default too, which only the
    // earlier question's shape, kept in the resolved reading, tells the extraction.
    const stronger =
      !asWritten ||
      writtenJudgement.confidence.level !== 'answer' ||
      resolved.hit.id === asWritten.hit.id ||
      resolved.covered > asWritten.covered * (1 + RESOLVED_MARGIN);
    const answers = resolvedJudgement.confidence.level === 'answer' && stronger;
    // A message that leans on the conversation only by a repeated noun may still ask something
    // of its own: the resolved reading wins only as a fresh question would, and otherwise the
    // answer as written stands.
    if (searches[resolvedIndex].reading.tentative) {
      return answers && resolvedJudgement.confidence.score >= ANSWER_SCORE
        ? resolvedJudgement
        : writtenJudgement;
    }
    if (answers) {
      // The score is fitted on fresh questions, and a resolved reading reaches `answer` from a
      // lower one (RESOLVED_ANSWER_SCORE): the earlier answer's section is evidence the score
      // does not count. Below a fresh answer's score the unit is still the one the conversation
      // points to, but no surer than a fresh question's closest passage, and is said to be that.
      if (resolvedJudgement.confidence.score >= ANSWER_SCORE) return resolvedJudgement;
      return {
        ...resolvedJudgement,
        confidence: { ...resolvedJudgement.confidence, level: 'nearest' },
        reason: 'the unit the conversation points to scores below an answer to a fresh question',
      };
    }
    const { said, partly } = searches[resolvedIndex].reading;
    // The message leans on the conversation, so as written it is about the earlier topic too: a
    // unit that shares none of the earlier question's words is at most the closest passage.
    const search = searches[resolvedIndex];
    const same =
      asWritten && ranked.find((item) => item.reading === resolvedIndex && item.hit.id === asWritten.hit.id);
    const offTopic =
      writtenJudgement.confidence.level === 'answer' &&
      search.counted > search.own &&
      !(same && keepsTopic(search, same.hit));
    // Where neither reading reaches an answer, the reply is a closest passage either way, and the
    // message leans on the conversation (that is why it was resolved): the closest passage on the
    // earlier topic is the nearer one, not the one the message's words alone found.
    // So too where the message as written finds nothing: it is a follow-up, and what it leaves
    // out is what the conversation was about; and where its answer is off the earlier topic (so
    // only a closest passage too) and the resolved reading chose another unit. But not a unit the
    // earlier answer quoted whole, which would say again what the reader has just read, unless
    // the message's own words find only units off the earlier topic: then what it asks is most
    // likely in what the reader has just read and passed over ("How do I switch that off
    // again?" after a reply that ended "To match case again: :set noignorecase"), and a unit that
    // shares nothing with the conversation is no nearer.
    if (
      resolvedJudgement.confidence.level === 'nearest' &&
      (writtenJudgement.confidence.level !== 'answer' ||
        (offTopic && resolved.hit.id !== asWritten?.hit.id)) &&
      (!said.includes(resolved.hit.id) || partly?.includes(resolved.hit.id) || offTopic)
    )
      return resolvedJudgement;
    // A message that leans on the conversation by a pronoun or an ellipsis, whose own words find
    // only units off the earlier topic, has most likely paraphrased a word of the text ("does it
    // look in subfolders too?" where the text says "directories"): the unit of the earlier
    // answer's section that holds its other words is then nearer than anything the words alone
    // found, though it covers too little to stand as a closest passage by its words alone. The
    // earlier answer's section is the evidence the coverage does not count.
    if (
      offTopic &&
      resolvedJudgement.confidence.level === 'none' &&
      resolved.hit.id !== asWritten?.hit.id &&
      (resolved.features?.prior ?? 0) >= PRIOR_SECTION_BONUS &&
      keepsTopic(search, resolved.hit)
    ) {
      return {
        ...resolvedJudgement,
        confidence: { ...resolvedJudgement.confidence, level: 'nearest' },
        reason:
          "the unit of the earlier answer's section, where the message alone finds only units off its topic",
      };
    }
    if (offTopic) {
      return {
        ...writtenJudgement,
        confidence: { ...writtenJudgement.confidence, level: 'nearest' },
        reason: 'the best unit shares nothing with the earlier question',
      };
    }
  }
  return writtenJudgement;
}

/**
 * How far a unit leads the best other unit of its reading: when two units score alike the
 * evidence does not single out the answer, and a clear winner is more often right.
 */
function marginOf(ranked: readonly Evidence[], best: Evidence): number {
  const other = ranked.find((item) => item.reading === best.reading && item.hit.id !== best.hit.id);
  return other ? Math.max(0, best.rank - other.rank) : 1;
}

/** Whether the reading's rarest word is required of its units, as rank requires it (rank.ts). */
function rarestAnswers(ranked: readonly Evidence[], reading: number): boolean {
  return rarestRequired(ranked.filter((item) => item.reading === reading));
}

function levelOf(
  search: ReadingSearch | undefined,
  best: Evidence | undefined,
  ranked: readonly Evidence[],
): Judgement {
  if (!search || !best) {
    return { best, confidence: { score: 0, level: 'none' }, reason: 'nothing matched' };
  }
  const margin = marginOf(ranked, best);
  const needed = search.unknownSubject ? ANSWER_COVERAGE_UNKNOWN_WORD : ANSWER_COVERAGE;
  // The score: how likely the best unit holds the answer, from its coverage of the question and
  // its lead over the next unit, weighed as fitted on the tuning halves (tuning.ts).
  const score = round(
    1 / (1 + Math.exp(-(SCORE_BIAS + SCORE_COVERAGE * best.coverage + SCORE_MARGIN * Math.min(1, margin)))),
  );
  if (search.unknownName) {
    return { best, confidence: { score, level: 'none' }, reason: 'a name in the question was never taught' };
  }
  // "What is a trait object?" asks what the text calls that term: where a word of the term was
  // never taught, no passage names it, and whatever matches its other words is about something
  // else (a trait-less "object").
  if (!search.reading.resolved && termNeverTaught(search)) {
    return { best, confidence: { score, level: 'none' }, reason: 'the term asked about was never taught' };
  }
  const covers =
    best.coverage >= needed && score >= (search.reading.resolved ? RESOLVED_ANSWER_SCORE : ANSWER_SCORE);
  // The rarest taught word is what the question is about: a unit without it is never stated as
  // the answer. It may still be the closest passage, when the word is paraphrased there. An
  // example asked for shows what was asked about, seldom in the question's words (rank.ts).
  const hasRarest = best.hasRarest || search.reading.shape.wants === 'example';
  if (covers && hasRarest && keepsTopic(search, best.hit)) {
    // Not for a reading resolved against the conversation: a follow-up's own words are few, and
    // the words it carries and the earlier answer's section are what single its unit out.
    if (!search.reading.resolved && wordsTheLeadRestsOn(search, best, ranked) >= FRAGILE_LEAD_WORDS) {
      return {
        best,
        confidence: { score, level: 'nearest' },
        reason: 'the best unit leads only by one word of the question or another',
      };
    }
    return {
      best,
      confidence: { score, level: 'answer' },
      reason: 'the best unit covers the question and leads',
    };
  }
  // A word never taught may be what the question is about: the closest unit must then be nearer.
  const nearest = search.unknownSubject ? NEAREST_COVERAGE_UNKNOWN_WORD : NEAREST_COVERAGE;
  // When no unit that holds the rarest word covers the question, the word is likely a paraphrase
  // of what the text says ("supply" a function where it says "generated by"): the unit that covers
  // the question best is then the closest passage, though never stated as the answer.
  if (
    best.coverage >= nearest &&
    (hasRarest || covers || !rarestAnswers(ranked, best.reading)) &&
    score >= NEAREST_SCORE
  ) {
    return {
      best,
      confidence: { score, level: 'nearest' },
      reason: 'the best unit covers part of the question',
    };
  }
  return {
    best,
    confidence: { score, level: 'none' },
    reason: best.coverage < nearest ? 'too little of the question is covered' : 'no unit stands out',
  };
}

/**
 * How many of the question's own words the best unit's lead rests on: for each word, whether
 * another unit of the reading would rank first were that word left out of the question (its
 * coverage worked out again, the rest of its evidence as it was). Where leaving out any one of
 * several words puts another unit first, the unit wins by whichever word tips the balance, and
 * no part of the question singles it out.
 */
function wordsTheLeadRestsOn(search: ReadingSearch, best: Evidence, ranked: readonly Evidence[]): number {
  const rivals = ranked.filter((item) => item.reading === best.reading && item.hit.id !== best.hit.id);
  if (rivals.length === 0 || search.ownWeight <= 0) return 0;
  const coverageWeight = RANK_WEIGHTS.coverage;
  const rankWithout = (item: Evidence, word: number, weight: number) => {
    const coverage = Math.min(1, coveredBy(search, item.hit, word) / (search.ownWeight - weight));
    return item.rank - coverageWeight * (item.coverage - coverage);
  };
  let count = 0;
  for (let word = 0; word < search.own; word++) {
    const weight = search.idf[word] * search.query[word].weight;
    if (weight <= 0 || weight >= search.ownWeight || search.unknownWords.includes(search.query[word].word))
      continue;
    const own = rankWithout(best, word, weight);
    if (rivals.some((item) => rankWithout(item, word, weight) > own)) count++;
  }
  return count;
}

/** Whether a word of the term a definition question asks about ("what is X?") was never taught. */
function termNeverTaught(search: ReadingSearch): boolean {
  if (search.unknownWords.length === 0) return false;
  const term = definedTerm(search.reading.question);
  if (!term) return false;
  const words = new Set(term.split(/[^\p{L}\p{N}]+/u));
  return search.unknownWords.some((word) => words.has(word.toLowerCase()));
}

function round(value: number): number {
  return Math.round(value * 1000) / 1000;
}
