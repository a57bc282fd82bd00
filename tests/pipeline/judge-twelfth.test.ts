import { describe, expect, it } from 'vitest';
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
