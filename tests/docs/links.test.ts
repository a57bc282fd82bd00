import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

const root = resolve(import.meta.dirname, '../..');
const pages = [
  join(root, 'README.md'),
  ...readdirSync(join(root, 'docs'))
    .filter((name) => name.endsWith('.md'))
    .map((name) => join(root, 'docs', name)),
];

/** The text outside fenced code blocks, where headings and links count. */
function prose(markdown: string): string[] {
  const lines: string[] = [];
  let fenced = false;
  for (const line of markdown.split('\n')) {
    if (/^\s*(```|~~~)/.test(line)) fenced = !fenced;
    else if (!fenced) lines.push(line);
  }
  return lines;
}

/** GitHub's anchors for a page's headings (lower case, punctuation dropped, spaces to dashes, -1 -2 for repeats). */
function anchors(markdown: string): Set<string> {
  const seen = new Map<string, number>();
  const result = new Set<string>();
  for (const line of prose(markdown)) {
    const heading = /^#{1,6}\s+(.*?)\s*#*\s*$/.exec(line);
    if (!heading) continue;
    const text = heading[1].replace(/`/g, '').replace(/\[([^\]]*)\]\([^)]*\)/g, '$1');
    const slug = text
      .toLowerCase()
      .replace(/[^\p{L}\p{N}\s_-]/gu, '')
      .replace(/\s/g, '-');
    const count = seen.get(slug) ?? 0;
    seen.set(slug, count + 1);
    result.add(count === 0 ? slug : `${slug}-${count}`);
  }
  return result;
}

function relativeLinks(markdown: string): string[] {
  const targets: string[] = [];
  for (const line of prose(markdown)) {
    const withoutCode = line.replace(/`[^`]*`/g, '');
    for (const match of withoutCode.matchAll(/\]\(([^)\s]+)(?:\s+"[^"]*")?\)/g)) {
      const target = match[1];
      if (!/^[a-z][a-z0-9+.-]*:/i.test(target)) targets.push(target);
    }
  }
  return targets;
}

describe('documentation links', () => {
  it('finds README and the docs pages', () => {
    expect(pages.length).toBeGreaterThan(5);
  });

  it('keeps README a front door of at most 250 lines', () => {
    expect(readFileSync(join(root, 'README.md'), 'utf8').trimEnd().split('\n').length).toBeLessThanOrEqual(
      250,
    );
  });

  for (const page of pages) {
    it(`resolves every relative link and #anchor of ${relative(root, page)}`, () => {
      const broken: string[] = [];
      for (const link of relativeLinks(readFileSync(page, 'utf8'))) {
        const [path, anchor] = link.split('#');
        const target = path === '' ? page : resolve(dirname(page), decodeURIComponent(path));
        if (!existsSync(target)) {
          broken.push(`${link} (no such file)`);
          continue;
        }
        if (anchor && !statSync(target).isDirectory() && target.endsWith('.md')) {
          if (!anchors(readFileSync(target, 'utf8')).has(anchor)) broken.push(`${link} (no such heading)`);
        }
      }
      expect(broken).toEqual([]);
    });
  }
});
