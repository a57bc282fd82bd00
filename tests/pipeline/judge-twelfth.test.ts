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
