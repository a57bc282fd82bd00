import { existsSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';

const candidates = [process.env.KJV_DIR, resolve(import.meta.dirname, '../../../shared/corpora/kjv')].filter(
  (dir): dir is string => Boolean(dir),
);

/** Where the KJV corpus and its KenLM oracle live (see its README): KJV_DIR, else ../shared/corpora/kjv. */
export const KJV_DIR = candidates.find((dir) => existsSync(join(dir, 'oracle'))) ?? candidates[0]!;

/** A corpus file's text; fails with where it looked when the corpus is missing. */
export function corpusText(path: string): string {
  const file = join(KJV_DIR, path);
  if (!existsSync(file)) {
    throw new Error(
      `The KJV corpus is missing: looked for ${path} in ${candidates.join(', ')}. Set KJV_DIR.`,
    );
  }
  return readFileSync(file, 'utf8');
}

/** The non-empty lines of a corpus file. */
export function corpusLines(path: string): string[] {
  return corpusText(path)
    .split('\n')
    .filter((line) => line.trim() !== '');
}
