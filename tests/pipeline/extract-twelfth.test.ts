import { describe, expect, it } from 'vitest';
import { pipelineSession } from '../support/pipeline.js';

const BUILTINS = [
  'alpha',
  'bravo',
  'cedar',
  'delta',
  'ember',
  'fjord',
  'grove',
  'harbor',
  'iris',
  'juniper',
  'kestrel',
  'lumen',
  'maple',
  'nectar',
  'onyx',
  'pebble',
];

/** A manual whose program's name is written in nearly every one of its passages, as a manual's is. */
const MANUAL = `# Tarn manual

## Tarn Startup Files

This section describes how Tarn executes its startup files. If any of the files exist but cannot be read, Tarn reports an error.

When Tarn is started as a login shell, it first reads and runs the commands of the file /etc/tarnrc, if that file exists.

## Invocation

Tarn reads and runs the commands of a file when the file's name is given as its first argument.

## Non-interactive shells

A shell that Tarn starts for a script reads no startup files unless Tarn is told to.

## Restricted shell

When Tarn is started with the name rtarn, the shell is restricted.

## POSIX mode

In POSIX mode the POSIX startup files are read rather than the normal Tarn files.

## Prompt

Tarn shows its prompt before it reads each command line.

## History

Tarn keeps the command lines typed in a history list.

## Jobs

Tarn runs each pipeline as a job that can be stopped and resumed.

## Aliases

Tarn replaces the first word of a command with its alias, when one is defined.

## Exit status

Tarn returns the exit status of the last command it ran.
${BUILTINS.map((name) => `\n## The ${name} builtin\n\nTarn runs the ${name} builtin without starting a new process.\n`).join('')}`;

describe('short answers to "which X" questions', () => {
  it('are never the name the whole text is about', async () => {
    const { ask } = await pipelineSession('tarn.md', MANUAL);
    const reply = ask('Which startup files does a login shell read?');
    expect(reply.confidence.level).toBe('answer');
    expect(reply.text).toContain('/etc/tarnrc');
    expect(reply.text).not.toMatch(/^Tarn\./);
  });
});

const OUTLINE = `# Kiln manual

## 1. Overview

The first line of a batch file makes the kiln shell stop at the first error it meets when the batch runs.

## 2. Glazes

A glaze is mixed from powder and water before it is brushed on.

## retries (Number)

How many times a firing that failed is started again.
`;

describe('the name carried into a reply from the unit heading', () => {
  it('is never a numbered heading of the manual outline', async () => {
    const { ask } = await pipelineSession('kiln.md', OUTLINE);
    const reply = ask('Which shell command makes a batch stop at the first error?');
    expect(reply.text).toMatch(/stop at the first error/);
    expect(reply.text).not.toMatch(/Overview/);
  });

  it('is still the name a reference heading gives', async () => {
    const { ask } = await pipelineSession('kiln.md', OUTLINE);
    const reply = ask('Which setting says how often a failed firing is started again?');
    expect(reply.text).toMatch(/^`?retries`?: /);
  });
});
