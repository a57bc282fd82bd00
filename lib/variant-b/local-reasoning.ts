import type { LanguageModel } from '../lm/index.js';
import { generateReply, type RandomSource, type Reply, type ReplyBudget } from '../reply/index.js';

/** What a local answer needs besides the message. */
export interface LocalAnswerInput {
  model: LanguageModel;
  message: string;
  history: string[];
  budget: ReplyBudget;
  random: RandomSource;
}

/** Vocabulary below which the model is said to know too little to answer well. */
const SMALL_VOCABULARY = 200;

function reply(input: LocalAnswerInput, message = input.message, budget = input.budget): Reply {
  return generateReply(input.model, {
    message,
    history: input.history,
    budget,
    temperature: 0.6,
    maxTokens: 60,
    random: input.random,
  });
}

/** standard: the reply itself. */
export function standardAnswer(input: LocalAnswerInput): string {
  return reply(input).text;
}

/** think: numbered steps showing what was actually done, then the answer. */
export function thinkAnswer(input: LocalAnswerInput): string {
  const result = reply(input);
  const steps = [
    `1. What was asked: “${input.message}”${input.history.length ? ` (with ${input.history.length} earlier turns as context)` : ''}.`,
    `2. Words I know from it: ${result.keywords.length ? result.keywords.join(', ') : 'none'}${
      result.unknownWords.length ? `; words I have never seen: ${result.unknownWords.join(', ')}` : ''
    }.`,
    `3. What I considered: ${result.candidates} candidate replies, ${result.accepted} of them neither repeating you nor copying my training text${
      result.seed ? `; the best grew from “${result.seed}”` : ''
    }${result.score > 0 ? ` with a surprise of ${result.score.toFixed(1)} bits` : ''}.`,
    `4. Answer: ${result.text}`,
  ];
  return steps.join('\n');
}

/** Splits a request into its parts: sentences and questions, then clauses joined by "and"/"also". */
export function decompose(message: string): string[] {
  const sentences = message
    .split(/(?<=[?.!;])\s+/)
    .map((part) => part.trim())
    .filter(Boolean);
  const parts = sentences.flatMap((sentence) =>
    sentence
      .split(/,?\s+(?:and also|and then|also|and)\s+(?=\w+\s+\w+)/i)
      .map((part) => part.trim())
      .filter((part) => part.split(/\s+/).length >= 2),
  );
  return parts.length > 0 ? parts.slice(0, 5) : [message.trim()];
}

/** deep_think: the request decomposed, each part answered, edge cases examined, and a conclusion. */
export function deepThinkAnswer(input: LocalAnswerInput): string {
  const parts = decompose(input.message);
  const share = {
    candidates: Math.max(8, Math.floor(input.budget.candidates / parts.length)),
    timeMs: Math.max(20, Math.floor(input.budget.timeMs / parts.length)),
  };
  const answers = parts.map((part) => ({ part, result: reply(input, part, share) }));
  const lines = [
    `Decomposition: I read ${parts.length === 1 ? 'one part' : `${parts.length} parts`} in your request.`,
  ];
  answers.forEach(({ part, result }, index) => {
    lines.push(`Part ${index + 1}: “${part}”`);
    lines.push(`  Answer: ${result.text}`);
  });
  const unknown = [...new Set(answers.flatMap(({ result }) => result.unknownWords))];
  const keywords = [...new Set(answers.flatMap(({ result }) => result.keywords))];
  lines.push('Edge cases:');
  lines.push(
    unknown.length
      ? `  - Unknown words: ${unknown.join(', ')}; I have never seen them, so those parts rest on the words around them.`
      : '  - Unknown words: none; every word is in my vocabulary.',
  );
  lines.push(
    keywords.length === 0
      ? '  - Ambiguity: I found no meaningful keywords, so the request could mean almost anything to me.'
      : keywords.length > 6
        ? `  - Ambiguity: the request touches many topics (${keywords.slice(0, 6).join(', ')} …); I answered each part on its own.`
        : `  - Ambiguity: the request centres on ${keywords.join(', ')}; little room for other readings.`,
  );
  lines.push(
    input.model.vocabSize < SMALL_VOCABULARY
      ? `  - Knowledge: I know only ${input.model.vocabSize} words, too little for a reliable answer; train me with more text.`
      : `  - Knowledge: ${input.model.vocabSize} words learned; answers are drawn from that text alone.`,
  );
  const best = answers.reduce(
    (top, item) => (item.result.score > top.result.score ? item : top),
    answers[0]!,
  );
  lines.push(`Conclusion: ${best.result.text}`);
  return lines.join('\n');
}
