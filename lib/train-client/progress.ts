/** Formats a byte count for people: 512 B, 12.3 KB, 4.5 MB. */
export function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1000 * 1024) return `${(bytes / 1024).toFixed(1)} KB`;
  if (bytes < 1024 * 1024 * 1024) return `${(bytes / (1024 * 1024)).toFixed(1)} MB`;
  return `${(bytes / (1024 * 1024 * 1024)).toFixed(2)} GB`;
}

/** One line of a progress bar: `[#####-----]  50% 2.0 MB / 4.0 MB · part 3 · 123,456 tokens`. */
export function progressLine(
  state: { sentBytes: number; totalBytes: number; parts: number; tokens: number },
  width = 24,
): string {
  const fraction = state.totalBytes > 0 ? Math.min(1, state.sentBytes / state.totalBytes) : 1;
  const filled = Math.round(fraction * width);
  const bar = `[${'#'.repeat(filled)}${'-'.repeat(width - filled)}]`;
  const percent = `${Math.floor(fraction * 100)}%`.padStart(4);
  return `${bar} ${percent} ${formatBytes(state.sentBytes)} / ${formatBytes(state.totalBytes)} · ${state.parts} part${state.parts === 1 ? '' : 's'} · ${state.tokens.toLocaleString('en-US')} tokens`;
}
