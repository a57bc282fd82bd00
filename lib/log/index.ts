/** How much the service writes to its log. */
export type LogLevel = 'silent' | 'error' | 'info';

let level: LogLevel = (process.env.LOG_LEVEL as LogLevel | undefined) ?? 'info';

/** Sets the log level (the configuration does this at start). */
export function setLogLevel(next: LogLevel): void {
  level = next;
}

/** One JSON line per event on stdout, so platform log drains can parse it. */
export function logInfo(event: string, fields: Record<string, unknown> = {}): void {
  if (level === 'info') console.log(JSON.stringify({ level: 'info', event, ...fields }));
}

/** Errors go to stderr with their stack; they never reach a response body. */
export function logError(event: string, error: unknown, fields: Record<string, unknown> = {}): void {
  if (level === 'silent') return;
  const detail =
    error instanceof Error ? { message: error.message, stack: error.stack } : { message: String(error) };
  console.error(JSON.stringify({ level: 'error', event, ...fields, ...detail }));
}
