import { nextCapacity } from '../querying/growth.js';

const encoder = new TextEncoder();
const decoder = new TextDecoder();

/** Appends unsigned LEB128 varints, bytes and strings to a growing buffer. */
export class ByteWriter {
  private bytes: Uint8Array;
  private length = 0;

  /** `expectedBytes`: room to start with, so a large output is not grown (and copied) step by step. */
  constructor(expectedBytes = 1 << 16) {
    this.bytes = new Uint8Array(Math.max(16, Math.ceil(expectedBytes)));
  }

  /** An unsigned integer below 2^53. */
  uint(value: number): void {
    if (this.length + 8 > this.bytes.length) this.reserve(8);
    let v = value;
    while (v >= 0x80000000) {
      this.bytes[this.length++] = (v % 0x80) | 0x80;
      v = Math.floor(v / 0x80);
    }
    while (v >= 0x80) {
      this.bytes[this.length++] = (v & 0x7f) | 0x80;
      v >>>= 7;
    }
    this.bytes[this.length++] = v;
  }

  /** Raw bytes. */
  raw(bytes: Uint8Array): void {
    this.reserve(bytes.length);
    this.bytes.set(bytes, this.length);
    this.length += bytes.length;
  }

  /** A length-prefixed UTF-8 string. */
  string(text: string): void {
    const bytes = encoder.encode(text);
    this.uint(bytes.length);
    this.raw(bytes);
  }

  /** How many bytes were written so far. */
  get written(): number {
    return this.length;
  }

  /** The bytes written from `start` on (a view, valid until the next write). */
  since(start: number): Uint8Array {
    return this.bytes.subarray(start, this.length);
  }

  /** The bytes written so far (a view, not a copy). */
  finish(): Uint8Array {
    return this.bytes.subarray(0, this.length);
  }

  private reserve(extra: number): void {
    if (this.length + extra <= this.bytes.length) return;
    const grown = new Uint8Array(nextCapacity(this.bytes.length, this.length + extra));
    grown.set(this.bytes.subarray(0, this.length));
    this.bytes = grown;
  }
}

/** Reads what `ByteWriter` wrote; throws `RangeError` past the end. */
export class ByteReader {
  offset = 0;

  constructor(private readonly bytes: Uint8Array) {}

  uint(): number {
    const bytes = this.bytes;
    if (this.offset >= bytes.length) throw new RangeError('snapshot truncated');
    let byte = bytes[this.offset++];
    if (byte < 0x80) return byte;
    let value = byte & 0x7f;
    let scale = 0x80;
    for (;;) {
      if (this.offset >= bytes.length) throw new RangeError('snapshot truncated');
      byte = bytes[this.offset++];
      value += (byte & 0x7f) * scale;
      if (byte < 0x80) return value;
      scale *= 0x80;
    }
  }

  raw(length: number): Uint8Array {
    if (this.offset + length > this.bytes.length) throw new RangeError('snapshot truncated');
    const view = this.bytes.subarray(this.offset, this.offset + length);
    this.offset += length;
    return view;
  }

  string(): string {
    return decoder.decode(this.raw(this.uint()));
  }

  get done(): boolean {
    return this.offset >= this.bytes.length;
  }
}
