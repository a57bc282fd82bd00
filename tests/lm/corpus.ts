import { readFileSync } from 'node:fs';
import { join } from 'node:path';

/** Where the KJV corpus and its KenLM oracle live (see its README). */
export const KJV_DIR = '/work/shared/corpora/kjv';

/** A corpus file's text. */
export function corpusText(path: string): string {
  return readFileSync(join(KJV_DIR, path), 'utf8');
}

/** The non-empty lines of a corpus file. */
export function corpusLines(path: string): string[] {
  return corpusText(path)
    .split('\n')
    .filter((line) => line.trim() !== '');
}
