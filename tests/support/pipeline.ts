import { type Knowledge, replyTo } from '../../lib/pipeline/index.js';
import { evidenceBudgets } from '../../lib/pipeline/types.js';
import { replyBudgets } from '../../lib/reply/index.js';
import type { Turn } from '../../lib/sessions/index.js';
import { embeddedServices } from './services.js';

/** The local reply pipeline as the chat endpoints run it (expert evidence, maxTokens 80), made deterministic. */
export function askPipeline(knowledge: Knowledge, message: string, history: readonly Turn[] = []) {
  return replyTo(knowledge, {
    message,
    history,
    evidence: evidenceBudgets.expert,
    chitChat: replyBudgets.instant,
    maxTokens: 80,
    random: () => 0.5,
  });
}

/** A conversation whose replies each quote a passage (the focus takes only those). */
export function historyOf(...questions: string[]): Turn[] {
  return questions.flatMap((question) => [
    { role: 'user' as const, content: question },
    { role: 'assistant' as const, content: 'The manual says so. [1]' },
  ]);
}

/** A session on a small document (Markdown unless said) trained in the test: `ask` asks each message with the replies so far. */
export async function pipelineSession(name: string, text: string, format: 'markdown' | 'html' = 'markdown') {
  const services = embeddedServices({}, { random: () => 0.5 });
  await services.model.train({ format, name, text });
  const knowledge = await services.model.knowledge();
  const history: Turn[] = [];
  return {
    knowledge,
    ask: (message: string) => {
      const reply = askPipeline(knowledge, message, history);
      history.push({ role: 'user', content: message }, { role: 'assistant', content: reply.text });
      return reply;
    },
  };
}
