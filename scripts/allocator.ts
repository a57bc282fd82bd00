/**
 * Imported first by `npm start`: on Linux, restarts this same process (same pid, `execve`) with
 * the memory settings `docs/scaling.md` measures, for each one not set already:
 * - `MALLOC_ARENA_MAX=2`: glibc's default of one memory arena per thread keeps what libvips' and
 *   zstd's threads freed (measured: 430 MB after 16 large uploads against 260 MB with 2 arenas);
 * - `MALLOC_MMAP_THRESHOLD_=131072`: a fixed threshold, so the large arrays the counts and the
 *   passages are made of always come from `mmap` and go back to the system when freed (glibc's
 *   sliding threshold otherwise keeps them: with the other two, peak RSS training 20 MB of text 564 MB against 790);
 * - `--max-semi-space-size=16` (in `NODE_OPTIONS`): Node 24 lets the young generation grow to
 *   134 MB during a cold start; 16 MB semi-spaces keep it to about 34.
 * A deployment sets the same as environment variables of the project (`docs/scaling.md`).
 */
const SEMI_SPACE = '--max-semi-space-size=16';

function missingSettings(): Record<string, string> {
  const env: Record<string, string> = {};
  if (process.env.MALLOC_ARENA_MAX === undefined) env.MALLOC_ARENA_MAX = '2';
  if (process.env.MALLOC_MMAP_THRESHOLD_ === undefined) env.MALLOC_MMAP_THRESHOLD_ = '131072';
  const options = process.env.NODE_OPTIONS ?? '';
  if (
    !/--max-semi-space-size/.test(options) &&
    !process.execArgv.some((arg) => arg.startsWith('--max-semi-space-size'))
  )
    env.NODE_OPTIONS = `${options} ${SEMI_SPACE}`.trim();
  return env;
}

const missing = missingSettings();
if (process.platform === 'linux' && process.execve && Object.keys(missing).length > 0) {
  process.execve(process.execPath, [process.execPath, ...process.execArgv, ...process.argv.slice(1)], {
    ...process.env,
    ...missing,
  });
}
