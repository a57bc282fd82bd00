import { readFileSync } from 'node:fs';
import { StoreStartupError } from './errors.js';

/** The file of the append-only store that SQLite replaced; migrated on first start. */
export const LEGACY_FILE = 'store.aof';

type Value =
  | { type: 'string'; value: string }
  | { type: 'list'; value: string[] }
  | { type: 'hash'; value: Record<string, string> }
  | { type: 'set'; value: string[] }
  | { type: 'blob'; value: Uint8Array };

/** A live value of the old file, with its expiry in Unix milliseconds (null = none). */
export type LegacyEntry = Value & { key: string; expiresAt: number | null };

/** One line of the old file: a mutation with absolute times. */
type LogRecord =
  | { op: 'put'; key: string; data: SerializedValue; expiresAt?: number }
  | { op: 'rpush'; key: string; values: string[] }
  | { op: 'sadd'; key: string; members: string[] }
  | { op: 'del'; key: string }
  | { op: 'expireAt'; key: string; at: number | null };

type SerializedValue =
  | { type: 'string'; value: string }
  | { type: 'list'; value: string[] }
  | { type: 'hash'; value: Record<string, string> }
  | { type: 'set'; value: string[] }
  | { type: 'blob'; value: string };

/**
 * Replays the old append-only file into its live values. A torn last line (a crash while
 * appending) is skipped, as the old store did; a broken line anywhere else means the file is
 * damaged, and the start stops instead of dropping what follows it.
 */
export function readLegacyFile(path: string, now: number): LegacyEntry[] {
  const entries = new Map<string, { data: Value; expiresAt: number | null }>();
  const lines = readFileSync(path, 'utf8').split('\n');
  while (lines.length > 0 && lines[lines.length - 1] === '') lines.pop();
  lines.forEach((line, index) => {
    if (!line) return;
    let record: LogRecord;
    try {
      record = JSON.parse(line) as LogRecord;
      if (typeof record?.op !== 'string' || typeof record.key !== 'string') throw new Error('not a record');
    } catch {
      if (index === lines.length - 1) return;
      throw new StoreStartupError(
        `The old store file ${path} is damaged at line ${index + 1} of ${lines.length}, so it was not ` +
          'migrated and the service stops. Restore a backup of it, or move it out of DATA_DIR to start without it.',
      );
    }
    const entry = entries.get(record.key);
    if (record.op === 'put') {
      entries.set(record.key, { data: deserialize(record.data), expiresAt: record.expiresAt ?? null });
    } else if (record.op === 'rpush') {
      if (entry?.data.type === 'list') entry.data.value.push(...record.values);
      else entries.set(record.key, { data: { type: 'list', value: [...record.values] }, expiresAt: null });
    } else if (record.op === 'sadd') {
      if (entry?.data.type === 'set') entry.data.value.push(...record.members);
      else entries.set(record.key, { data: { type: 'set', value: [...record.members] }, expiresAt: null });
    } else if (record.op === 'del') entries.delete(record.key);
    else if (entry) entry.expiresAt = record.at ?? null;
  });
  const live: LegacyEntry[] = [];
  for (const [key, { data, expiresAt }] of entries) {
    if (expiresAt !== null && expiresAt <= now) continue;
    live.push({ key, expiresAt, ...data });
  }
  return live;
}

function deserialize(data: SerializedValue): Value {
  switch (data.type) {
    case 'hash':
      return { type: 'hash', value: { ...data.value } };
    case 'set':
      return { type: 'set', value: [...data.value] };
    case 'blob':
      return { type: 'blob', value: new Uint8Array(Buffer.from(data.value, 'base64')) };
    default:
      return data;
  }
}
