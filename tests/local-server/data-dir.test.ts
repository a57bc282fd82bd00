import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { STORE_VARIABLES } from '../../lib/config/index.js';

const root = resolve(import.meta.dirname, '../..');

/** Runs `npm start`'s entry until it exits (it is expected to refuse to start). */
function startExpectingRefusal(env: Record<string, string>) {
  const base = { ...process.env };
  for (const name of [...STORE_VARIABLES, 'VERCEL', 'VERCEL_ENV']) delete base[name];
  return spawnSync(process.execPath, ['--import', 'tsx', 'scripts/serve.ts'], {
    cwd: root,
    env: { ...base, PORT: '1', ...env },
    encoding: 'utf8',
    timeout: 20_000,
  });
}

describe('npm start with a DATA_DIR it cannot use', () => {
  const parent = mkdtempSync(join(tmpdir(), 'serve-data-dir-'));
  const file = join(parent, 'a-file');
  writeFileSync(file, 'not a folder');
  afterAll(() => rmSync(parent, { recursive: true, force: true }));

  it.each([
    ['is a file', file],
    ['lies under a file', join(file, 'data')],
  ])('stops with one clear line, no stack trace, when DATA_DIR %s', (_, dataDir) => {
    const result = startExpectingRefusal({ DATA_DIR: dataDir });
    expect(result.status).toBe(1);
    const lines = result.stderr.trim().split('\n');
    expect(lines).toEqual([
      `DATA_DIR ${dataDir} cannot be used (a file is in the way): set DATA_DIR to a folder this user can write, or set UPSTASH_REDIS_REST_URL and UPSTASH_REDIS_REST_TOKEN.`,
    ]);
    expect(result.stdout).not.toContain('Listening');
  });

  it('stops with the store_unconfigured message when started as a Vercel deployment without a store', () => {
    const result = startExpectingRefusal({ DATA_DIR: join(parent, 'unused'), VERCEL: '1' });
    expect(result.status).toBe(1);
    expect(result.stderr.trim().split('\n')).toHaveLength(1);
    expect(result.stderr).toContain('set UPSTASH_REDIS_REST_URL and UPSTASH_REDIS_REST_TOKEN');
  });
});
