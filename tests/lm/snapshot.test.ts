import { describe, expect, it } from 'vitest';
import {
  createModel,
  deserializeModel,
  type NgramModel,
  SnapshotFormatError,
  scoreLine,
} from '../../lib/lm/index.js';
import { writeSnapshot } from '../../lib/lm/persistence/snapshot-writer.js';
import { corpusLines } from './corpus.js';

const lines = corpusLines('kjv.raw.txt').slice(0, 2000);
const probe = corpusLines('kjv.raw.txt').slice(25000, 25030);

function scores(model: NgramModel): number[] {
  return probe.flatMap((line) => scoreLine(model, line).logProbs);
}

describe('model snapshots', () => {
  const model = createModel({ order: 4 });
  model.addText(lines.slice(0, 1000).join('\n'));
  const bytes = model.serialize();

  it('loads back with the same vocabulary, counts, probabilities and casing', () => {
    const loaded = deserializeModel(bytes);
    expect(loaded.order).toBe(4);
    expect(loaded.tokenizer).toBe('natural');
    expect(loaded.vocabSize).toBe(model.vocabSize);
    expect(loaded.tokenCount).toBe(model.tokenCount);
    expect(scores(loaded)).toEqual(scores(model));
    const lord = model.vocabulary.id('lord');
    expect(loaded.surfaceForm(lord)).toBe('LORD');
    expect(loaded.serialize()).toEqual(bytes);
  });

  it('continues training after loading exactly as if it had never stopped', () => {
    const loaded = deserializeModel(bytes);
    loaded.addText(lines.slice(1000).join('\n'));
    const straight = createModel({ order: 4 });
    straight.addText(lines.join('\n'));
    expect(scores(loaded)).toEqual(scores(straight));
    expect(loaded.serialize()).toEqual(straight.serialize());
  });

  it('keeps both directions: the backward model scores the same after loading', () => {
    const loaded = deserializeModel(bytes);
    const words = model.tokens('and the LORD said unto Moses').map((word) => model.vocabulary.id(word));
    const backwards = (m: NgramModel) => {
      const state = m.backward!.startState();
      return [...words].reverse().map((id) => m.backward!.advance(state, id));
    };
    expect(backwards(loaded)).toEqual(backwards(model));
  });

  it('leaves the counts of a deferred load undecoded until they are read, then equal to an eager load', () => {
    const eager = deserializeModel(bytes);
    const lazy = deserializeModel(bytes, { deferCounts: true });
    expect(lazy.forwardDeferred).toBe(true);
    expect(lazy.backwardDeferred).toBe(true);
    expect(lazy.vocabSize).toBe(eager.vocabSize);
    // A tail in several calls, as a cold instance replays chunks: the first grows the counts past
    // a compaction, the others stay pending.
    for (const m of [eager, lazy]) {
      m.addText(lines.slice(1000, 1600).join('\n'));
      m.addText(lines.slice(1600, 1700).join('\n'));
      m.addText(lines.slice(1700, 1720).join('\n'));
    }
    // Learning meanwhile grows the vocabulary and the casing without decoding anything.
    expect(lazy.forwardDeferred && lazy.backwardDeferred).toBe(true);
    expect(lazy.vocabSize).toBe(eager.vocabSize);
    expect(lazy.tokenCount).toBe(eager.tokenCount);
    expect(lazy.surfaceForm(lazy.vocabulary.id('lord'))).toBe(eager.surfaceForm(eager.vocabulary.id('lord')));
    // The backward model first, so it skips the forward bytes it finds in its way.
    const words = model.tokens('and the LORD said unto Moses').map((word) => model.vocabulary.id(word));
    const backwards = (m: NgramModel) => {
      const state = m.backward!.startState();
      return [...words].reverse().map((id) => m.backward!.advance(state, id));
    };
    expect(backwards(lazy)).toEqual(backwards(eager));
    expect(lazy.backwardDeferred).toBe(false);
    expect(lazy.forwardDeferred).toBe(true);
    expect(scores(lazy)).toEqual(scores(eager));
    expect(lazy.forwardDeferred).toBe(false);
    const layout = (counts: NgramModel['backwardCounts']) =>
      counts!.levels.map((level) => [level.sorted, level.size, level.pending?.size ?? 0]);
    expect(layout(lazy.backwardCounts)).toEqual(layout(eager.backwardCounts));
    expect(layout(lazy.forwardCounts)).toEqual(layout(eager.forwardCounts));
    expect(lazy.serialize()).toEqual(eager.serialize());
  });

  it('decodes the forward counts of a deferred load on their own when they are read first', () => {
    const lazy = deserializeModel(bytes, { deferCounts: true });
    lazy.addText(lines.slice(1000, 1100).join('\n'));
    const eager = deserializeModel(bytes);
    eager.addText(lines.slice(1000, 1100).join('\n'));
    expect(scores(lazy)).toEqual(scores(eager));
    expect(lazy.forwardDeferred).toBe(false);
    expect(lazy.backwardDeferred).toBe(true);
    expect(lazy.serialize()).toEqual(eager.serialize());
  });

  it('leaves counts encoded after a write that asks for it; learning goes on and nothing is counted twice', () => {
    const straight = createModel({ order: 4 });
    const encoded = createModel({ order: 4 });
    for (const m of [straight, encoded]) m.addText(lines.slice(0, 600).join('\n'));
    const written = writeSnapshot(encoded, { encodeAfter: true }).slice();
    expect(written).toEqual(straight.serialize());
    expect(encoded.forwardDeferred && encoded.backwardDeferred).toBe(true);
    // Two rounds: learn while encoded, write (decoding one direction at a time), learn again.
    for (const [from, to] of [
      [600, 900],
      [900, 1000],
    ]) {
      for (const m of [straight, encoded]) m.addText(lines.slice(from, to).join('\n'));
      expect(encoded.vocabSize).toBe(straight.vocabSize);
      expect(writeSnapshot(encoded, { encodeAfter: true })).toEqual(straight.serialize());
    }
    expect(scores(encoded)).toEqual(scores(straight));
    expect(encoded.backwardDeferred).toBe(true);
    expect(encoded.serialize()).toEqual(straight.serialize());
  });

  it('reports damage in deferred counts when they are first read', () => {
    const lazy = deserializeModel(bytes.subarray(0, bytes.length - 40), { deferCounts: true });
    expect(scores(lazy)).toEqual(scores(model));
    expect(() => lazy.backward).toThrow(SnapshotFormatError);
  });

  it('round-trips a pretokenized forward-only model', () => {
    const plain = createModel({ order: 2, tokenizer: 'whitespace', directions: 'forward' });
    plain.addText('a b c\nb c d');
    const loaded = deserializeModel(plain.serialize());
    expect(loaded.tokenizer).toBe('whitespace');
    expect(loaded.backward).toBeNull();
    expect(scoreLine(loaded, 'a b d').logProbs).toEqual(scoreLine(plain, 'a b d').logProbs);
  });

  it('keeps the layout of version 3 byte for byte, and reads versions 2 and 1 as their writers wrote them', () => {
    // Successors are inserted out of word order here.
    const tiny = createModel({ order: 3, tokenizer: 'whitespace' });
    tiny.addText('c b a\na c b c\nb a c a\nc a b');
    expect(Buffer.from(tiny.serialize()).toString('base64')).toBe(
      'TkdMTQMDAQIOBAMFYwpiCmEABgAAAwMDAwwAAwADAwMDAQECAgECAQICAQECAQEBAgIBAQICAgEOAgEBAAICAAECAAIBBAEFAwMCAgICAgEEAQIBAQEBAQEBAQEBAQEBAQYAAAMDAwMMAAMAAwMDAwEBAgIBAgECAgEBAQECAgECAQIBAQICDgEBAgABAgACAQACAgQFAwEDAgICAwMCAwIBAQEBAQEBAQEBAQEBAQE=',
    );
    // Version 2 wrote each word as a string of its own.
    const version2 = Buffer.from(
      'TkdMTQIDAQIOBAMBYwFiAWEABgAAAwMDAwwAAwADAwMDAQECAgECAQICAQECAQEBAgIBAQICAgEOAgEBAAICAAECAAIBBAEFAwMCAgICAgEEAQIBAQEBAQEBAQEBAQEBAQYAAAMDAwMMAAMAAwMDAwEBAgIBAgECAgEBAQECAgECAQIBAQICDgEBAgABAgACAQACAgQFAwEDAgICAwMCAwIBAQEBAQEBAQEBAQEBAQE=',
      'base64',
    );
    expect(deserializeModel(version2).serialize()).toEqual(tiny.serialize());
    expect(deserializeModel(version2, { deferCounts: true }).serialize()).toEqual(tiny.serialize());
    const version1 = Buffer.from(
      'TkdMTQEDAQIOBAMBYwFiAWEABgAAAwMDAwwAAwMCAQEBAQADAgECAgECAwIBAQECAgMCAgECAQEOAgQBAQEBBQEBAwEAAgMBAgECAgECAQABAgECAgEBAQACBAEBAQECAQYAAAMDAwMMAAMDAQEBAQIAAwICAgEBAgMCAQECAgEDAgEBAgECDgEEAQEFAQIDAQEBAAEDAQICAQIBAAICAQMBAQMBAAICAQMBAgIBAQE=',
      'base64',
    );
    const read = deserializeModel(version1);
    expect(read.serialize()).toEqual(tiny.serialize());
    expect(scoreLine(read, 'a b c a').logProbs).toEqual(scoreLine(tiny, 'a b c a').logProbs);
  });

  it('leaves room to grow when asked, and training on it ends the same', () => {
    const roomy = deserializeModel(bytes, { roomToGrow: true });
    const tight = deserializeModel(bytes);
    expect(roomy.forwardCounts.levels[4].entries.length).toBeGreaterThan(
      tight.forwardCounts.levels[4].entries.length,
    );
    for (const m of [roomy, tight]) m.addText(lines.slice(1000, 1100).join('\n'));
    expect(scores(roomy)).toEqual(scores(tight));
    expect(roomy.serialize()).toEqual(tight.serialize());
  });

  it('rejects bytes that are not a snapshot, or a truncated one', () => {
    expect(() => deserializeModel(new TextEncoder().encode('hello world'))).toThrow(SnapshotFormatError);
    expect(() => deserializeModel(bytes.subarray(0, bytes.length >> 1))).toThrow(SnapshotFormatError);
  });
});
