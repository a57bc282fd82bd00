import { readFileSync } from 'node:fs';
import { composeReply, evidenceBudgets } from '../lib/answer/index.js';
import { replyBudgets } from '../lib/reply/index.js';
import type { Turn } from '../lib/sessions/index.js';
import { benchServices } from './bench-services.js';

const [corpus, ...conversation] = process.argv.slice(2);
const services = await benchServices(corpus ? readFileSync(corpus, 'utf8') : undefined);
const knowledge = await services.model.knowledge();
const history: Turn[] = [];
for (const message of conversation) {
  if (message === '--') { history.length = 0; continue; }
  const reply = composeReply(knowledge, { message, history, evidence: evidenceBudgets.expert, chitChat: replyBudgets.instant });
  console.log(`> ${message}\n${reply.text}\n   (${reply.kind}; ${reply.thought.slice(0, 200)})`);
  history.push({ role: 'user', content: message }, { role: 'assistant', content: reply.text });
}
