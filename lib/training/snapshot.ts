import { deflateRawSync, inflateRawSync } from 'node:zlib';
import { deserializeModel, type NgramModel } from '../lm/index.js';

/** What a stored snapshot covers: the reset epoch and the number of chunks applied. */
export interface SnapshotTag {
  epoch: string;
  chunks: number;
}

/**
 * A snapshot blob: a 4-byte header length, a JSON tag, then the model's own bytes, deflated (the
 * KJV's 6.7 MB become about 4 MB, less to move on every cold start). The tag travels inside the
 * blob, so a reader never pairs a model with the wrong chunk count.
 */
export function encodeSnapshot(tag: SnapshotTag, model: NgramModel): Uint8Array {
  const header = new TextEncoder().encode(JSON.stringify({ ...tag, encoding: 'deflate-raw' }));
  const body = deflateRawSync(model.serialize(), { level: 6 });
  const out = new Uint8Array(4 + header.byteLength + body.byteLength);
  new DataView(out.buffer).setUint32(0, header.byteLength);
  out.set(header, 4);
  out.set(body, 4 + header.byteLength);
  return out;
}

/** Reads a snapshot blob; undefined when it is damaged or not one of ours. */
export function decodeSnapshot(bytes: Uint8Array): { tag: SnapshotTag; model: NgramModel } | undefined {
  try {
    const headerLength = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength).getUint32(0);
    const tag = JSON.parse(new TextDecoder().decode(bytes.subarray(4, 4 + headerLength))) as SnapshotTag & {
      encoding?: string;
    };
    if (typeof tag.epoch !== 'string' || !Number.isInteger(tag.chunks)) return undefined;
    const body = bytes.subarray(4 + headerLength);
    const model = deserializeModel(tag.encoding === 'deflate-raw' ? inflateRawSync(body) : body);
    return { tag: { epoch: tag.epoch, chunks: tag.chunks }, model };
  } catch {
    return undefined;
  }
}
