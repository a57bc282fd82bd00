import { readFileSync } from 'node:fs';
import type { Config } from '../config/index.js';

/** The guide to this service that ships with it, trained into an empty store. */
const GUIDE = new URL('./guide.txt', import.meta.url);

/**
 * The starter text a fresh store is taught: the shipped guide, the file named by
 * STARTER_TEXT_PATH instead, or nothing when STARTER_TEXT=off.
 */
export function starterTextFromConfig(config: Config): string | undefined {
  if (config.STARTER_TEXT === 'off') return undefined;
  return readFileSync(config.STARTER_TEXT_PATH ?? GUIDE, 'utf8');
}
