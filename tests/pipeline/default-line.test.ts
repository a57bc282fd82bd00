import { describe, expect, it } from 'vitest';
import { chatHandlers } from '../../lib/chat/handlers.js';
import { endpoint } from '../../lib/http/index.js';
import { statesDefaultValue } from '../../lib/pipeline/wording.js';
import { embeddedServices, postJson } from '../support/services.js';

/** A reference entry as Fastify's docs write one: the default on a line of its own above the description. */
const REFERENCE = [
  '# Server',
  '',
  '## Factory',
  '',
  '### `bodyLimit`',
  '',
  '+ Default: `1048576` (1MiB)',
  '',
  'Defines the maximum payload, in bytes, the server is allowed to accept. The default body reader sends an error reply if the size of the body exceeds this limit.',
  '',
  '### `keepAliveTimeout`',
  '',
  '+ Default: `72000` (72 seconds)',
  '',
  'Defines the server keep-alive timeout in milliseconds.',
  '',
].join('\n');

describe('a question about a default', () => {
  it("gets the entry's default value first, from its own line above or below the description", async () => {
    const services = embeddedServices({}, { random: () => 0.5 });
    await services.model.train({ format: 'markdown', name: 'server.md', text: REFERENCE });
    const api = endpoint(chatHandlers(() => services));
    const ask = async (message: string) =>
      (await (await api.fetch(postJson('http://localhost/api/chat', { message, raw: true }))).json()) as {
        response: string;
      };
    const body = await ask('What is the default body limit of the server?');
    expect(body.response).toMatch(/^`bodyLimit`: Default: `1048576` \(1MiB\)\. /);
    const keepAlive = await ask('What is the default keep-alive timeout?');
    expect(keepAlive.response).toMatch(/Default: `72000` \(72 seconds\)/);
    expect(keepAlive.response).not.toMatch(/1048576/);
  });

  it('tells a default value from "default" used for a thing', () => {
    expect(statesDefaultValue('Default: `1048576` (1MiB)')).toBe(true);
    expect(statesDefaultValue('The default suggested cache size is -2000, which means')).toBe(true);
    expect(statesDefaultValue('Foreign key enforcement is off by default.')).toBe(true);
    expect(statesDefaultValue('It defaults to 5.')).toBe(true);
    expect(statesDefaultValue('The default body reader sends `FST_ERR_CTP_BODY_TOO_LARGE` reply.')).toBe(
      false,
    );
    expect(statesDefaultValue('A default install puts packages on the system.')).toBe(false);
  });
});
