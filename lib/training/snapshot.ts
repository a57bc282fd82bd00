import { once } from 'node:events';
import {
  constants,
  createZstdCompress,
  inflateRawSync,
  zstdCompressSync,
  zstdDecompressSync,
} from 'node:zlib';
import {
  allSteps,
  deserializeModel,
  type NgramModel,
  type SnapshotWriteOptions,
  snapshotWriteSteps,
} from '../lm/index.js';
import { deserializePassageIndex, type PassageIndex, serializePassageIndex } from '../retrieval/index.js';

/** What a stored snapshot covers: the reset epoch and the number of chunks applied. */
export interface SnapshotTag {
  epoch: string;
  chunks: number;
  /** How many of those chunks were dialogue (their texts are the first entries of the dialogue list). */
  dialogueChunks?: number;
  /** Which chunks teach which document and which are forgotten (`DocumentLedger`), when any has an id. */
  documents?: unknown;
}

/**
 * The encoding of snapshots written now: the model's bytes and the passage index's, compressed
 * together by Zstandard with its content checksum (so damage is caught before anything is
 * decoded, and the counts can wait encoded until they are needed). Smaller than deflate and
 * quicker to decompress.
 */
const ENCODING = 'zstd+passages';
/** Earlier snapshots, still read: the same bytes deflated, no checksum. */
const DEFLATED = 'deflate-raw+passages';
/**
 * Zstandard level: 9 for small snapshots; 3 from LARGE_PLAIN_BYTES on, where level 9 costs 5.7 CPU
 * seconds for the 58 MB of a 20 MB corpus against 1.0 s at level 3, for a blob only 5% larger
 * (27.4 MB against 26.0 MB); decompressing costs the same.
 */
const ZSTD_LEVEL = 9;
const LARGE_ZSTD_LEVEL = 3;
const LARGE_PLAIN_BYTES = 16_000_000;

function zstdOptions(plainBytes: number) {
  const level = plainBytes >= LARGE_PLAIN_BYTES ? LARGE_ZSTD_LEVEL : ZSTD_LEVEL;
  return { params: { [constants.ZSTD_c_compressionLevel]: level, [constants.ZSTD_c_checksumFlag]: 1 } };
}

/** A snapshot before compression: its header, then the model's bytes and the passage index's. */
export interface PlainSnapshot {
  header: Uint8Array;
  parts: [model: Uint8Array, passages: Uint8Array];
  plainBytes: number;
}

/**
 * A snapshot blob: a 4-byte header length, a JSON tag, then the model's own bytes followed by the
 * passage index's, compressed. The tag travels inside the blob, so a reader never pairs a model with
 * the wrong chunk count, and model and index always cover the same chunks.
 */
export function encodeSnapshot(tag: SnapshotTag, model: NgramModel, passages: PassageIndex): Uint8Array {
  const { header, parts, plainBytes } = plainSnapshot(tag, model, passages);
  const plain = new Uint8Array(plainBytes);
  plain.set(parts[0], 0);
  plain.set(parts[1], parts[0].byteLength);
  return framed(header, [zstdCompressSync(plain, zstdOptions(plainBytes))]);
}

/**
 * What `encodeSnapshot` makes, in two steps: `plainSnapshot` (on the calling thread: it reads the
 * model) and then this, which compresses on a thread of libuv's pool, so the event loop serves
 * requests meanwhile.
 */
export async function compressSnapshot({ header, parts, plainBytes }: PlainSnapshot): Promise<Uint8Array> {
  // A stream, so the parts are never copied into one buffer; each write is compressed off the loop.
  const compressor = createZstdCompress(zstdOptions(plainBytes));
  const body: Buffer[] = [];
  compressor.on('data', (data: Buffer) => body.push(data));
  const ended = once(compressor, 'end');
  for (const part of parts) compressor.write(part);
  compressor.end();
  await ended;
  return framed(header, body);
}

/** The model's and the passage index's bytes as they are now, and the header that describes them. */
export function plainSnapshot(tag: SnapshotTag, model: NgramModel, passages: PassageIndex): PlainSnapshot {
  return allSteps(plainSnapshotSteps(tag, model, passages));
}

/**
 * `plainSnapshot` in steps (the model's words, each direction of its counts, the passages), for a
 * caller that lets requests run between them; nothing may train until the last one is done.
 * `encodeAfter` leaves the model's counts encoded once written (`SnapshotWriteOptions`).
 */
export function* plainSnapshotSteps(
  tag: SnapshotTag,
  model: NgramModel,
  passages: PassageIndex,
  options: SnapshotWriteOptions = {},
): Generator<void, PlainSnapshot, void> {
  const modelBytes = yield* snapshotWriteSteps(model, options);
  yield;
  const indexBytes = serializePassageIndex(passages);
  passages.pack();
  const plainBytes = modelBytes.byteLength + indexBytes.byteLength;
  const header = new TextEncoder().encode(
    JSON.stringify({
      ...tag,
      encoding: ENCODING,
      modelBytes: modelBytes.byteLength,
      plainBytes,
    }),
  );
  return { header, parts: [modelBytes, indexBytes], plainBytes };
}

function framed(header: Uint8Array, body: Uint8Array[]): Uint8Array {
  const bodyBytes = body.reduce((sum, piece) => sum + piece.byteLength, 0);
  const out = new Uint8Array(4 + header.byteLength + bodyBytes);
  new DataView(out.buffer).setUint32(0, header.byteLength);
  out.set(header, 4);
  let at = 4 + header.byteLength;
  for (const piece of body) {
    out.set(piece, at);
    at += piece.byteLength;
  }
  return out;
}

export interface DecodeOptions {
  /** How many chunks the store holds: when more than the snapshot covers, the model gets room for them. */
  chunksStored?: number;
}

/**
 * Reads a snapshot blob; undefined when it is damaged or not one of ours. Snapshots written before
 * the passage index existed come back without `passages`: the caller replays the corpus instead.
 */
export function decodeSnapshot(
  bytes: Uint8Array,
  options: DecodeOptions = {},
): { tag: SnapshotTag; model: NgramModel; passages?: PassageIndex } | undefined {
  try {
    const headerLength = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength).getUint32(0);
    const tag = JSON.parse(new TextDecoder().decode(bytes.subarray(4, 4 + headerLength))) as SnapshotTag & {
      encoding?: string;
      modelBytes?: number;
      plainBytes?: number;
    };
    if (typeof tag.epoch !== 'string' || !Number.isInteger(tag.chunks)) return undefined;
    const body = bytes.subarray(4 + headerLength);
    const where: SnapshotTag = { epoch: tag.epoch, chunks: tag.chunks };
    if (Number.isInteger(tag.dialogueChunks) && tag.dialogueChunks! > 0)
      where.dialogueChunks = tag.dialogueChunks;
    if (tag.documents !== undefined) where.documents = tag.documents;
    if ((tag.encoding === ENCODING || tag.encoding === DEFLATED) && Number.isInteger(tag.modelBytes)) {
      const checked = tag.encoding === ENCODING;
      const plain = checked ? decompress(body, tag.plainBytes) : inflateRawSync(body);
      if (tag.plainBytes !== undefined && plain.byteLength !== tag.plainBytes) return undefined;
      const roomToGrow = (options.chunksStored ?? 0) > tag.chunks;
      const model = deserializeModel(plain.subarray(0, tag.modelBytes), {
        deferCounts: checked,
        roomToGrow,
      });
      const passages = deserializePassageIndex(plain.subarray(tag.modelBytes));
      return { tag: where, model, passages };
    }
    const model = deserializeModel(tag.encoding === 'deflate-raw' ? inflateRawSync(body) : body);
    return { tag: where, model };
  } catch {
    return undefined;
  }
}

/** Zstandard into one buffer of the size the header gives (not chunk by chunk, then joined). */
function decompress(body: Uint8Array, plainBytes: number | undefined): Buffer {
  const known = Number.isInteger(plainBytes) && plainBytes! > 0 && plainBytes! < 2 ** 31 - 1;
  return zstdDecompressSync(body, known ? { chunkSize: Math.max(64, plainBytes! + 1) } : {});
}
