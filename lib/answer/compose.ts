import { resolveFollowUp } from '../conversation/index.js';
import { type DialogueKnowledge, exampleQuestions, socialReply } from '../dialogue/index.js';
import type { DialoguePair } from '../documents/types.js';
import type { LanguageModel } from '../lm/index.js';
import { formatThought, generateReply, type RandomSource, type Reply } from '../reply/index.js';
import type { PassageIndex } from '../retrieval/index.js';
import type { Turn } from '../sessions/index.js';
import { suggestedQuestions, unknownReplyText } from '../suggestions/index.js';
import { continueFrom, previousPassage, reasonAround } from './follow-up.js';
import { answerFromPassages, type GroundedAnswer, queryOf } from './grounded.js';
import { sourceOf } from './passage-reply.js';
import { asksForMadeUpText, madeUpTopic, type QuestionShape, shapeOf } from './question.js';
import type { EvidenceBudget, Source } from './types.js';

/** What the local brain knows: the n-gram model, the passage index of the same text, trained dialogue. */
export interface Knowledge {
  model: LanguageModel;
  passages: PassageIndex;
  dialogue?: readonly DialoguePair[];
}

export interface ComposeRequest {
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
}

/** A local reply and how it was reached. */
export interface ComposedReply {
  /**
   * `grounded`: answered from passages; `unknown`: nothing taught answers it; `social`: the dialogue
   * layer answered; `generated`: made-up text someone asked for; `empty`: nothing taught at all.
   */
  kind: 'grounded' | 'unknown' | 'social' | 'generated' | 'empty';
  text: string;
  sources: Source[];
  /** The best passages found (cited or not), up to six: the numbered context of an external model. */
  context: Source[];
  shape: QuestionShape;
  /** The standalone question answered, when the message was a follow-up rewritten from the conversation. */
  rewritten?: string;
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
 * The local reply, chosen in order: small talk from the dialogue layer (only when it is sure);
 * a follow-up rewritten into a standalone question from the conversation's focus ("why?" and
 * "tell me more" look around the previous answer); the answer from the passages of the trained
 * text, or an honest "I don't know that yet" with questions it can answer. The generator writes
 * only when someone asks for made-up text.
 */
export function composeReply(knowledge: Knowledge, request: ComposeRequest): ComposedReply {
  const { model, passages } = knowledge;
  const shape = shapeOf(request.message);
  const base = { sources: [], context: [], shape };
  const empty = passages.size === 0 && model.vocabSize === 0;

  const social = socialReply(request.message, knowledge as DialogueKnowledge);
  if (social) {
    const text =
      empty && social.intent !== 'trained'
        ? `${social.text.split(/(?<=[.!])\s/)[0]} ${EMPTY_KNOWLEDGE_REPLY}`
        : social.text;
    return {
      ...base,
      kind: 'social',
      text,
      thought: `small talk (${social.intent}: matched "${social.matched}", confidence ${social.confidence})`,
    };
  }
  if (empty) return { ...base, kind: 'empty', text: EMPTY_KNOWLEDGE_REPLY, thought: 'nothing learned yet' };

  if (asksForMadeUpText(request.message)) {
    const generated = generateReply(model, {
      message: madeUpTopic(request.message),
      history: [],
      budget: request.chitChat,
      temperature: request.temperature,
      maxTokens: request.maxTokens,
      random: request.random,
    });
    return {
      ...base,
      kind: 'generated',
      text: generated.text,
      generated,
      thought: `generated: made-up text from the language model, as asked (not from the sources) · ${formatThought(generated)}`,
    };
  }

  const followUp = resolveFollowUp(request.message, request.history, (answer) => {
    const from = previousPassage(passages, answer);
    return from < 0
      ? undefined
      : passages
          .section(from)
          .path[0]?.replace(/[([{].*$/, '')
          .trim() || undefined;
  });
  if (followUp.kind === 'why' || followUp.kind === 'more') {
    const from = previousPassage(passages, followUp.lastAnswer);
    const around =
      from < 0
        ? null
        : followUp.kind === 'why'
          ? reasonAround(passages, from)
          : continueFrom(model, passages, from);
    if (around)
      return {
        ...base,
        kind: 'grounded',
        text: around.text,
        sources: around.sources,
        context: around.sources,
        thought: around.thought,
      };
    const text =
      followUp.kind === 'why'
        ? "I don't know why: the text I was taught doesn't give a reason near my last answer."
        : "I don't have more on that: my last answer was all the text says there.";
    return {
      ...base,
      kind: 'unknown',
      text,
      thought: `${followUp.kind}: nothing found around the previous answer`,
    };
  }

  const question = followUp.question;
  const questionShape = followUp.kind === 'none' ? shape : shapeOf(question);
  const rewritten = followUp.kind === 'none' ? undefined : followUp.question;
  const note = rewritten
    ? `follow-up rewritten: "${rewritten}"${followUp.carried ? ` (with "${followUp.carried}")` : ''} · `
    : '';
  if (queryOf(question, followUp.carried).length === 0 || passages.size === 0) {
    return {
      ...base,
      kind: 'unknown',
      text: withExamples("I'm not sure what you mean.", knowledge),
      ...(rewritten ? { rewritten } : {}),
      thought: `${note}nothing to look up in the message`,
    };
  }
  let grounded = answerFromPassages(model, passages, {
    message: question,
    carried: followUp.carried,
    shape: questionShape,
    budget: request.evidence,
    related: request.relatedWords,
  });
  if (rewritten && grounded.status !== 'answered') {
    // The rewrite found nothing: the message may not have leaned on the conversation after all.
    const plain = answerFromPassages(model, passages, {
      message: request.message,
      carried: '',
      shape,
      budget: request.evidence,
      related: request.relatedWords,
    });
    if (plain.status === 'answered') grounded = plain;
  }
  const answered = grounded.status === 'answered';
  return {
    kind: answered ? 'grounded' : 'unknown',
    text: answered ? grounded.text : dontKnowReply(knowledge, request),
    sources: grounded.sources,
    context: contextOf(passages, grounded),
    shape: questionShape,
    ...(rewritten ? { rewritten } : {}),
    grounded,
    thought: `${note}${describeSearch(grounded)}`,
  };
}

/** The don't-know reply, in words for the visitor, offering questions the documents do answer (lib/suggestions). */
function dontKnowReply(knowledge: Knowledge, request: ComposeRequest): string {
  const answers = (question: string) =>
    answerFromPassages(knowledge.model, knowledge.passages, {
      message: question,
      carried: '',
      shape: shapeOf(question),
      budget: request.evidence,
    }).status === 'answered';
  const fromHeadings = suggestedQuestions(knowledge, answers);
  // Text without headings: the questions about its most mentioned names (lib/dialogue) instead.
  const offered =
    fromHeadings.length >= 2
      ? fromHeadings
      : [
          ...fromHeadings,
          ...exampleQuestions(knowledge.passages, knowledge.model).map((quoted) =>
            quoted.replace(/^"|"$/g, ''),
          ),
        ];
  return unknownReplyText([...new Set(offered)], request.unknownReply);
}

/** An honest reply, with two or three questions the service can answer. */
function withExamples(text: string, knowledge: Knowledge): string {
  const examples = exampleQuestions(knowledge.passages, knowledge.model);
  if (examples.length === 0) return text;
  return `${text} You could ask me, for example: ${examples.join(' or ')}`;
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

/** A source's place as text: "README.md › Install", "chunk 3 line 7", "image 3f2a… line 2" or the article title. */
export function refText(source: Source): string {
  if ('image' in source.ref) return `image ${source.ref.image.slice(0, 12)} line ${source.ref.line}`;
  if (!('chunk' in source.ref)) return source.ref.title;
  const where = [source.file, source.section].filter(Boolean).join(' › ');
  const page = source.page ? ` p. ${source.page}` : '';
  return where ? `${where}${page}` : `chunk ${source.ref.chunk} line ${source.ref.line}${page}`;
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
