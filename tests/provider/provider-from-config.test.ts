import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseConfig } from '../../lib/config/index.js';
import { providerFromConfig } from '../../lib/provider/index.js';
import { type OpenAIStandin, standinReply, startOpenAIStandin } from '../support/openai-standin.js';

describe('providerFromConfig', () => {
  let standin: OpenAIStandin;
  beforeAll(async () => {
    standin = await startOpenAIStandin();
  });
  afterAll(() => standin.close());

  it('returns undefined when LLM_BASE_URL is unset', () => {
    expect(providerFromConfig(parseConfig({}))).toBeUndefined();
  });

  it('builds a model from the LLM_* variables', async () => {
    const model = providerFromConfig(
      parseConfig({
        LLM_BASE_URL: standin.baseUrl,
        LLM_API_KEY: 'sk-config',
        LLM_MODEL: 'default-model',
        LLM_MODEL_APEX: 'apex-model',
        LLM_VISION: 'true',
      }),
    );
    expect(model?.modelName()).toBe('default-model');
    expect(model?.modelName('apex')).toBe('apex-model');
    expect(model?.modelName('instant')).toBe('default-model');
    expect(model?.vision).toBe(true);
    const result = await model?.complete({
      mode: 'apex',
      system: 's',
      messages: [{ role: 'user', content: 'x' }],
    });
    expect(result?.text).toBe(standinReply('x'));
    expect(standin.requests.at(-1)?.headers.authorization).toBe('Bearer sk-config');
  });
});
