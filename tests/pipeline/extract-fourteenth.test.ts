import { describe, expect, it } from 'vitest';
import { shapeOf } from '../../lib/pipeline/understand/shape.js';
import { pipelineSession } from '../support/pipeline.js';

/**
 * A glossary as a definition list: each entry opens by naming the class of thing its term is, and
 * only the sentences after that say what sets it apart. Every sentence mentions the term, so the
 * question's words alone do not choose among them.
 */
const GLOSSARY = `<html><body><h1>Wren glossary</h1><dl>
<dt>lent handle</dt>
<dd><p>In Wren's native interface, a lent handle is a handle to a value. It does not change the value's owner count. It becomes invalid once the owner frees the value. Passing a lent handle to wren_keep() is the usual way to turn it into a kept handle that stays valid, except where the value is known to outlive every use of the lent handle. The wren_new_handle() call makes a kept handle directly.</p></dd>
<dt>kept handle</dt>
<dd><p>A handle that holds the value alive until it is released. A kept handle must be released exactly once with wren_release(), and releasing it twice is an error that the debug build reports.</p></dd>
<dt>fiber</dt>
<dd><p>A lightweight thread of execution with its own stack.</p></dd>
</dl></body></html>`;

describe('a definition question answered from a long glossary entry', () => {
  it("shows the entry's opening sentences in order, not only the one that names its class", async () => {
    const { ask } = await pipelineSession('glossary.html', GLOSSARY, 'html');
    const reply = ask('What is a lent handle?');
    expect(reply.confidence.level).toBe('answer');
    expect(reply.text).toContain('a lent handle is a handle to a value. It does not change the value');
    expect(reply.text).toContain('It becomes invalid once the owner frees the value.');
  });

  it("keeps choosing by the question's words for other questions about the entry", async () => {
    const { ask } = await pipelineSession('glossary.html', GLOSSARY, 'html');
    const reply = ask('How do I turn a lent handle into a kept handle?');
    expect(reply.text).toContain('wren_keep()');
  });
});

/** A tutorial section whose closing paragraph only points to another chapter. */
const TUTORIAL = `# Using the Wren shell

## Quiet mode

When the shell is started with --quiet, the shell is said to be in quiet mode. In this mode it prints no banner and answers each command with its result alone.

For more on quiet mode, see Shell Modes.

## Scripts

A script is a file of shell commands run one after another.
`;

describe('a unit that only points elsewhere', () => {
  it('is not the answer where another unit says what is asked', async () => {
    const { ask } = await pipelineSession('tutorial.md', TUTORIAL);
    const reply = ask('What is quiet mode?');
    expect(reply.text).toMatch(/^When the shell is started with --quiet/);
    expect(reply.text).not.toContain('see Shell Modes');
  });
});

/** A manual that gives a command in a block and says what it does after it, starting "This …". */
const WINDOWS = `# Wren editor manual

## Closing windows

To close every window but the one you are in:

\`\`\`
:solo
\`\`\`

This closes all windows except the current one. A window with unsaved changes stays open.

## Tabs

A tab page holds a layout of windows.
`;

describe('a unit that opens by pointing back', () => {
  it('comes after the command it points at', async () => {
    const { ask } = await pipelineSession('editor.md', WINDOWS);
    const reply = ask('How do I close all windows except the current one?');
    expect(reply.text).toMatch(/^```\n:solo\n```\n\nThis closes all windows except the current one/);
  });
});

/** Technical writing names the thing a "which X" asks for by code, quotes or an identifier beside X. */
const PACKAGES = `# Wren package guide

## Virtual packages

Both wrenmail and postbird provide the functionality of a mail agent. They are therefore said to provide the virtual package "mail-delivery-agent". Any program that needs one depends on that name.

## Shutting down

To close database connections when the server stops, register the onShutdown hook. It runs after the last request is answered.

## Logging

Logs are written to wren.log in the working directory.
`;

describe('a short answer named as code', () => {
  it('comes first for "which X", with its case and written as code', async () => {
    const { ask } = await pipelineSession('packages.md', PACKAGES);
    expect(ask('Which virtual package do both wrenmail and postbird provide?').text).toMatch(
      /^`mail-delivery-agent`\. /,
    );
    expect(ask('Which hook closes database connections when the server stops?').text).toMatch(
      /^`onShutdown`\. /,
    );
  });
});

describe('the noun a "which X" asks for', () => {
  it('ends where a verb documentation describes things with begins, as at an auxiliary', () => {
    expect(shapeOf('Which special table holds the schema of the database?').focus).toBe('table');
    expect(shapeOf('Which command lists the installed packages?').focus).toBe('command');
    expect(shapeOf('Which startup files does a login shell read?').focus).toBe('files');
  });

  it('gets the name bound to it as the short answer', async () => {
    const { ask } = await pipelineSession(
      'schema.md',
      `# Wren tables

## The schema table

Every Wren database contains a special table named "wren_schema" that holds one row per table and index.
`,
    );
    expect(ask('Which special table holds the schema of the database?').text).toMatch(/^`wren_schema`\. /);
  });
});
