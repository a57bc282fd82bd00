/**
 * A line of a page: its text, or its text with type size (default 12) and left x (default 72), or
 * runs drawn at their own x on the one row (a term and its description, cells of a table); ''
 * leaves a row empty.
 */
export type PdfLine =
  | string
  | { text: string; size?: number; x?: number }
  | { runs: readonly { text: string; x: number }[]; size?: number };

/**
 * Writes a small, valid PDF by hand: one page per entry, each line of a page drawn in Helvetica
 * one under the other, with a correct cross-reference table. Enough for a real extractor to read.
 */
export function tinyPdf(pages: readonly (readonly PdfLine[])[]): Uint8Array {
  const objects: string[] = [];
  const pageIds = pages.map((_, index) => 4 + index * 2);
  objects[1] = '<< /Type /Catalog /Pages 2 0 R >>';
  objects[2] = `<< /Type /Pages /Kids [${pageIds.map((id) => `${id} 0 R`).join(' ')}] /Count ${pages.length} >>`;
  objects[3] = '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>';
  pages.forEach((lines, index) => {
    const pageId = pageIds[index];
    const drawn = lines
      .flatMap((line, row) => {
        const y = 720 - row * 18;
        if (typeof line === 'string') return line === '' ? [] : [{ text: line, size: 12, x: 72, y }];
        if ('runs' in line) return line.runs.map((run) => ({ ...run, size: line.size ?? 12, y }));
        return line.text === '' ? [] : [{ text: line.text, size: line.size ?? 12, x: line.x ?? 72, y }];
      })
      .map((run) => `BT /F1 ${run.size} Tf ${run.x} ${run.y} Td (${escapePdfString(run.text)}) Tj ET`)
      .join('\n');
    objects[pageId] =
      `<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources << /Font << /F1 3 0 R >> >> /Contents ${pageId + 1} 0 R >>`;
    objects[pageId + 1] = `<< /Length ${drawn.length} >>\nstream\n${drawn}\nendstream`;
  });
  let out = '%PDF-1.4\n';
  const offsets: number[] = [];
  for (let id = 1; id < objects.length; id++) {
    offsets[id] = out.length;
    out += `${id} 0 obj\n${objects[id]}\nendobj\n`;
  }
  const xref = out.length;
  out += `xref\n0 ${objects.length}\n0000000000 65535 f \n`;
  for (let id = 1; id < objects.length; id++) out += `${String(offsets[id]).padStart(10, '0')} 00000 n \n`;
  out += `trailer\n<< /Size ${objects.length} /Root 1 0 R >>\nstartxref\n${xref}\n%%EOF\n`;
  return new TextEncoder().encode(out);
}

function escapePdfString(text: string): string {
  return text.replace(/[\\()]/g, (character) => `\\${character}`);
}
