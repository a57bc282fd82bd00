import { describe, expect, it } from 'vitest';
import { chatHandlers } from '../../lib/chat/handlers.js';
import { endpoint } from '../../lib/http/index.js';
import { embeddedServices, postJson } from '../support/services.js';

const README = `# widgetkit

[![build](https://example.com/badge.svg)](https://example.com)

## Contents

- [Install](#install)
- [Options](#options)

## Install

To install widgetkit, run the following command:

\`\`\`bash
npm install widgetkit --save
\`\`\`

## Options

- \`spin\`: How many turns a widget makes per second. Defaults to \`3\`.
- \`glow\`: Set to true to make the widget glow in the dark.

| Option | Meaning |
| --- | --- |
| \`hum\` | The pitch the widget hums at, in hertz |

## What is a tilde range?

A tilde range allows patch-level changes when a minor version is given.
`;

const FAQ = `Widget FAQ

1. Contents
  1.1. How do I report a broken widget?
  1.2. Where are widgets made?

1.1. How do I report a broken widget?

Send the serial number and a photo to the repair desk. The desk answers
within two working days and sends a prepaid return label.

1.2. Where are widgets made?

Widgets are made in a small workshop in Tallinn, by hand, from recycled
aluminium.
`;

async function trained(...documents: Parameters<ReturnType<typeof embeddedServices>['model']['train']>[0][]) {
  const services = embeddedServices({}, { random: () => 0.5 });
  for (const document of documents) await services.model.train(document);
  const api = endpoint(chatHandlers(() => services));
  return async (message: string) => {
    const response = await api.fetch(
      postJson('http://localhost/api/chat', { message, raw: true, modelMode: 'instant' }),
    );
    expect(response.status).toBe(200);
    return response.json();
  };
}

describe('replies from documents read by their structure', () => {
  it('brings the command a sentence announces, fenced whole with its language, cited with file and section', async () => {
    const ask = await trained({ format: 'markdown', name: 'README.md', text: README });
    const body = await ask('How do I install widgetkit?');
    expect(body.response).toContain('To install widgetkit, run the following command:');
    expect(body.response).toContain('```bash\nnpm install widgetkit --save\n```');
    expect(body.sources[0]).toMatchObject({ file: 'README.md', section: 'widgetkit > Install' });
  });

  it('answers a list item with the name it describes, as Markdown, never with stray syntax', async () => {
    const ask = await trained({ format: 'markdown', name: 'README.md', text: README });
    const body = await ask('Which option makes the widget glow in the dark?');
    expect(body.response).toMatch(/^- `glow`: Set to true to make the widget glow in the dark\./);
    const row = await ask('What pitch does the widget hum at?');
    expect(row.response).toMatch(/`hum`: The pitch the widget hums at, in hertz/);
    expect(row.response).not.toMatch(/\||#|\\\\/);
  });

  it('answers a question that is a heading from the body under it, never with the heading or the table of contents', async () => {
    const ask = await trained({ format: 'markdown', name: 'README.md', text: README });
    const body = await ask('What is a tilde range?');
    expect(body.response).toMatch(/^A tilde range allows patch-level changes/);
    expect(body.response).not.toMatch(/#|\[Install\]/);
  });

  it('answers an FAQ entry from its body, not from the table of contents or its own heading', async () => {
    const ask = await trained({ format: 'text', name: 'faq.txt', text: FAQ });
    const body = await ask('How do I report a broken widget?');
    expect(body.response).toMatch(/^Send the serial number and a photo to the repair desk\./);
    expect(body.sources[0].section).toContain('How do I report a broken widget?');
    const made = await ask('Where are widgets made?');
    expect(made.response).toMatch(/^Tallinn\. Widgets are made in a small workshop in Tallinn/);
  });

  it('cites an HTML page by its section, in Markdown', async () => {
    const html = `<html><head><title>Help</title></head><body><nav><a href="/">Home</a></nav>
      <main><h1>Help centre</h1><h2>Refunds</h2><p>Refunds reach your card within <code>5</code> working days.</p></main>
      <footer>© Widgets</footer></body></html>`;
    const ask = await trained({ format: 'html', name: 'help.html', text: html });
    const body = await ask('How long do refunds take to reach my card?');
    expect(body.response).toContain('Refunds reach your card within `5` working days.');
    expect(body.sources[0]).toMatchObject({ file: 'help.html', section: 'Help centre > Refunds' });
    expect(body.response).not.toMatch(/Home|©/);
  });
});
