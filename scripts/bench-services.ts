import { parseConfig } from '../lib/config/index.js';
import { setLogLevel } from '../lib/log/index.js';
import { mulberry32 } from '../lib/reply/index.js';
import { createServices, type Services } from '../lib/services/index.js';
import { createEmbeddedStore } from '../lib/store/index.js';
import { splitForTraining } from '../lib/train-client/index.js';

/** A text as the parts a benchmark trains: under the service's 1 MB cap, cut where `npm run train` cuts. */
export function trainingParts(text: string): string[] {
  return splitForTraining(text, 900_000);
}

/**
 * The services of a benchmark in process: an in-memory embedded store, no starter text (unless
 * `starter`: a fresh install's), limits out of the way, a seeded random source, logging off;
 * trained on `text` when given.
 */
export async function benchServices(text?: string, options: { starter?: boolean } = {}): Promise<Services> {
  setLogLevel('silent');
  const services = createServices(
    parseConfig({
      STARTER_TEXT: options.starter ? 'on' : 'off',
      LOG_LEVEL: 'silent',
      RATE_LIMIT_REQUESTS: '1000000',
      SESSION_LIMIT_FREE: '1000000',
      SESSION_LIMIT_SIGNED_IN: '1000000',
      ...(process.env.RELATED_WORDS ? { RELATED_WORDS: process.env.RELATED_WORDS } : {}),
    }),
    { store: createEmbeddedStore(), random: mulberry32(1) },
  );
  if (text) for (const part of trainingParts(text)) await services.model.train(part);
  return services;
}
