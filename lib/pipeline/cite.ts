import type { Source } from './types.js';

/** A source's place as text: "README.md › Install", "chunk 3 line 7", "image 3f2a… line 2" or the article title. */
export function refText(source: Source): string {
  if ('image' in source.ref) return `image ${source.ref.image.slice(0, 12)} line ${source.ref.line}`;
  if (!('chunk' in source.ref)) return source.ref.title;
  const where = [source.file, source.section].filter(Boolean).join(' › ');
  const page = source.page ? ` p. ${source.page}` : '';
  return where ? `${where}${page}` : `chunk ${source.ref.chunk} line ${source.ref.line}${page}`;
}
