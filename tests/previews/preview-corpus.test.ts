import { describe, expect, it } from 'vitest';
import type { Services } from '../../lib/services/index.js';
import { ask, backends, endpoints, exported, ownerHeaders, preview, production, train } from './support.js';

const LIGHTHOUSE = 'The lighthouse keeper lit the great lamp every evening at dusk.';
const QUOKKA = 'The quokka lives on Rottnest Island near Perth.';

async function reset(services: Services): Promise<void> {
  const response = await endpoints(services).reset.fetch(
    new Request('http://127.0.0.1/api/admin/reset-model', { method: 'POST', headers: ownerHeaders }),
  );
  expect(response.status).toBe(200);
}

async function vocabSize(services: Services): Promise<number> {
  const response = await endpoints(services).health.fetch(new Request('http://127.0.0.1/api/health'));
  return ((await response.json()) as { vocabSize: number }).vocabSize;
}

describe.each(backends)('PREVIEW_CORPUS on %s', (_name, sharedStore) => {
  it("answers from production's corpus in a preview, keeps the preview's training to itself, and resets only its own part", async () => {
    const { deployment } = await sharedStore();
    const live = deployment(production);
    await train(live, LIGHTHOUSE);
    const liveVocab = await vocabSize(live);

    const branch = deployment(preview('feature/quokka'));
    expect(await ask(branch, 'What did the lighthouse keeper light?')).toMatch(/lamp/i);
    await train(branch, QUOKKA);
    expect(await ask(branch, 'Where does the quokka live?')).toMatch(/Rottnest/);
    expect(await exported(branch)).toBe(`${LIGHTHOUSE}\n\n${QUOKKA}\n`);

    // Production, even a fresh instance of it, never learnt the quokka.
    const coldLive = deployment(production);
    expect(await ask(coldLive, 'Where does the quokka live?')).not.toMatch(/Rottnest/);
    expect(await exported(coldLive)).toBe(`${LIGHTHOUSE}\n`);
    expect(await vocabSize(coldLive)).toBe(liveVocab);
    expect(await vocabSize(branch)).toBeGreaterThan(liveVocab);

    // Production trains on: the preview sees it, over its own chunk.
    await train(live, 'The harbour master counted the fishing boats each morning.');
    expect(await ask(branch, 'Who counted the fishing boats?')).toMatch(/harbour master/i);
    expect(await ask(branch, 'Where does the quokka live?')).toMatch(/Rottnest/);

    await reset(branch);
    expect(await ask(branch, 'Where does the quokka live?')).not.toMatch(/Rottnest/);
    expect(await ask(branch, 'What did the lighthouse keeper light?')).toMatch(/lamp/i);
    expect(await ask(live, 'What did the lighthouse keeper light?')).toMatch(/lamp/i);
    expect(await exported(deployment(production))).toContain(LIGHTHOUSE);
    expect((await live.model.stats()).chunks).toBe(2);
  });

  it('starts a preview empty with PREVIEW_CORPUS=own, and keeps branches apart', async () => {
    const { deployment } = await sharedStore();
    await train(deployment(production), LIGHTHOUSE);
    const own = deployment(preview('empty-start', { PREVIEW_CORPUS: 'own' }));
    expect(await exported(own)).toBe('');
    expect(await vocabSize(own)).toBe(0);

    const first = deployment(preview('first'));
    const second = deployment(preview('second'));
    await train(first, QUOKKA);
    expect(await ask(second, 'Where does the quokka live?')).not.toMatch(/Rottnest/);
    expect(await exported(second)).toBe(`${LIGHTHOUSE}\n`);
  });

  it("starts a cold preview instance from production's snapshot, never writing one of its own", async () => {
    const { root, deployment } = await sharedStore();
    const live = deployment({ ...production, LM_SNAPSHOT_EVERY: '2' });
    for (const text of [LIGHTHOUSE, 'Gulls circled the rocks below the tower.', 'Ships passed safely.']) {
      await train(live, text);
    }
    expect(await root.get('lm:snapshot:chunks')).toBe('2');
    const branch = deployment(preview('snap', { LM_SNAPSHOT_EVERY: '1' }));
    await train(branch, QUOKKA);
    expect((await branch.model.stats()).snapshotChunks).toBe(2);
    expect(await root.getBlob('preview:snap:lm:snapshot')).toBeNull();
    const cold = deployment(preview('snap'));
    expect(await ask(cold, 'Where does the quokka live?')).toMatch(/Rottnest/);
    expect(await ask(cold, 'What circled the rocks?')).toMatch(/gulls/i);
  });

  it('refuses, as a bug, any write to production through a preview store', async () => {
    const { deployment } = await sharedStore();
    const branch = deployment(preview('guarded'));
    const { rootKey } = await import('../../lib/store/index.js');
    await expect(branch.store.set(rootKey('lm:epoch'), '9')).rejects.toThrow(/read-only/);
    expect(() => branch.store.batch().rpush(rootKey('lm:chunks'), 'x')).toThrow(/read-only/);
  });
});
