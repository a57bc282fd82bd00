import { describe, expect, it } from 'vitest';
import type { Store } from '../../lib/store/index.js';
import { fileUpload } from '../upload/multipart.js';
import { solidImage } from '../vision/images.js';
import { backends, endpoints, get, ownerHeaders, post, preview } from './support.js';

/** Every key in the whole store. */
async function allKeys(root: Store): Promise<string[]> {
  return (await root.keySizes('')).map((size) => size.key);
}

describe.each(backends)('STORE_NAMESPACE on %s', (_name, sharedStore) => {
  it('keeps every key of a full run (chat, train, upload, admin, idempotency, limits) under the namespace', async () => {
    const { root, deployment } = await sharedStore();
    const services = deployment(
      preview('feature/Quokka', { PREVIEW_CORPUS: 'own', RATE_LIMIT_REQUESTS: '15', STARTER_TEXT: 'on' }),
    );
    const api = endpoints(services);
    const expectOk = async (response: Promise<Response>) => {
      const answered = await response;
      expect(answered.status, await answered.clone().text()).toBeLessThan(300);
      return answered;
    };

    // The first request of a fresh store trains the starter text (once, with a marker key).
    await expectOk(api.chat.fetch(post('chat', { message: 'hello' })));
    await expectOk(
      api.train.fetch(
        post('train', { text: 'The quokka lives on Rottnest Island.' }, { 'Idempotency-Key': 'train-1' }),
      ),
    );
    await expectOk(
      api.train.fetch(
        post('train', { text: 'The quokka lives on Rottnest Island.' }, { 'Idempotency-Key': 'train-1' }),
      ),
    );
    await expectOk(
      api.chat.fetch(post('chat', { message: 'Where does the quokka live?', sessionId: 'visitor-1' })),
    );
    await expectOk(api.variantB.fetch(post('api/chat', { message: 'Where is Rottnest?', mode: 'think' })));
    await expectOk(
      api.completions.fetch(
        post('v1/chat/completions', {
          model: 'local-instant',
          messages: [{ role: 'user', content: 'Tell me about the quokka.' }],
        }),
      ),
    );
    const image = await solidImage('png', 24, 12, { r: 10, g: 120, b: 200, alpha: 1 });
    const uploaded = (await (await expectOk(api.upload.fetch(fileUpload(image)))).json()) as { url: string };
    await expectOk(api.upload.fetch(new Request(uploaded.url)));
    await expectOk(api.stats.fetch(get('admin/stats', ownerHeaders)));
    await expectOk(api.export.fetch(get('admin/export', ownerHeaders)));
    await expectOk(api.previews.fetch(get('admin/previews', ownerHeaders)));
    await expectOk(api.session.fetch(get('admin/session?id=visitor-1', ownerHeaders, 'DELETE')));
    await expectOk(api.health.fetch(get('health')));
    await expectOk(
      api.reset.fetch(
        new Request('http://127.0.0.1/api/admin/reset-model', { method: 'POST', headers: ownerHeaders }),
      ),
    );
    // The rate limit's keys too: one client spends its allowance.
    let limited = 0;
    for (let index = 0; index < 20 && limited === 0; index++) {
      const response = await api.train.fetch(
        post('train', { text: `word${index}` }, { 'x-real-ip': '192.0.2.99' }),
      );
      if (response.status === 429) limited++;
    }
    expect(limited).toBe(1);

    const keys = await allKeys(root);
    expect(keys.length).toBeGreaterThan(10);
    expect(keys.filter((key) => !key.startsWith('preview:feature-quokka:'))).toEqual([]);
    // What the run wrote, each kind under the namespace (names as the service makes them).
    for (const kind of [
      'lm:chunks',
      'lm:epoch',
      'session-count:',
      'session-turns:',
      'stats:chat',
      'idempotency:',
      'image:',
      'ratelimit',
    ]) {
      expect(
        keys.some((key) => key.startsWith(`preview:feature-quokka:${kind}`)),
        `no ${kind} key under the namespace`,
      ).toBe(true);
    }
  });

  it("leaves production's keys outside every preview namespace, and the namespaced store sees only its own", async () => {
    const { root, deployment } = await sharedStore();
    const production = deployment({});
    const branch = deployment(preview('main-fix'));
    await endpoints(production).chat.fetch(post('chat', { message: 'hi', sessionId: 'shared-name' }));
    await endpoints(branch).chat.fetch(post('chat', { message: 'hi', sessionId: 'shared-name' }));
    const keys = await allKeys(root);
    expect(keys).toContain('session-turns:shared-name');
    expect(keys).toContain('preview:main-fix:session-turns:shared-name');
    const seenByPreview = (await branch.store.keySizes('')).map((size) => size.key);
    expect(seenByPreview).toContain('session-turns:shared-name');
    expect(seenByPreview.every((key) => !key.startsWith('preview:'))).toBe(true);
    expect(await branch.store.countKeys('session-')).toBe(2);
    expect(await production.store.countKeys('session-')).toBe(2);
  });
});
