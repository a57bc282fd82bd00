/**
 * The store could not start: its file is damaged, or its folder cannot be used. The message is one
 * line naming the file and what to do; the service stops rather than start on an empty store.
 */
export class StoreStartupError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'StoreStartupError';
  }
}

/** SQLite's result codes for a damaged file: SQLITE_CORRUPT and SQLITE_NOTADB. */
export function isDamageError(error: unknown): boolean {
  const code = (error as { errcode?: unknown } | null)?.errcode;
  return typeof code === 'number' && ((code & 0xff) === 11 || (code & 0xff) === 26);
}
