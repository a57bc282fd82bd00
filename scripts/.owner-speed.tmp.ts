import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startLocalServer } from '../tests/support/local-server.js';

const dir = mkdtempSync(join(tmpdir(), 'owner-speed-'));
const server = await startLocalServer({ DATA_DIR: dir, OWNER_EMAIL: 'o@example.org', ADMIN_TOKEN: 'a-long-admin-token-123' });
const headers = { 'content-type': 'application/json', 'x-owner-email': 'o@example.org', authorization: 'Bearer a-long-admin-token-123' };
const started = performance.now();
const statuses: Record<number, number> = {};
for (let i = 0; i < 150; i++) {
  const text = `# Page ${i}\n\n${`Page ${i} documents the option opt${i} and how to set it in the config file. `.repeat(30)}`;
  const response = await fetch(`${server.url}/api/train`, { method: 'POST', headers, body: JSON.stringify({ text, documentId: `docs/page-${i}.md`, format: 'markdown' }) });
  statuses[response.status] = (statuses[response.status] ?? 0) + 1;
  await response.text();
}
const seconds = (performance.now() - started) / 1000;
const again = performance.now();
for (let i = 0; i < 150; i++) {
  const text = `# Page ${i}\n\n${`Page ${i} documents the option opt${i} and how to set it in the config file. `.repeat(30)}`;
  const response = await fetch(`${server.url}/api/train`, { method: 'POST', headers, body: JSON.stringify({ text, documentId: `docs/page-${i}.md`, format: 'markdown' }) });
  await response.text();
}
console.log(JSON.stringify({ statuses, seconds, rerunSeconds: (performance.now() - again) / 1000 }));
await server.stop();
rmSync(dir, { recursive: true, force: true });
