import { readFileSync } from 'node:fs';
import { composeReply, evidenceBudgets } from '../lib/answer/index.js';
import { replyBudgets } from '../lib/reply/index.js';
import type { Turn } from '../lib/sessions/index.js';
import { benchServices, trainingParts } from './bench-services.js';

const [corpus, ...conversation] = process.argv.slice(2);
const services = await benchServices();
if (corpus) {
  const format = corpus.endsWith('.md') ? 'markdown' : corpus.endsWith('.html') ? 'html' : 'text';
  for (const part of trainingParts(readFileSync(corpus, 'utf8')))
    await services.model.train({ format, name: corpus.split('/').pop(), text: part });
}
const knowledge = await services.model.knowledge();
const history: Turn[] = [];
for (const message of conversation) {
  if (message === '--') {
    history.length = 0;
    continue;
  }
  const reply = composeReply(knowledge, {
    message,
    history,
    evidence: evidenceBudgets.expert,
    chitChat: replyBudgets.instant,
  });
  console.log(`> ${message}\n${reply.text}\n   (${reply.kind}; ${reply.thought.slice(0, 200)})`);
  history.push({ role: 'user', content: message }, { role: 'assistant', content: reply.text });
}
