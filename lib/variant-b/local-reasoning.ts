import {
  type Confidence,
  type EvidenceBudget,
  type Knowledge,
  type PipelineReply,
  refText,
  replyTo,
  type Source,
} from '../pipeline/index.js';
import type { RandomSource, ReplyBudget } from '../reply/index.js';
import type { Turn } from '../sessions/index.js';

/** What a local answer needs besides the message. */
export interface LocalAnswerInput {
  knowledge: Knowledge;
  message: string;
  /** The conversation so far, both sides, oldest first. */
  history: readonly Turn[];
  evidence: EvidenceBudget;
  chitChat: ReplyBudget;
  random: RandomSource;
  /** Query words also find their synonyms (RELATED_WORDS). */
  relatedWords?: boolean;
  /** The reply's length limit: the pipeline puts the answer first within it. */
  maxTokens?: number;
}

/** A local answer of a reasoning mode: the text and the passages it used. */
export interface LocalAnswer {
  /** What the pipeline made of the message (PipelineReply's kind; deep_think: its parts'). */
  kind: PipelineReply['kind'];
  text: string;
  sources: Source[];
  /** The best passages found, for an external model. */
  context: Source[];
  confidence: Confidence;
  /** How the message was read against the conversation ("read as: ..."), when it leaned on it. */
  thought?: string;
}

function reply(input: LocalAnswerInput, message = input.message): PipelineReply {
  return replyTo(input.knowledge, {
    message,
    history: input.history,
    evidence: input.evidence,
    chitChat: input.chitChat,
    maxTokens: input.maxTokens,
    random: input.random,
    relatedWords: input.relatedWords,
  });
}

/** standard: the answer itself. */
export function standardAnswer(input: LocalAnswerInput): LocalAnswer {
  const result = reply(input);
  return {
    kind: result.kind,
    text: result.text,
    sources: result.sources,
    context: result.context,
    confidence: result.confidence,
    ...readAsThought(result),
  };
}

/** think: numbered steps that are what happened (query, passages found with their refs), then the answer. */
export function thinkAnswer(input: LocalAnswerInput): LocalAnswer {
  const result = reply(input);
  const steps = [`What was asked: “${input.message}”.`];
  const grounded = result.trace;
  if (result.readAs) steps.push(`What it means in this conversation: “${result.readAs}”.`);
  if (!grounded) {
    steps.push(
      result.kind === 'empty'
        ? 'What I know: nothing has been taught to me yet.'
        : result.kind === 'social'
          ? 'What kind of message: small talk, so I answered it as a person would, with nothing to look up.'
          : result.kind === 'generated'
            ? 'What kind of message: a request for made-up text, so my language model wrote it (not from the sources).'
            : `What I did: ${result.thought}.`,
    );
  } else {
    steps.push(
      `What I searched for: ${grounded.searched.join(', ')}${
        grounded.unknownWords.length > 0 ? ` (never taught: ${grounded.unknownWords.join(', ')})` : ''
      }.`,
    );
    steps.push(
      `What I found: ${grounded.matched} passage${grounded.matched === 1 ? '' : 's'} with any of those words${
        result.confidence.level !== 'none'
          ? `; the best covers ${Math.round(grounded.coverage * 100)}% of the question.`
          : `; the best covers only ${Math.round(grounded.coverage * 100)}% of the question, too little to answer from.`
      }`,
    );
    result.sources.forEach((source, i) => {
      steps.push(
        `Passage [${i + 1}] (${refText(source)}, score ${source.score.toFixed(1)}): “${source.text}”`,
      );
    });
    if (grounded.answer) steps.push(`Short answer the passages name: ${grounded.answer}.`);
  }
  steps.push(`Answer: ${result.text}`);
  return {
    kind: result.kind,
    text: steps.map((step, i) => `${i + 1}. ${step}`).join('\n'),
    sources: result.sources,
    context: result.context,
    confidence: result.confidence,
    ...readAsThought(result),
  };
}

/** Splits a request into its parts: sentences and questions, then clauses joined by "and"/"also". */
export function decompose(message: string): string[] {
  const sentences = message
    .split(/(?<=[?.!;])\s+/)
    .map((part) => part.trim())
    .filter(Boolean);
  const parts = sentences.flatMap((sentence) =>
    sentence
      .split(
        /,?\s+(?:and also|and then|also|and)\s+(?=(?:who|what|when|where|which|why|how|is|are|was|were|do|does|did|can)\b)/i,
      )
      .map((part) => part.trim())
      .filter((part) => part.split(/\s+/).length >= 2),
  );
  return parts.length > 0 ? parts.slice(0, 5) : [message.trim()];
}

/**
 * deep_think: the request split into sub-questions, each answered from its own passages, edge
 * cases examined (unknown words, conflicting passages, nothing found), and a conclusion. Each
 * part is searched with the user's words only: nothing written here feeds a later search.
 */
export function deepThinkAnswer(input: LocalAnswerInput): LocalAnswer {
  const parts = decompose(input.message);
  const sources: Source[] = [];
  const answered: { part: string; result: PipelineReply; text: string }[] = [];
  const lines = [
    `Decomposition: I read ${parts.length === 1 ? 'one question' : `${parts.length} sub-questions`} in your request.`,
  ];
  parts.forEach((part, index) => {
    const result = reply(input, part);
    const offset = sources.length;
    sources.push(...result.sources);
    const text = result.text.replace(/\[(\d+)\]/g, (_, n: string) => `[${Number(n) + offset}]`);
    answered.push({ part, result, text });
    const found = result.trace
      ? `${result.trace.matched} passage${result.trace.matched === 1 ? '' : 's'} matched ${result.trace.searched.join(', ')}`
      : 'nothing to look up';
    lines.push(`Part ${index + 1}: “${part}” (${found})`);
    lines.push(`  Answer: ${text}`);
  });

  lines.push('Edge cases:');
  const unknown = [...new Set(answered.flatMap(({ result }) => result.trace?.unknownWords ?? []))];
  lines.push(
    unknown.length > 0
      ? `  - Unknown words: ${unknown.join(', ')}; nothing I was taught mentions them.`
      : '  - Unknown words: none; every word searched appears in what I was taught.',
  );
  const conflicts = answered.filter(({ result }) => result.trace?.runnerUp);
  lines.push(
    conflicts.length > 0
      ? `  - Conflicting passages: ${conflicts
          .map(
            ({ result }) =>
              `the passages name both ${result.trace!.answer ?? 'one answer'} and ${result.trace!.runnerUp}`,
          )
          .join('; ')}; I went with the better supported one.`
      : '  - Conflicting passages: none found; the passages used agree.',
  );
  const missing = answered.filter(({ result }) => result.kind === 'unknown' || result.kind === 'empty');
  lines.push(
    missing.length > 0
      ? `  - Nothing found: ${missing.map(({ part }) => `“${part}”`).join(', ')}; I will not guess there.`
      : '  - Nothing found: every part has supporting passages.',
  );
  const known = answered.filter(({ result }) => result.kind === 'grounded');
  const conclusion =
    known.length > 0
      ? known.map(({ text }) => text).join(' ')
      : missing.length > 0
        ? answered[0].result.text
        : answered.map(({ text }) => text).join(' ');
  lines.push(`Conclusion: ${conclusion}`);
  const levels = answered.map(({ result }) => result.confidence);
  const weakest = levels.reduce((a, b) => (rankOf(b) < rankOf(a) ? b : a), levels[0]);
  const kind = known.length > 0 ? 'grounded' : answered[0].result.kind;
  return { kind, text: lines.join('\n'), sources, context: sources, confidence: weakest };
}

function rankOf(confidence: Confidence): number {
  return { none: 0, nearest: 1, answer: 2 }[confidence.level] + confidence.score / 10;
}

/** "read as: ..." for Variant B's `thought`, when the message leaned on the conversation. */
function readAsThought(result: PipelineReply): { thought?: string } {
  if (!result.readAs) return {};
  const first = result.thought.split(' · ')[0];
  return { thought: first.startsWith('read as') ? first : `read as: "${result.readAs}"` };
}
