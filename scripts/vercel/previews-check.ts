/**
 * The preview check of `npm run verify:vercel`: the built functions run as production and as a
 * Vercel preview of a branch against one store, and the preview must answer like production without
 * ever writing to it.
 */

/** One request to a function and what it answered. */
export interface PreviewCall {
  method: string;
  path: string;
  headers: Record<string, string>;
  body?: Uint8Array<ArrayBuffer>;
}

export interface PreviewAnswer {
  status: number;
  body: Buffer;
}

/** Runs calls in one fresh process of the function at `route`, with these variables. */
export type RunAs = (
  route: string,
  env: Record<string, string>,
  calls: PreviewCall[],
) => Promise<PreviewAnswer[]>;

const OWNER = 'owner@verify-vercel.example';
const ADMIN_TOKEN = 'verify-vercel-admin-token-0123456789';
const BRANCH = 'feature/Quokka';
const NAMESPACE = 'preview:feature-quokka';
const PRODUCTION_TEXT =
  'The lighthouse keeper lit the great lamp every evening. The ships passed the rocks safely.';
const PREVIEW_TEXT = 'The quokka lives on Rottnest Island near Perth.';

const owner = { 'X-Owner-Email': OWNER, Authorization: `Bearer ${ADMIN_TOKEN}` };
const production = { OWNER_EMAIL: OWNER, ADMIN_TOKEN, STARTER_TEXT: 'off' };
const preview = { ...production, VERCEL_ENV: 'preview', VERCEL_GIT_COMMIT_REF: BRANCH };

const json = (method: string, path: string, body: unknown): PreviewCall => ({
  method,
  path,
  headers: { 'Content-Type': 'application/json' },
  body: new TextEncoder().encode(JSON.stringify(body)),
});
const asOwner = (method: string, path: string): PreviewCall => ({ method, path, headers: owner });

/**
 * Production trains a text, the preview of BRANCH trains another; then checks what each knows
 * (the owner's export, a chat answer, the vocabulary), resets the preview and checks production
 * again, and finally cleans up the preview through the admin endpoint. Returns the problems found
 * and how many calls it made.
 */
export async function checkPreviewIsolation(runAs: RunAs): Promise<{ problems: string[]; calls: number }> {
  const problems: string[] = [];
  let calls = 0;
  const run = async (route: string, env: Record<string, string>, list: PreviewCall[]) => {
    calls += list.length;
    const answers = await runAs(route, env, list);
    list.forEach((call, index) => {
      const answer = answers[index]!;
      if (answer.status !== 200)
        problems.push(
          `${describe(env)} ${call.method} ${call.path}: answered ${answer.status} ${answer.body.toString('utf8').slice(0, 300)}`,
        );
    });
    return answers.map((answer) => answer.body.toString('utf8'));
  };
  const check = (ok: boolean, what: string) => {
    if (!ok) problems.push(`preview of ${BRANCH}: ${what}`);
  };
  const reply = (body: string | undefined) => {
    try {
      return String((JSON.parse(body ?? '') as { response?: unknown }).response ?? '');
    } catch {
      return '';
    }
  };
  const vocab = (body: string | undefined) => {
    try {
      return Number((JSON.parse(body ?? '') as { vocabSize?: unknown }).vocabSize);
    } catch {
      return Number.NaN;
    }
  };
  const quokka = json('POST', '/api/chat', { message: 'Where does the quokka live?', modelMode: 'instant' });
  const lamp = json('POST', '/api/chat', {
    message: 'What did the lighthouse keeper light?',
    modelMode: 'instant',
  });

  await run('/api/train', production, [json('POST', '/api/train', { text: PRODUCTION_TEXT })]);
  const [productionVocab] = await run('/api/health', production, [
    { method: 'GET', path: '/api/health', headers: {} },
  ]);
  await run('/api/train', preview, [json('POST', '/api/train', { text: PREVIEW_TEXT })]);

  const [productionExport] = await run('/api/admin/export', production, [
    asOwner('GET', '/api/admin/export'),
  ]);
  const [productionQuokka, productionLamp] = await run('/api/chat', production, [quokka, lamp]);
  const [productionVocabAfter] = await run('/api/health', production, [
    { method: 'GET', path: '/api/health', headers: {} },
  ]);
  check(!productionExport?.includes('quokka'), "text trained in the preview is in production's corpus");
  check(!/Rottnest/.test(reply(productionQuokka)), 'production answers from text trained in the preview');
  check(/lamp/i.test(reply(productionLamp)), 'production does not answer from its own text');
  check(
    vocab(productionVocabAfter) === vocab(productionVocab),
    `production's vocabulary changed from ${vocab(productionVocab)} to ${vocab(productionVocabAfter)} when the preview trained`,
  );

  const [previewExport] = await run('/api/admin/export', preview, [asOwner('GET', '/api/admin/export')]);
  const [previewQuokka, previewLamp] = await run('/api/chat', preview, [quokka, lamp]);
  check(
    previewExport === `${PRODUCTION_TEXT}\n\n${PREVIEW_TEXT}\n`,
    `the preview's corpus is not production's and then its own: ${JSON.stringify(previewExport)}`,
  );
  check(/Rottnest/.test(reply(previewQuokka)), 'the preview does not answer from its own text');
  check(/lamp/i.test(reply(previewLamp)), "the preview does not answer from production's text");

  await run('/api/admin/reset-model', preview, [asOwner('POST', '/api/admin/reset-model')]);
  const [resetExport] = await run('/api/admin/export', preview, [asOwner('GET', '/api/admin/export')]);
  const [afterExport] = await run('/api/admin/export', production, [asOwner('GET', '/api/admin/export')]);
  const [afterLamp] = await run('/api/chat', production, [lamp]);
  check(
    resetExport === `${PRODUCTION_TEXT}\n`,
    "a reset in the preview did not leave it with production's corpus",
  );
  check(afterExport === productionExport, "a reset in the preview changed production's corpus");
  check(/lamp/i.test(reply(afterLamp)), 'production forgot its text after a reset in the preview');

  const [listed, deleted] = await run('/api/admin/previews', production, [
    asOwner('GET', '/api/admin/previews'),
    asOwner('DELETE', `/api/admin/previews?branch=${encodeURIComponent(BRANCH)}`),
  ]);
  check(
    listed?.includes(`"namespace":"${NAMESPACE}"`) ?? false,
    `the admin endpoint does not list ${NAMESPACE}`,
  );
  check(deleted?.includes('"deletedKeys"') ?? false, `the admin endpoint did not delete ${NAMESPACE}`);
  const [finalExport] = await run('/api/admin/export', production, [asOwner('GET', '/api/admin/export')]);
  check(finalExport === productionExport, "deleting the preview's data changed production's corpus");
  return { problems, calls };
}

function describe(env: Record<string, string>): string {
  return env.VERCEL_ENV === 'preview' ? `preview of ${BRANCH}` : 'production';
}
