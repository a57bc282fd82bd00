import { createInflate } from 'node:zlib';
import { ReadRefused } from './refusal.js';

/**
 * Counts what a PDF's compressed streams expand to, before pdf.js reads any of them: every
 * `stream … endstream` of the file is run through its filter chain (Flate, LZW, RunLength and
 * the ASCII encodings that may wrap them) with the output counted and thrown away, and the read
 * stops as soon as the total passes `maxInflatedBytes`. Streams inside object streams cannot
 * exist (the format forbids it), so the top-level scan sees them all. Encrypted files are refused:
 * their streams cannot be counted without decrypting them.
 */
export async function checkInflatedSize(bytes: Uint8Array, maxInflatedBytes: number): Promise<number> {
  const source = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const text = source.toString('latin1');
  if (/\/Encrypt\s*(\d+\s+\d+\s+R|<<)/.test(text)) throw new ReadRefused({ limit: 'unreadable' });
  let total = 0;
  const keyword = /(?<!end)stream(?:\r\n|\n|\r)/g;
  for (let match = keyword.exec(text); match; match = keyword.exec(text)) {
    const start = match.index + match[0].length;
    const dictionary = text.slice(Math.max(0, text.lastIndexOf(' obj', match.index)), match.index);
    const filters = filtersOf(dictionary);
    const end = streamEnd(text, dictionary, start);
    keyword.lastIndex = end;
    if (!filters.some((filter) => EXPANDING.has(filter))) continue;
    let data: Buffer = source.subarray(start, end);
    const budget = maxInflatedBytes - total;
    for (const filter of filters) {
      const decode = DECODERS[filter];
      if (!decode) break;
      const decoded = await decode(data, budget, dictionary);
      if (decoded === OVER_BUDGET)
        throw new ReadRefused({ limit: 'MAX_INFLATED_BYTES', max: maxInflatedBytes });
      data = decoded;
    }
    total += data.length;
  }
  return total;
}

const EXPANDING = new Set(['FlateDecode', 'LZWDecode', 'RunLengthDecode']);
const ABBREVIATIONS: Record<string, string> = {
  Fl: 'FlateDecode',
  LZW: 'LZWDecode',
  RL: 'RunLengthDecode',
  AHx: 'ASCIIHexDecode',
  A85: 'ASCII85Decode',
};

function filtersOf(dictionary: string): string[] {
  const found = /\/Filter\s*(\[[^\]]*\]|\/[A-Za-z0-9]+)/.exec(dictionary);
  if (!found) return [];
  return [...found[1].matchAll(/\/([A-Za-z0-9]+)/g)].map((name) => ABBREVIATIONS[name[1]] ?? name[1]);
}

/** Where a stream's data ends: its direct /Length when `endstream` follows there, else the next `endstream`. */
function streamEnd(text: string, dictionary: string, start: number): number {
  const length = /\/Length\s+(\d+)(?!\s+\d+\s+R)/.exec(dictionary);
  if (length) {
    const end = start + Number(length[1]);
    if (/^\s*endstream/.test(text.slice(end, end + 32))) return end;
  }
  const next = text.indexOf('endstream', start);
  return next >= 0 ? next : text.length;
}

/** What a decoder answers when its output would pass the budget (the bytes are not kept). */
const OVER_BUDGET = Symbol('over budget');

type Decoded = Buffer | typeof OVER_BUDGET;
type Decoder = (data: Buffer, budget: number, dictionary: string) => Decoded | Promise<Decoded>;

const DECODERS: Record<string, Decoder> = {
  FlateDecode: inflateCapped,
  LZWDecode: lzwDecode,
  RunLengthDecode: runLengthDecode,
  ASCIIHexDecode: asciiHexDecode,
  ASCII85Decode: ascii85Decode,
};

/**
 * Inflates up to budget + 1 bytes, keeping what came out before any damage (pdf.js reads a damaged
 * stream as far as it goes, so that part counts too).
 */
function inflateCapped(data: Buffer, budget: number): Promise<Decoded> {
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let done = false;
    const inflate = createInflate({ chunkSize: 64 * 1024 });
    const finish = () => {
      if (done) return;
      done = true;
      inflate.removeAllListeners('data');
      inflate.destroy();
      resolve(size > budget ? OVER_BUDGET : Buffer.concat(chunks));
    };
    inflate.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > budget) return finish();
      chunks.push(chunk);
    });
    inflate.on('error', finish);
    inflate.on('end', finish);
    inflate.end(data);
  });
}

function runLengthDecode(data: Buffer, budget: number): Decoded {
  const out: Buffer[] = [];
  let size = 0;
  for (let i = 0; i < data.length; ) {
    const n = data[i++];
    if (n === 128) break;
    const piece = n < 128 ? data.subarray(i, i + n + 1) : Buffer.alloc(257 - n, data[i] ?? 0);
    i += n < 128 ? n + 1 : 1;
    size += piece.length;
    if (size > budget) return OVER_BUDGET;
    out.push(piece);
  }
  return Buffer.concat(out);
}

function lzwDecode(data: Buffer, budget: number, dictionary: string): Decoded {
  const early = /\/EarlyChange\s+0\b/.test(dictionary) ? 0 : 1;
  const table: Buffer[] = [];
  const reset = () => {
    table.length = 258;
    for (let i = 0; i < 256; i++) table[i] = Buffer.of(i);
  };
  reset();
  const out: Buffer[] = [];
  let size = 0;
  let width = 9;
  let previous: Buffer | undefined;
  let bits = 0;
  let held = 0;
  for (let i = 0; i < data.length; i++) {
    held = ((held << 8) | data[i]) & 0xffffff;
    bits += 8;
    while (bits >= width) {
      const code = (held >> (bits - width)) & ((1 << width) - 1);
      bits -= width;
      if (code === 256) {
        reset();
        width = 9;
        previous = undefined;
        continue;
      }
      if (code === 257) return Buffer.concat(out);
      let entry: Buffer;
      if (code < table.length) entry = table[code];
      else if (code === table.length && previous) entry = Buffer.concat([previous, previous.subarray(0, 1)]);
      else return Buffer.concat(out);
      if (previous && table.length < 4096) table.push(Buffer.concat([previous, entry.subarray(0, 1)]));
      previous = entry;
      size += entry.length;
      if (size > budget) return OVER_BUDGET;
      out.push(entry);
      const next = table.length + early;
      width = next >= 2048 ? 12 : next >= 1024 ? 11 : next >= 512 ? 10 : 9;
    }
  }
  return Buffer.concat(out);
}

function asciiHexDecode(data: Buffer): Buffer {
  const text = data.toString('latin1');
  const end = text.indexOf('>');
  const digits = (end >= 0 ? text.slice(0, end) : text).replace(/[^0-9a-fA-F]/g, '');
  return Buffer.from(digits.length % 2 ? `${digits}0` : digits, 'hex');
}

function ascii85Decode(data: Buffer): Buffer {
  const text = data.toString('latin1');
  const end = text.indexOf('~>');
  const body = (end >= 0 ? text.slice(0, end) : text).replace(/\s+/g, '');
  const out: number[] = [];
  let group: number[] = [];
  for (const character of body) {
    if (character === 'z' && group.length === 0) {
      out.push(0, 0, 0, 0);
      continue;
    }
    const digit = character.charCodeAt(0) - 33;
    if (digit < 0 || digit > 84) continue;
    group.push(digit);
    if (group.length === 5) {
      out.push(...wordOf(group, 4));
      group = [];
    }
  }
  if (group.length > 1) {
    const kept = group.length - 1;
    while (group.length < 5) group.push(84);
    out.push(...wordOf(group, kept));
  }
  return Buffer.from(out);
}

function wordOf(group: number[], keep: number): number[] {
  const value = group.reduce((sum, digit) => sum * 85 + digit, 0) >>> 0;
  return [value >>> 24, (value >>> 16) & 255, (value >>> 8) & 255, value & 255].slice(0, keep);
}
