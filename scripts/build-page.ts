import { copyFile, mkdir, rename } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = resolve(import.meta.dirname, '..');

/**
 * The browser builds of the page's libraries, copied from node_modules into public/vendor/
 * (git-ignored) under the names public/markdown.js imports. The source maps go along so the
 * browser's developer tools find them.
 */
const vendored = [
  { from: 'marked/lib/marked.esm.js', to: 'marked.esm.js' },
  { from: 'marked/lib/marked.esm.js.map', to: 'marked.esm.js.map' },
  { from: 'dompurify/dist/purify.es.mjs', to: 'purify.es.mjs' },
  { from: 'dompurify/dist/purify.es.mjs.map', to: 'purify.es.mjs.map' },
];

/** `npm run build:page`: fills public/vendor/ from the installed packages; returns the files written. */
export async function buildPage(rootDir: string = root): Promise<string[]> {
  const vendorDir = join(rootDir, 'public', 'vendor');
  // Replaced whole, never removed first, so a running `npm start` keeps serving them: each is
  // copied beside its place and renamed over it, so a reader (a server, or a second build at the
  // same time, as two test files do) sees the old file or the new one, never half of one.
  await mkdir(vendorDir, { recursive: true });
  const written: string[] = [];
  for (const { from, to } of vendored) {
    const target = join(vendorDir, to);
    const partial = `${target}.${process.pid}.partial`;
    await copyFile(join(rootDir, 'node_modules', from), partial);
    await rename(partial, target);
    written.push(target);
  }
  return written;
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const written = await buildPage();
  console.log(`build:page: ${written.length} files in ${dirname(written[0] ?? '')}`);
}
