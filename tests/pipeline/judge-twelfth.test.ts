import { describe, expect, it } from 'vitest';
import type { ReadingSearch } from '../../lib/pipeline/gather.js';
import { judge } from '../../lib/pipeline/judge.js';
import type { Evidence } from '../../lib/pipeline/rank.js';
import { ANSWER_SCORE, RESOLVED_ANSWER_SCORE } from '../../lib/pipeline/tuning.js';
import { pipelineSession } from '../support/pipeline.js';

const GUIDE = `# Plume language guide

## Objects

An object in Plume is a value with named fields, written between braces.

## Modules

A module groups the functions and objects of one file under the file's name.

## Closures

A closure is a function that keeps the variables of the scope it was made in.
`;

describe('a definition question about a term never taught', () => {
  it('is answered "I don\'t know", not with a passage about its other words', async () => {
    const { ask } = await pipelineSession('plume.md', GUIDE);
    const reply = ask('What is a trait object in Plume?');
    expect(reply.confidence.level).toBe('none');
    expect(reply.thought).toMatch(/the term asked about was never taught/);
  });

  it('leaves a term the text names alone', async () => {
    const { ask } = await pipelineSession('plume.md', GUIDE);
    const reply = ask('What is an object in Plume?');
    expect(reply.confidence.level).toBe('answer');
    expect(reply.text).toMatch(/named fields/);
  });
});

describe('a never-taught word in the place of a question verb', () => {
  const SERVICE = `# Heron service

## Replies

Replies can stream as they are written: ask for streaming with the stream field.

## Sessions

A session keeps the last twenty messages of a conversation.

## Storage

The service keeps its data in a local file on a laptop.
`;

  it('is the action asked about, not a thing the text never names', async () => {
    const { ask } = await pipelineSession('heron.md', SERVICE);
    // "support" is a noun as often as a verb; after "does it" it is the verb.
    const reply = ask('Does it support streaming?');
    expect(reply.confidence.level).not.toBe('none');
    expect(reply.text).toMatch(/stream/);
  });
});

describe('a follow-up whose resolved reading scores below an answer to a fresh question', () => {
  // The stage alone, on evidence built here: one unit found by the reading as written, which
  // covers little, and one by the reading resolved against the conversation.
  const reading = (resolved: boolean) =>
    ({
      question: 'and with TLS?',
      resolved,
      carried: resolved ? 'How do I start a server?' : '',
      said: [],
    }) as never;
  const search = (resolved: boolean) =>
    ({
      reading: reading(resolved),
      counted: resolved ? 4 : 1,
      own: 1,
      unknownWords: [],
      unknownName: false,
      unknownSubject: false,
      topical: resolved ? [1, 2, 3] : [],
    }) as unknown as ReadingSearch;
  const unit = (readingIndex: number, id: number, coverage: number, rank: number) =>
    ({
      reading: readingIndex,
      hit: { id, matched: readingIndex === 0 ? [0] : [0, 1, 2], matchedNearby: [] },
      coverage,
      covered: coverage * 4,
      hasRarest: true,
      rank,
    }) as unknown as Evidence;

  it('is the closest passage the conversation points to, not an answer', () => {
    // Coverage 0.72 with no lead over the next unit: a score of about 0.54.
    const ranked = [unit(1, 7, 0.72, 2), unit(1, 8, 0.72, 2), unit(0, 9, 0.2, 1)];
    const judged = judge([search(false), search(true)], ranked);
    expect(judged.best?.hit.id).toBe(7);
    expect(judged.confidence.score).toBeGreaterThanOrEqual(RESOLVED_ANSWER_SCORE);
    expect(judged.confidence.score).toBeLessThan(ANSWER_SCORE);
    expect(judged.confidence.level).toBe('nearest');
  });

  it("is the answer from a fresh answer's score up", () => {
    const ranked = [unit(1, 7, 0.95, 3), unit(1, 8, 0.5, 2), unit(0, 9, 0.2, 1)];
    const judged = judge([search(false), search(true)], ranked);
    expect(judged.best?.hit.id).toBe(7);
    expect(judged.confidence.level).toBe('answer');
  });
});
