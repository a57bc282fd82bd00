import { deflateSync } from 'node:zlib';

/**
 * Hostile documents made in the test (no large fixtures in the repo): each is small on the wire
 * and expensive to read naively.
 */

/** A PDF assembled from numbered object bodies (1 is the catalog), with a correct xref table. */
function assemblePdf(objects: (string | Buffer)[]): Buffer {
  const parts: Buffer[] = [Buffer.from('%PDF-1.4\n')];
  let length = parts[0].length;
  const offsets: number[] = [];
  for (let id = 1; id < objects.length; id++) {
    offsets[id] = length;
    const body = objects[id];
    const piece = Buffer.concat([
      Buffer.from(`${id} 0 obj\n`),
      typeof body === 'string' ? Buffer.from(body, 'latin1') : body,
      Buffer.from('\nendobj\n'),
    ]);
    parts.push(piece);
    length += piece.length;
  }
  let xref = `xref\n0 ${objects.length}\n0000000000 65535 f \n`;
  for (let id = 1; id < objects.length; id++) xref += `${String(offsets[id]).padStart(10, '0')} 00000 n \n`;
  xref += `trailer\n<< /Size ${objects.length} /Root 1 0 R >>\nstartxref\n${length}\n%%EOF\n`;
  parts.push(Buffer.from(xref));
  return Buffer.concat(parts);
}

const FONT = '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>';

function stream(dictionary: string, data: Buffer): Buffer {
  return Buffer.concat([
    Buffer.from(`<< ${dictionary} /Length ${data.length} >>\nstream\n`),
    data,
    Buffer.from('\nendstream'),
  ]);
}

/**
 * A page tree that is a DAG: each level's node lists the next level's node twice, so 2^levels
 * pages are claimed from a handful of objects (about 2.5 KB at 20 levels).
 */
export function pageTreeDagPdf(levels = 20): Buffer {
  const objects: (string | Buffer)[] = [];
  objects[1] = '<< /Type /Catalog /Pages 4 0 R >>';
  objects[2] = FONT;
  objects[3] = stream('', Buffer.from('BT /F1 12 Tf 72 720 Td (The same page, again.) Tj ET'));
  for (let level = 0; level < levels; level++) {
    const id = 4 + level;
    const child = level === levels - 1 ? 4 + levels : id + 1;
    const parent = level === 0 ? '' : `/Parent ${id - 1} 0 R `;
    objects[id] =
      `<< /Type /Pages ${parent}/Kids [${child} 0 R ${child} 0 R] /Count ${2 ** (levels - level)} >>`;
  }
  objects[4 + levels] =
    `<< /Type /Page /Parent ${3 + levels} 0 R /MediaBox [0 0 612 792] /Resources << /Font << /F1 2 0 R >> >> /Contents 3 0 R >>`;
  return assemblePdf(objects);
}

/** A PDF of `count` distinct pages, all drawing one shared content stream. */
export function manyPagesPdf(count: number): Buffer {
  const objects: (string | Buffer)[] = [];
  objects[1] = '<< /Type /Catalog /Pages 2 0 R >>';
  objects[3] = FONT;
  objects[4] = stream('', Buffer.from('BT /F1 12 Tf 72 720 Td (One page of many.) Tj ET'));
  const kids: string[] = [];
  for (let page = 0; page < count; page++) {
    const id = 5 + page;
    kids.push(`${id} 0 R`);
    objects[id] =
      `<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources << /Font << /F1 3 0 R >> >> /Contents 4 0 R >>`;
  }
  objects[2] = `<< /Type /Pages /Kids [${kids.join(' ')}] /Count ${count} >>`;
  return assemblePdf(objects);
}

/**
 * A one-page PDF whose content streams each inflate to `streamBytes` of text operators (a shown
 * string, repeated), `streams` of them: one large stream, or many that are only large together.
 */
export function inflateBombPdf(streamBytes: number, streams = 1): Buffer {
  const operator = Buffer.from('BT /F1 12 Tf 72 720 Td (bomb) Tj ET\n');
  const plain = Buffer.alloc(streamBytes);
  for (let offset = 0; offset < streamBytes; offset += operator.length) operator.copy(plain, offset);
  const packed = deflateSync(plain, { level: 9 });
  const objects: (string | Buffer)[] = [];
  objects[1] = '<< /Type /Catalog /Pages 2 0 R >>';
  objects[3] = FONT;
  const contents: string[] = [];
  for (let index = 0; index < streams; index++) {
    objects[5 + index] = stream('/Filter /FlateDecode', packed);
    contents.push(`${5 + index} 0 R`);
  }
  objects[4] = `<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources << /Font << /F1 3 0 R >> >> /Contents [${contents.join(' ')}] >>`;
  objects[2] = '<< /Type /Pages /Kids [4 0 R] /Count 1 >>';
  return assemblePdf(objects);
}

/** HTML nested `depth` levels deep, in the shapes an attacker would try. */
export const deepHtml = {
  divs: (depth: number) => `<html><body>${'<div>'.repeat(depth)}deep</body></html>`,
  unclosedSpans: (depth: number) => `<p>${'<span>'.repeat(depth)}never closed`,
  lists: (depth: number) => `${'<ul><li>'.repeat(depth)}item`,
  inlineBold: (depth: number) => `<p>${'<b><i>'.repeat(depth / 2)}x</p>`,
  tables: (depth: number) => `${'<table><tr><td>'.repeat(depth / 3)}cell`,
};

/** Markdown nested `depth` levels deep. */
export const deepMarkdown = {
  quotes: (depth: number) => `${'>'.repeat(depth)} quoted\n`,
  markersOnOneLine: (depth: number) => `${'- '.repeat(depth)}item\n`,
  indentedList: (depth: number) =>
    Array.from({ length: depth }, (_, level) => `${'  '.repeat(level)}- level ${level}`).join('\n'),
  emphasis: (depth: number) => `${'*a _b '.repeat(depth / 2)}text\n`,
  links: (depth: number) => `${'['.repeat(depth)}text${'](x)'.repeat(depth)}\n`,
};
