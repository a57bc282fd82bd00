import { describe, expect, it } from 'vitest';
import { chatHandlers } from '../../lib/chat/handlers.js';
import { healthHandlers } from '../../lib/health/handlers.js';
import { endpoint } from '../../lib/http/index.js';
import { trainHandlers } from '../../lib/training/handlers.js';
import { variantBChatHandlers } from '../../lib/variant-b/handlers.js';
import { KJV_DIR } from '../lm/corpus.js';
import { embeddedServices, postJson } from '../support/services.js';

describe('serving an ARPA model (LM_ARPA_PATH)', () => {
  const services = embeddedServices({ LM_ARPA_PATH: `${KJV_DIR}/oracle/kjv3000.o3.arpa`, LM_ORDER: '3' });

  it('answers chat of both variants from the loaded model', async () => {
    const a = await endpoint(chatHandlers(() => services)).fetch(
      postJson('http://127.0.0.1/api/chat', {
        message: 'tell me of the lord and moses',
        modelMode: 'instant',
      }),
    );
    expect(a.status).toBe(200);
    const body = await a.json();
    expect(body.response.length).toBeGreaterThan(0);
    expect(body.vocabSize).toBeGreaterThan(1000);
    const b = await endpoint(variantBChatHandlers(() => services)).fetch(
      postJson('http://127.0.0.1/api/api/chat', { message: 'the lord', mode: 'think' }),
    );
    expect(b.status).toBe(200);
  });

  it("reports the loaded model's vocabulary in health", async () => {
    const response = await endpoint(healthHandlers(() => services)).fetch(
      new Request('http://127.0.0.1/api/health'),
    );
    expect((await response.json()).vocabSize).toBeGreaterThan(1000);
  });

  it('refuses training with 409, since an ARPA file has no counts to add to', async () => {
    const response = await endpoint(trainHandlers(() => services)).fetch(
      postJson('http://127.0.0.1/api/train', { text: 'new words' }),
    );
    expect(response.status).toBe(409);
    expect(await response.json()).toMatchObject({ code: 'conflict' });
  });
});
