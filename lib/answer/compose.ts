import type { LanguageModel } from '../lm/index.js';
import { formatThought, generateReply, type RandomSource, type Reply } from '../reply/index.js';
import type { PassageIndex } from '../retrieval/index.js';
import { answerFromPassages, type GroundedAnswer, queryOf } from './grounded.js';
import { sourceOf } from './passage-reply.js';
import { type QuestionShape, shapeOf } from './question.js';
import type { EvidenceBudget, Source } from './types.js';

/** What the local brain knows: the n-gram model and the passage index of the same trained text. */
export interface Knowledge {
  model: LanguageModel;
  passages: PassageIndex;
}

export interface ComposeRequest {
  message: string;
  /** The user's own earlier turns, oldest first. The assistant's turns never feed a reply. */
  userTurns: readonly string[];
  evidence: EvidenceBudget;
  /** The generator's budget for chit-chat. */
  chitChat: Parameters<typeof generateReply>[1]['budget'];
  temperature?: number;
  maxTokens?: number;
  random?: RandomSource;
}

/** A local reply and how it was reached. */
export interface ComposedReply {
  /** `grounded`: answered from passages; `unknown`: nothing taught answers it; `chit-chat`: the generator spoke. */
  kind: 'grounded' | 'unknown' | 'chit-chat' | 'empty';
  text: string;
  sources: Source[];
  /** The best passages found (cited or not), up to six: the numbered context of an external model. */
  context: Source[];
  shape: QuestionShape;
  grounded?: GroundedAnswer;
  generated?: Reply;
  /** One line for `thought`. */
  thought: string;
}

/** Passages an external model gets as numbered context. */
const EXTERNAL_CONTEXT = 6;

/** What an untrained service answers. */
export const EMPTY_KNOWLEDGE_REPLY =
  "I don't know anything yet: nothing has been taught to me. Teach me with POST /api/train (or `npm run train -- FILE`) and ask again.";

/**
 * The local reply: a question (or anything with words worth searching) is answered from the
 * passages of the trained text, or honestly not answered; greetings and requests for a story go
 * to the MegaHAL-style generator, which is steered by the user's words only.
 */
export function composeReply(knowledge: Knowledge, request: ComposeRequest): ComposedReply {
  const { model, passages } = knowledge;
  const shape = shapeOf(request.message);
  if (passages.size === 0 && model.vocabSize === 0) {
    return {
      kind: 'empty',
      text: EMPTY_KNOWLEDGE_REPLY,
      sources: [],
      context: [],
      shape,
      thought: 'nothing learned yet',
    };
  }
  const searchable =
    !shape.chitChat &&
    passages.size > 0 &&
    queryOf(request.message, shape.asks ? request.userTurns : []).length > 0;
  if (!searchable) {
    const generated = generateReply(model, {
      message: request.message,
      history: request.userTurns,
      budget: request.chitChat,
      temperature: request.temperature,
      maxTokens: request.maxTokens,
      random: request.random,
    });
    return {
      kind: 'chit-chat',
      text: generated.text,
      sources: [],
      context: [],
      shape,
      generated,
      thought: `chit-chat, nothing to look up · ${formatThought(generated)}`,
    };
  }
  const grounded = answerFromPassages(model, passages, {
    message: request.message,
    userTurns: request.userTurns,
    shape,
    budget: request.evidence,
  });
  return {
    kind: grounded.status === 'answered' ? 'grounded' : 'unknown',
    text: grounded.text,
    sources: grounded.sources,
    context: contextOf(passages, grounded),
    shape,
    grounded,
    thought: describeSearch(grounded),
  };
}

/** "searched: ruth, mother, law · 40 passages matched · used [1] chunk 3 line 7 (score 12.1) · answer: Naomi" */
export function describeSearch(grounded: GroundedAnswer): string {
  const parts = [`searched: ${grounded.searched.join(', ') || '(nothing)'}`];
  if (grounded.unknownWords.length > 0) parts.push(`never taught: ${grounded.unknownWords.join(', ')}`);
  parts.push(`${grounded.matched} passage${grounded.matched === 1 ? '' : 's'} matched`);
  if (grounded.status === 'answered') {
    const used = grounded.sources.map(
      (source, i) => `[${i + 1}] ${refText(source)} (score ${source.score.toFixed(1)})`,
    );
    parts.push(`used ${used.join(', ')}`);
    if (grounded.answer) parts.push(`answer: ${grounded.answer}`);
  } else {
    parts.push(`best coverage ${Math.round(grounded.coverage * 100)}%, too little to answer`);
  }
  return parts.join(' · ');
}

/** A source's place as text: "chunk 3 line 7" or the article title. */
export function refText(source: Source): string {
  return 'chunk' in source.ref ? `chunk ${source.ref.chunk} line ${source.ref.line}` : source.ref.title;
}

/** Passages for an external model: those cited, then the next best that cover some of the question. */
function contextOf(passages: PassageIndex, grounded: GroundedAnswer): Source[] {
  const context = [...grounded.sources];
  for (const item of grounded.evidence) {
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
