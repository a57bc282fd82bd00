import type { PlacedText } from '../extract-pdf.js';
import type { ReadLimits } from './limits.js';
import { ReadRefused } from './refusal.js';

/**
 * The placed text runs of each page, read one page at a time: the page count (the tree's /Count,
 * which pdf.js checks against the tree when it opens the file) is held to `maxPdfPages` before any
 * page is read, a page reached twice (a page tree whose nodes are shared, so it claims more
 * pages than it holds) or a tree that loops is refused, and reading stops once the text is sure
 * to pass the text limit (its characters other than white space alone pass it).
 */
export async function placedTextOf(bytes: Uint8Array, limits: ReadLimits): Promise<PlacedText[][]> {
  // Loaded on first use: the extractor is large and only a PDF needs it.
  const { getDocumentProxy } = await import('unpdf');
  let pdf: Awaited<ReturnType<typeof getDocumentProxy>>;
  try {
    pdf = await getDocumentProxy(new Uint8Array(bytes));
  } catch (error) {
    throw new ReadRefused({ limit: 'unreadable' }, error);
  }
  // No clean-up: the worker this runs in ends after one document.
  if (pdf.numPages > limits.maxPdfPages) {
    throw new ReadRefused({ limit: 'MAX_PDF_PAGES', found: pdf.numPages, max: limits.maxPdfPages });
  }
  const seen = new Set<string>();
  const pages: PlacedText[][] = [];
  let textBytes = 0;
  for (let number = 1; number <= pdf.numPages; number++) {
    const page = await pageOf(pdf, number);
    const key = `${page.ref?.num}:${page.ref?.gen}`;
    if (page.ref && seen.has(key)) throw new ReadRefused({ limit: 'page_tree' });
    seen.add(key);
    const content = await page.getTextContent();
    const items: PlacedText[] = [];
    for (const item of content.items) {
      if (!('str' in item)) continue;
      const [, , c, d, e, f] = item.transform as number[];
      items.push({
        str: item.str,
        x: e,
        y: f,
        fontSize: Math.hypot(c, d),
        width: item.width,
        hasEOL: item.hasEOL,
      });
      // Characters other than white space: a lower bound of what the laid-out text keeps.
      textBytes += item.str.replace(/\s+/g, '').length;
    }
    if (textBytes > limits.maxTextBytes) {
      throw new ReadRefused({ limit: 'text', max: limits.maxTextBytes });
    }
    pages.push(items);
    page.cleanup();
  }
  return pages;
}

async function pageOf(pdf: { getPage(number: number): Promise<PdfPage> }, number: number): Promise<PdfPage> {
  try {
    return await pdf.getPage(number);
  } catch (error) {
    const loops = error instanceof Error && /circular|loop/i.test(error.message);
    throw new ReadRefused({ limit: loops ? 'page_tree' : 'unreadable' }, error);
  }
}

type PdfPage = Awaited<ReturnType<Awaited<ReturnType<typeof import('unpdf').getDocumentProxy>>['getPage']>>;
