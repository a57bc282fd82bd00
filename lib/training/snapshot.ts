import { deserializeModel, type NgramModel } from '../lm';

/** What a stored snapshot covers: the reset epoch and the number of chunks applied. */
export interface SnapshotTag {
  epoch: string;
  chunks: number;
}

/**
 * A snapshot blob: a 4-byte header length, a JSON tag, then the model's own bytes. The tag travels
 * inside the blob, so a reader never pairs a model with the wrong chunk count.
 */
export function encodeSnapshot(tag: SnapshotTag, model: NgramModel): Uint8Array {
  const header = new TextEncoder().encode(JSON.stringify(tag));
  const body = model.serialize();
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
    const tag = JSON.parse(new TextDecoder().decode(bytes.subarray(4, 4 + headerLength))) as SnapshotTag;
    if (typeof tag.epoch !== 'string' || !Number.isInteger(tag.chunks)) return undefined;
    return { tag, model: deserializeModel(bytes.subarray(4 + headerLength)) };
  } catch {
    return undefined;
  }
}
