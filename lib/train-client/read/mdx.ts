/**
 * MDX as the Markdown a reader sees: its top-level `import` and `export` statements are code for
 * the site's build, not text, so they are left out (inside fenced blocks they stay).
 */
export function mdxAsMarkdown(text: string): string {
  let fence: string | undefined;
  const kept: string[] = [];
  for (const line of text.split('\n')) {
    const opener = /^\s*(`{3,}|~{3,})/.exec(line)?.[1];
    if (opener && (fence === undefined || opener.startsWith(fence)))
      fence = fence === undefined ? opener : undefined;
    if (fence === undefined && !opener && /^(import|export)\s/.test(line)) continue;
    kept.push(line);
  }
  return kept.join('\n');
}
