import { describe, expect, it } from 'vitest';
import {
  branchNamespace,
  ConfigError,
  parseConfig,
  previewCorpus,
  storeNamespace,
} from '../../lib/config/index.js';

describe('STORE_NAMESPACE and PREVIEW_CORPUS', () => {
  it('has no namespace in production and locally', () => {
    expect(storeNamespace(parseConfig({}))).toBe('');
    expect(
      storeNamespace(parseConfig({ VERCEL: '1', VERCEL_ENV: 'production', VERCEL_GIT_COMMIT_REF: 'main' })),
    ).toBe('');
    expect(previewCorpus(parseConfig({}))).toBe('own');
  });

  it("names a Vercel preview's namespace after its branch, and reads production's corpus by default", () => {
    const config = parseConfig({
      VERCEL: '1',
      VERCEL_ENV: 'preview',
      VERCEL_GIT_COMMIT_REF: 'feature/Quokka',
    });
    expect(storeNamespace(config)).toBe('preview:feature-quokka');
    expect(previewCorpus(config)).toBe('production');
    expect(previewCorpus(parseConfig({ VERCEL_ENV: 'preview', PREVIEW_CORPUS: 'own' }))).toBe('own');
  });

  it('takes STORE_NAMESPACE as given, with production as its corpus only when asked', () => {
    expect(storeNamespace(parseConfig({ STORE_NAMESPACE: 'staging', VERCEL_ENV: 'preview' }))).toBe(
      'staging',
    );
    expect(previewCorpus(parseConfig({ STORE_NAMESPACE: 'preview:local' }))).toBe('own');
    expect(
      previewCorpus(parseConfig({ STORE_NAMESPACE: 'preview:local', PREVIEW_CORPUS: 'Production' })),
    ).toBe('production');
  });

  it('turns any branch name into a namespace part of safe characters', () => {
    expect(branchNamespace('dependabot/npm_and_yarn/vite-5.1.2')).toBe(
      'preview:dependabot-npm_and_yarn-vite-5.1.2',
    );
    expect(branchNamespace('  --Weird  Name!!  ')).toBe('preview:weird-name');
    expect(branchNamespace('✓✓✓')).toBe('preview:unnamed');
    const long = branchNamespace(`feature/${'x'.repeat(100)}`);
    expect(long.length).toBeLessThanOrEqual('preview:'.length + 60);
    expect(long).not.toBe(branchNamespace(`feature/${'x'.repeat(101)}`));
    for (const name of ['feature/Quokka', 'dependabot/npm_and_yarn/vite-5.1.2', '✓', `a/${'b'.repeat(90)}`]) {
      expect(storeNamespace(parseConfig({ STORE_NAMESPACE: branchNamespace(name) }))).toBe(
        branchNamespace(name),
      );
    }
  });

  it('stops the start with a message naming a bad STORE_NAMESPACE or PREVIEW_CORPUS', () => {
    expect(() => parseConfig({ STORE_NAMESPACE: 'Preview:Main' })).toThrow(ConfigError);
    expect(() => parseConfig({ STORE_NAMESPACE: 'preview::x' })).toThrow(/STORE_NAMESPACE/);
    expect(() => parseConfig({ PREVIEW_CORPUS: 'shared' })).toThrow(
      /PREVIEW_CORPUS: must be production or own/,
    );
  });
});
