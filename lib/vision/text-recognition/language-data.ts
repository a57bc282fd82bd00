import { mkdtempSync, symlinkSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { HttpError } from '../../http/errors.js';

/** The model flavour read: LSTM only, integer weights (small and fast; what tesseract.js fetches by default). */
export const LANGUAGE_DATA_FLAVOUR = '4.0.0_best_int';

const require = createRequire(import.meta.url);

/** Where the recognition data of a language is installed: `@tesseract.js-data/<code>` in node_modules. */
export function languageDataPath(code: string): string {
  // The data file itself, not the package's manifest: a Vercel function carries only the file.
  try {
    return require.resolve(`@tesseract.js-data/${code}/${LANGUAGE_DATA_FLAVOUR}/${code}.traineddata.gz`);
  } catch {
    throw missingLanguage(code);
  }
}

/**
 * The folder tesseract.js reads `<code>.traineddata.gz` of every language from (its `langPath`):
 * the language's own package folder for one language; for several, a temporary folder of links to
 * each package's file (tesseract.js takes one folder for all). Nothing is ever fetched.
 */
export function languageFolder(codes: readonly string[]): string {
  const paths = codes.map(languageDataPath);
  if (paths.length === 1) return dirname(paths[0]!);
  const folder = mkdtempSync(join(tmpdir(), 'ocr-languages-'));
  codes.forEach((code, index) => {
    symlinkSync(paths[index]!, join(folder, `${code}.traineddata.gz`));
  });
  return folder;
}

function missingLanguage(code: string): HttpError {
  return new HttpError(
    'internal_error',
    `Text recognition for "${code}" needs the npm package @tesseract.js-data/${code} (its ${LANGUAGE_DATA_FLAVOUR} data); install it or remove "${code}" from OCR_LANGS.`,
  );
}

/**
 * The WebAssembly builds tesseract.js 7 may load in Node (it picks by the CPU's SIMD support and,
 * in Node, always the build with the legacy engine too). Checked before a worker starts: a missing
 * file would crash the worker thread, and with it the process.
 */
export const ENGINE_FILES = ['tesseract-core-relaxedsimd', 'tesseract-core-simd', 'tesseract-core'].flatMap(
  (name) => [`tesseract.js-core/${name}.js`, `tesseract.js-core/${name}.wasm`],
);

/** Throws a 500 naming the file when a file the engine needs is not installed. */
export function assertEngineFiles(): void {
  for (const file of [...ENGINE_FILES, 'tesseract.js/src/worker-script/node/index.js']) {
    try {
      require.resolve(file);
    } catch {
      throw new HttpError(
        'internal_error',
        `Text recognition cannot start: ${file} is missing from node_modules (on Vercel: from the function's includeFiles).`,
      );
    }
  }
}
