import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { PAGE_CONTENT_SECURITY_POLICY, widgetScriptHeaders } from '../../lib/http/index.js';
import { serveStatic } from '../../lib/local-server/static-files.js';

const root = resolve(import.meta.dirname, '../..');
const publicDir = resolve(root, 'public');

interface VercelHeaderRule {
  source: string;
  headers: { key: string; value: string }[];
}

const vercelRules = (
  JSON.parse(readFileSync(resolve(root, 'vercel.json'), 'utf8')) as { headers: VercelHeaderRule[] }
).headers;

/** The headers vercel.json gives a path, by its rules' sources (Vercel's path-to-regexp, enough of it for ours). */
function vercelHeadersFor(path: string): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const rule of vercelRules) {
    const pattern = new RegExp(`^${rule.source.replace(/\(\.\*\)/g, '.*')}$`);
    if (pattern.test(path)) for (const { key, value } of rule.headers) headers[key.toLowerCase()] = value;
  }
  return headers;
}

describe('security headers of the page and the static files', () => {
  it('serves the playground page with nosniff and a Content-Security-Policy of its own origin only', async () => {
    const page = await serveStatic(publicDir, '/');
    expect(page?.headers.get('content-type')).toMatch(/^text\/html/);
    expect(page?.headers.get('x-content-type-options')).toBe('nosniff');
    const policy = page?.headers.get('content-security-policy') ?? '';
    expect(policy).toBe(PAGE_CONTENT_SECURITY_POLICY);
    expect(policy).toContain("script-src 'self'");
    expect(policy).toContain("style-src 'self'");
    expect(policy).toContain("default-src 'none'");
    expect(policy).toContain("frame-ancestors 'none'");
    expect(policy).not.toMatch(/unsafe-inline|unsafe-eval/);
  });

  it('serves every other static file with nosniff', async () => {
    for (const path of ['/app.js', '/style.css', '/index.html']) {
      const file = await serveStatic(publicDir, path);
      expect(file?.status, path).toBe(200);
      expect(file?.headers.get('x-content-type-options'), path).toBe('nosniff');
    }
  });

  it('has vercel.json send the same headers on a deployment', () => {
    for (const path of ['/', '/index.html']) {
      expect(vercelHeadersFor(path)).toMatchObject({
        'x-content-type-options': 'nosniff',
        'content-security-policy': PAGE_CONTENT_SECURITY_POLICY,
      });
    }
    expect(vercelHeadersFor('/app.js')).toEqual({ 'x-content-type-options': 'nosniff' });
    expect(vercelHeadersFor('/widget.js')).toEqual({
      'x-content-type-options': 'nosniff',
      ...Object.fromEntries(
        Object.entries(widgetScriptHeaders).map(([key, value]) => [key.toLowerCase(), value]),
      ),
    });
  });

  it('serves the widget script so that a page of any origin may load it, without a page policy', async () => {
    const script = await serveStatic(publicDir, '/widget.js');
    expect(script?.headers.get('content-type')).toMatch(/^text\/javascript/);
    expect(script?.headers.get('x-content-type-options')).toBe('nosniff');
    expect(script?.headers.get('access-control-allow-origin')).toBe('*');
    expect(script?.headers.get('cross-origin-resource-policy')).toBe('cross-origin');
    expect(script?.headers.get('content-security-policy')).toBeNull();
  });

  it('keeps the page free of inline scripts and styles, which the policy would block', () => {
    const html = readFileSync(resolve(publicDir, 'index.html'), 'utf8');
    expect(html).not.toMatch(/<script(?![^>]*\bsrc=)[^>]*>/i);
    expect(html).not.toMatch(/<style[\s>]/i);
    expect(html).not.toMatch(/\sstyle="/i);
    expect(html).not.toMatch(/\son[a-z]+="/i);
  });
});
