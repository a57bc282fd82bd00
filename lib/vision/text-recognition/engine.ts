import type { Worker } from 'tesseract.js';
import { assertEngineFiles, languageFolder } from './language-data.js';
import type { EngineBlock } from './types.js';

/** One tesseract.js worker (a thread running tesseract's WebAssembly build) with its languages loaded. */
export interface RecognitionEngine {
  /** Recognises an encoded image (PNG): its blocks, paragraphs, lines and words. */
  recognize(png: Uint8Array): Promise<EngineBlock[]>;
  /** Stops the thread at once, a recognition in progress with it. */
  terminate(): Promise<void>;
}

/** Starts a worker for the languages; their data is read from their npm packages on disk. */
export async function startEngine(languages: readonly string[]): Promise<RecognitionEngine> {
  assertEngineFiles();
  const langPath = languageFolder(languages);
  const { createWorker, OEM } = await import('tesseract.js');
  let failure: unknown;
  const worker: Worker = await createWorker(languages.join('+'), OEM.LSTM_ONLY, {
    langPath,
    gzip: true,
    // Read from the package every start; never written anywhere (function folders are read-only).
    cacheMethod: 'none',
    errorHandler: (error: unknown) => {
      failure = error;
    },
  });
  // An idle engine must not keep a process (a script, a test run) alive; a busy one must.
  const thread = (worker as unknown as { worker?: { ref?: () => void; unref?: () => void } }).worker;
  thread?.unref?.();
  return {
    async recognize(png) {
      if (failure) throw failure;
      thread?.ref?.();
      try {
        const { data: page } = await worker.recognize(Buffer.from(png), {}, { text: false, blocks: true });
        return (page.blocks ?? []) as EngineBlock[];
      } finally {
        thread?.unref?.();
      }
    },
    async terminate() {
      await worker.terminate();
    },
  };
}
