import type { Hash } from 'node:crypto';
import { createReadStream } from 'node:fs';

/** Text the CLI will not send: binary, or not UTF-8. The message says what and where. */
export class UnreadableText extends Error {}

const CHUNK_BYTES = 256 * 1024;

/** A file's text in chunks, refusing NUL bytes and invalid UTF-8 on the way. */
export async function* readText(path: string, hash: Hash): AsyncGenerator<string> {
  // ignoreBOM keeps a byte order mark in the text, so the text sent hashes as the file does.
  const decoder = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });
  let offset = 0;
  for await (const chunk of createReadStream(path, { highWaterMark: CHUNK_BYTES }) as AsyncIterable<Buffer>) {
    refuseNul(chunk, offset);
    hash.update(chunk);
    let text: string;
    try {
      text = decoder.decode(chunk, { stream: true });
    } catch {
      throw invalidUtf8(chunk, offset);
    }
    offset += chunk.byteLength;
    yield text;
  }
  try {
    const tail = decoder.decode();
    if (tail) yield tail;
  } catch {
    throw new UnreadableText('not UTF-8 text: it ends inside a character');
  }
}

export function decodeWhole(bytes: Uint8Array): string {
  refuseNul(bytes, 0);
  try {
    return new TextDecoder('utf-8', { fatal: true, ignoreBOM: true }).decode(bytes);
  } catch {
    throw invalidUtf8(bytes, 0);
  }
}

function refuseNul(bytes: Uint8Array, offset: number): void {
  const nul = bytes.indexOf(0);
  if (nul >= 0) throw new UnreadableText(`binary, not text: a NUL byte at byte ${offset + nul}`);
}

/** Names where the first invalid sequence starts (within a few bytes when a chunk began mid-character). */
function invalidUtf8(bytes: Uint8Array, offset: number): UnreadableText {
  let low = 0;
  let high = bytes.byteLength;
  while (low < high) {
    const middle = Math.ceil((low + high) / 2);
    try {
      new TextDecoder('utf-8', { fatal: true }).decode(bytes.subarray(0, middle), { stream: true });
      low = middle;
    } catch {
      high = middle - 1;
    }
  }
  // The longest prefix may end inside a character that the next byte breaks: name its start.
  let start = low;
  for (let back = 1; back <= 3 && low - back >= 0; back++) {
    const byte = bytes[low - back]!;
    if ((byte & 0xc0) === 0x80) continue;
    const length = byte >= 0xf0 ? 4 : byte >= 0xe0 ? 3 : byte >= 0xc0 ? 2 : 1;
    if (length > back) start = low - back;
    break;
  }
  return new UnreadableText(`not UTF-8 text: an invalid byte sequence at byte ${offset + start}`);
}
