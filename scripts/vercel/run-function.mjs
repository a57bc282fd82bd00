// Runs one function of `vercel build`'s output the way Vercel's Node runtime does, with plain Node
// and nothing else: imports its handler (timed: the cold import) and calls `default.fetch` with
// Web Requests, one after the other. Plain JavaScript on purpose: no TypeScript loader in the way.
//
//   node run-function.mjs <handler.js> <requests.json> <result.json>
//
// requests.json: [{ method, path, headers, body? (base64) }]; result.json gets
// { importMs, results: [{ status, headers, body (base64), ms }] }.
import { readFileSync, writeFileSync } from 'node:fs';
import { pathToFileURL } from 'node:url';

const [handlerPath, requestsPath, resultPath] = process.argv.slice(2);
const requests = JSON.parse(readFileSync(requestsPath, 'utf8'));

const importStarted = performance.now();
const module = await import(pathToFileURL(handlerPath).href);
const importMs = performance.now() - importStarted;
const handler = module.default;
if (typeof handler?.fetch !== 'function') {
  throw new Error(`${handlerPath} has no default export with fetch()`);
}

const results = [];
for (const spec of requests) {
  const started = performance.now();
  const response = await handler.fetch(
    new Request(`https://verify-vercel.example${spec.path}`, {
      method: spec.method,
      headers: spec.headers,
      ...(spec.body === undefined ? {} : { body: Buffer.from(spec.body, 'base64') }),
    }),
  );
  const body = Buffer.from(await response.arrayBuffer());
  results.push({
    status: response.status,
    headers: Object.fromEntries(response.headers),
    body: body.toString('base64'),
    ms: performance.now() - started,
  });
}
writeFileSync(resultPath, JSON.stringify({ importMs, results }));
// Vercel freezes an instance once it has answered; a timer or socket left by the function must
// not keep this process alive.
setTimeout(() => process.exit(0), 500).unref();
