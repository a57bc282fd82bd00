/**
 * Imported first by `npm start`: on Linux, restarts this same process (same pid, `execve`) with
 * `MALLOC_ARENA_MAX=2` unless the variable is set. glibc's default of one memory arena per
 * thread keeps what libvips' threads freed after each image, so the resident memory of a server
 * that decodes uploads creeps up (measured: 430 MB after 16 large uploads against 260 MB with 2
 * arenas); libvips and sharp recommend this setting for long-running servers.
 */
if (process.platform === 'linux' && process.env.MALLOC_ARENA_MAX === undefined && process.execve) {
  process.execve(process.execPath, [process.execPath, ...process.execArgv, ...process.argv.slice(1)], {
    ...process.env,
    MALLOC_ARENA_MAX: '2',
  });
}
