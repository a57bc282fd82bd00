import { formatThought, generateReply, type RandomSource, type Reply } from '../reply/index.js';
import type { Turn } from '../sessions/index.js';
import { type AroundAnswer, continueFrom, exampleAround, reasonAround } from './around.js';
import { refText } from './cite.js';
import {
  EMPTY_KNOWLEDGE_REPLY,
  nearestText,
  type SeenImage,
  unclearText,
  unknownText,
  withImageDescription,
} from './compose.js';
import { answerFromImageText, type ImageText } from './evidence/image-text.js';
import { extract, sourceOf } from './extract/index.js';
import { gather, type ReadingSearch } from './gather.js';
import { judge } from './judge.js';
import { type Evidence, rank } from './rank.js';
import { AROUND_NEAREST_SCORE } from './tuning.js';
import type { Confidence, EvidenceBudget, Knowledge, Source } from './types.js';
import {
  type QuestionShape,
  quotedTurn,
  shapeOf,
  type Understanding,
  understand,
} from './understand/index.js';
import { NEAREST_PREFACE, nearestPrefaceOf } from './wording.js';

export { answersQuestion } from './answerable.js';
export { type Assistance, type Assisted, assist } from './assist.js';
export { refText } from './cite.js';
export { EMPTY_KNOWLEDGE_REPLY, type SeenImage } from './compose.js';
export { type ArticleEvidence, replyFromArticle } from './evidence/article.js';
export { type ImageText, imageTextOf, MAX_REMEMBERED_LINES } from './evidence/image-text.js';
export {
  type Confidence,
  confidenceSchema,
  type EvidenceBudget,
  evidenceBudgets,
  type Knowledge,
  type Source,
  type SourceRef,
} from './types.js';
export { type AnswerKind, type QuestionShape, shapeOf } from './understand/index.js';

export interface ReplyRequest {
  message: string;
  /** The conversation so far (both sides), oldest first. */
  history: readonly Turn[];
  evidence: EvidenceBudget;
  /** The generator's budget, when someone asks for made-up text. */
  chitChat: Parameters<typeof generateReply>[1]['budget'];
  temperature?: number;
  maxTokens?: number;
  random?: RandomSource;
  /** Query words also find their synonyms (RELATED_WORDS); off unless true. */
  relatedWords?: boolean;
  /** The don't-know reply's template (UNKNOWN_REPLY, with `{suggestions}`); unset: lib/suggestions' default. */
  unknownReply?: string;
  /** Text read in the image of this message (or remembered from an earlier one): evidence of its own. */
  imageText?: ImageText & { remembered?: boolean };
  /** The image sent with this message, as the local analysis saw it: the reply describes it first. */
  image?: SeenImage;
}

/** What the search found, for `thought` and Variant B's think modes. */
export interface SearchTrace {
  searched: string[];
  unknownWords: string[];
  matched: number;
  coverage: number;
  answer: string | null;
  runnerUp: string | null;
}

/** A local reply and how it was reached. */
export interface PipelineReply {
  /**
   * `grounded`: answered from passages; `nearest`: the closest passage, said to maybe not answer;
   * `unknown`: nothing taught answers it; `social`: the dialogue layer answered; `generated`:
   * made-up text someone asked for; `empty`: nothing taught at all.
   */
  kind: 'grounded' | 'nearest' | 'unknown' | 'social' | 'generated' | 'empty';
  text: string;
  sources: Source[];
  /** The best passages found (cited or not), up to six: the numbered context of an external model. */
  context: Source[];
  confidence: Confidence;
  shape: QuestionShape;
  /** The question as it was read against the conversation, when the message leaned on it. */
  readAs?: string;
  /** 1-based number of the user turn the message leaned on. */
  leansOn?: number;
  trace?: SearchTrace;
  generated?: Reply;
  /** Lines for `thought`. */
  thought: string;
}

/** Passages an external model gets as numbered context. */
const EXTERNAL_CONTEXT = 6;
/** Units whose sections a don't-know reply looks at for questions near the one asked. */
const RELATED_UNITS = 10;

/**
 * The reply pipeline, stages in order, each once: understand (small talk, made-up text, the
 * readings of a question, a follow-up resolved against the conversation), gather (candidate
 * units of every reading), rank (all readings together, by general evidence), judge (a
 * confidence from the evidence), extract (whole sentences, answer first, within maxTokens), and
 * compose and cite (words for the level: the answer, the closest passage, or "I don't know").
 */
export function replyTo(knowledge: Knowledge, request: ReplyRequest): PipelineReply {
  const reply = localReply(knowledge, request);
  return request.image ? withImageDescription(request.image, reply) : reply;
}

function localReply(knowledge: Knowledge, request: ReplyRequest): PipelineReply {
  const understood = understand(knowledge, request.message, request.history);
  const shape = shapeOf(request.message);
  switch (understood.kind) {
    case 'social':
      return {
        kind: 'social',
        // A fresh install with nothing taught tells its owner how to teach it, after the greeting.
        text:
          understood.empty && understood.social.intent !== 'trained'
            ? `${understood.social.text.split(/(?<=[.!])\s/)[0]} ${EMPTY_KNOWLEDGE_REPLY}`
            : understood.social.text,
        sources: [],
        context: [],
        confidence: { score: round(understood.social.confidence), level: 'answer' },
        shape,
        thought: `small talk (${understood.social.intent}: matched "${understood.social.matched}", confidence ${understood.social.confidence})`,
      };
    case 'empty':
      return {
        kind: 'empty',
        text: EMPTY_KNOWLEDGE_REPLY,
        sources: [],
        context: [],
        confidence: { score: 0, level: 'none' },
        shape,
        thought: 'nothing learned yet',
      };
    case 'made-up': {
      const generated = generateReply(knowledge.model, {
        message: understood.topic,
        history: [],
        budget: request.chitChat,
        temperature: request.temperature,
        maxTokens: request.maxTokens,
        random: request.random,
      });
      return {
        kind: 'generated',
        text: generated.text,
        sources: [],
        context: [],
        confidence: { score: 1, level: 'answer' },
        shape,
        generated,
        thought: `generated: made-up text from the language model, as asked (not from the sources) · ${formatThought(generated)}`,
      };
    }
    case 'around':
      return aroundReply(knowledge, understood, shape);
    case 'question': {
      // The text read in an image the message is about is evidence before the trained text.
      const fromImage = request.imageText
        ? answerFromImageText(request.imageText, request.message)
        : undefined;
      if (fromImage) {
        return {
          kind: 'grounded',
          text: fromImage.text,
          sources: fromImage.sources,
          context: fromImage.sources,
          confidence: { score: 1, level: 'answer' },
          shape,
          thought: fromImage.thought,
        };
      }
      return answerQuestion(knowledge, understood, request, shape);
    }
  }
}

function answerQuestion(
  knowledge: Knowledge,
  understood: Extract<Understanding, { kind: 'question' }>,
  request: ReplyRequest,
  shape: QuestionShape,
): PipelineReply {
  const { model, passages } = knowledge;
  const searches = gather(passages, understood.readings, request.evidence, request.relatedWords === true);
  if (searches.every((search) => search.query.length === 0) || passages.size === 0) {
    return {
      kind: 'unknown',
      text: unclearText(knowledge),
      sources: [],
      context: [],
      confidence: { score: 0, level: 'none' },
      shape,
      thought: 'nothing to look up in the message',
    };
  }
  const ranked = rank(passages, searches, request.message);
  const judged = judge(searches, ranked);
  const best = judged.best;
  const search = searches[best?.reading ?? 0];
  const resolved = search.reading.resolved;
  // A pronoun left in place is read with the earlier question's words: both say what was asked.
  // Where the searched reading is no whole question, the user is shown its wording as one.
  const { shown, carried } = search.reading;
  const question =
    shown ?? (carried ? `${search.reading.question} (following “${carried}”)` : search.reading.question);
  const readAs = resolved ? { readAs: question, leansOn: understood.followUp.leansOn } : {};
  const readNote = resolved
    ? `read as: "${shown ?? search.reading.question}"${carried && !shown ? ` (with ${quotedTurn(carried)})` : ''}, leaning on turn ${understood.followUp.leansOn} (${quotedTurn(understood.followUp.lastShown ?? understood.followUp.lastQuestion)})`
    : '';
  const trace: SearchTrace = {
    searched: search.query.map((term) => term.word),
    unknownWords: search.unknownWords,
    matched: search.hits.length,
    coverage: best?.coverage ?? 0,
    answer: null,
    runnerUp: null,
  };
  const level = judged.confidence.level;
  if (!best || level === 'none') {
    return {
      kind: 'unknown',
      text: unknownText(
        knowledge,
        request.unknownReply,
        ranked.slice(0, RELATED_UNITS).map((item) => item.hit.id),
      ),
      sources: [],
      context: contextOf(passages, ranked, []),
      confidence: judged.confidence,
      shape: search.reading.shape,
      ...readAs,
      trace,
      thought: [readNote, describe(trace, judged.confidence, judged.reason, [])].filter(Boolean).join(' · '),
    };
  }
  const extracted = extract(model, passages, search, ranked, best, {
    budget: request.evidence,
    maxTokens: request.maxTokens,
    hedged: level === 'nearest',
  });
  trace.answer = extracted.answer;
  trace.runnerUp = extracted.runnerUp;
  return {
    kind: level === 'answer' ? 'grounded' : 'nearest',
    text: level === 'answer' ? extracted.text : nearestText(extracted),
    sources: extracted.sources,
    context: contextOf(passages, ranked, extracted.sources),
    confidence: judged.confidence,
    shape: search.reading.shape,
    ...readAs,
    trace,
    thought: [readNote, describe(trace, judged.confidence, judged.reason, extracted.sources)]
      .filter(Boolean)
      .join(' · '),
  };
}

/** "why?", "more", "an example": the earlier answer's unit, or the one after it in its section. */
function aroundReply(
  knowledge: Knowledge,
  understood: Extract<Understanding, { kind: 'around' }>,
  shape: QuestionShape,
): PipelineReply {
  const { model, passages } = knowledge;
  const { followUp, from } = understood;
  let around: AroundAnswer | null = null;
  if (from >= 0) {
    around =
      followUp.kind === 'why'
        ? reasonAround(passages, from)
        : followUp.kind === 'example'
          ? exampleAround(passages, from)
          : continueFrom(model, passages, from);
  }
  const base = { shape, readAs: followUp.question, leansOn: followUp.leansOn };
  if (around) {
    // What stands around a passage the earlier reply said may not answer ("Closest match …") is no
    // surer than that passage: the reason or example of something else is only near too.
    const near = nearestPrefaceOf(followUp.lastAnswer) !== undefined;
    return {
      ...base,
      kind: near ? 'nearest' : 'grounded',
      text: near ? `${NEAREST_PREFACE}${around.text}` : around.text,
      sources: around.sources,
      context: around.sources,
      confidence: near ? { score: AROUND_NEAREST_SCORE, level: 'nearest' } : { score: 1, level: 'answer' },
      thought: `read as: ${followUp.kind} about the answer to turn ${followUp.leansOn} (${quotedTurn(followUp.lastShown ?? followUp.lastQuestion)}) · ${around.thought}`,
    };
  }
  const text =
    followUp.kind === 'why'
      ? "I don't know why: the documents don't give a reason near my last answer."
      : followUp.kind === 'example'
        ? "I don't have an example of that: the documents show none near my last answer."
        : "I don't have more on that: my last answer was all the documents say there.";
  return {
    ...base,
    kind: 'unknown',
    text,
    sources: [],
    context: [],
    confidence: { score: 0, level: 'none' },
    thought: `${followUp.kind}: nothing found around the previous answer`,
  };
}

/** "searched: ruth, mother · 40 passages matched · used [1] chunk 3 line 7 (score 12.1) · answer: Naomi · confidence answer 0.8" */
function describe(
  trace: SearchTrace,
  confidence: Confidence,
  reason: string,
  sources: readonly Source[],
): string {
  const parts = [`searched: ${trace.searched.join(', ') || '(nothing)'}`];
  if (trace.unknownWords.length > 0) parts.push(`never taught: ${trace.unknownWords.join(', ')}`);
  parts.push(`${trace.matched} passage${trace.matched === 1 ? '' : 's'} matched`);
  if (sources.length > 0) {
    const used = sources.map(
      (source, i) => `[${i + 1}] ${refText(source)} (score ${source.score.toFixed(1)})`,
    );
    parts.push(`used ${used.join(', ')}`);
  }
  if (trace.answer) parts.push(`answer: ${trace.answer}`);
  parts.push(
    `confidence ${confidence.level} ${confidence.score} (${reason}; best coverage ${Math.round(trace.coverage * 100)}%)`,
  );
  return parts.join(' · ');
}

/** Passages for an external model: those cited, then the next best that cover some of the question. */
function contextOf(
  passages: Knowledge['passages'],
  ranked: readonly Evidence[],
  cited: readonly Source[],
): Source[] {
  const context = [...cited];
  for (const item of ranked) {
    if (context.length >= EXTERNAL_CONTEXT) break;
    if (item.coverage <= 0) continue;
    const source = sourceOf(passages, item.hit.id, item.hit.score);
    const ref = source.ref as { chunk: number; line: number };
    if (
      context.some(
        (other) => 'chunk' in other.ref && other.ref.chunk === ref.chunk && other.ref.line === ref.line,
      )
    )
      continue;
    context.push(source);
  }
  return context;
}

function round(value: number): number {
  return Math.round(value * 1000) / 1000;
}

export type { ReadingSearch };
