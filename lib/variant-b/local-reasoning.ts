import {
  type ComposedReply,
  composeReply,
  type EvidenceBudget,
  type Knowledge,
  refText,
  type Source,
} from '../answer/index.js';
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
}

/** A local answer of a reasoning mode: the text and the passages it used. */
export interface LocalAnswer {
  text: string;
  sources: Source[];
  /** The best passages found, for an external model. */
  context: Source[];
}

function reply(input: LocalAnswerInput, message = input.message): ComposedReply {
  return composeReply(input.knowledge, {
    message,
    history: input.history,
    evidence: input.evidence,
    chitChat: input.chitChat,
    temperature: 0.6,
    maxTokens: 60,
    random: input.random,
    relatedWords: input.relatedWords,
  });
}

/** standard: the answer itself. */
export function standardAnswer(input: LocalAnswerInput): LocalAnswer {
  const result = reply(input);
  return { text: result.text, sources: result.sources, context: result.context };
}

/** think: numbered steps that are what happened (query, passages found with their refs), then the answer. */
export function thinkAnswer(input: LocalAnswerInput): LocalAnswer {
  const result = reply(input);
  const steps = [`What was asked: “${input.message}”.`];
  const grounded = result.grounded;
  if (result.rewritten) steps.push(`What it means in this conversation: “${result.rewritten}”.`);
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
        grounded.status === 'answered'
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
    text: steps.map((step, i) => `${i + 1}. ${step}`).join('\n'),
    sources: result.sources,
    context: result.context,
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
  const answered: { part: string; result: ComposedReply; text: string }[] = [];
  const lines = [
    `Decomposition: I read ${parts.length === 1 ? 'one question' : `${parts.length} sub-questions`} in your request.`,
  ];
  parts.forEach((part, index) => {
    const result = reply(input, part);
    const offset = sources.length;
    sources.push(...result.sources);
    const text = result.text.replace(/\[(\d+)\]/g, (_, n: string) => `[${Number(n) + offset}]`);
    answered.push({ part, result, text });
    const found = result.grounded
      ? `${result.grounded.matched} passage${result.grounded.matched === 1 ? '' : 's'} matched ${result.grounded.searched.join(', ')}`
      : 'nothing to look up';
    lines.push(`Part ${index + 1}: “${part}” (${found})`);
    lines.push(`  Answer: ${text}`);
  });

  lines.push('Edge cases:');
  const unknown = [...new Set(answered.flatMap(({ result }) => result.grounded?.unknownWords ?? []))];
  lines.push(
    unknown.length > 0
      ? `  - Unknown words: ${unknown.join(', ')}; nothing I was taught mentions them.`
      : '  - Unknown words: none; every word searched appears in what I was taught.',
  );
  const conflicts = answered.filter(({ result }) => result.grounded?.runnerUp);
  lines.push(
    conflicts.length > 0
      ? `  - Conflicting passages: ${conflicts
          .map(
            ({ result }) =>
              `the passages name both ${result.grounded!.answer ?? 'one answer'} and ${result.grounded!.runnerUp}`,
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
  return { text: lines.join('\n'), sources, context: sources };
}
