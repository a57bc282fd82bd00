import { slug } from 'github-slugger';

/** Where a cited passage sits: what the builder needs, whatever the passage index calls it. */
export interface CitationInput {
  /** The document's name (its file name, or the title it was trained under). */
  title?: string;
  /** The section's heading path, outermost first. */
  path?: readonly string[];
  /** The document's own address, given at training (`url`, the CLI's `--source-url`). */
  url?: string;
  /** 1-based page, for a PDF. */
  page?: number;
  /** The section's HTML id, when the reader kept it (an HTML heading's `id`). */
  anchor?: string;
  /** The document's format, when known (`markdown`, `html`, `pdf` ...). */
  format?: string;
}

/** A source as a visitor follows it: "title › section", linked to the place it came from. */
export interface Citation {
  title?: string;
  /** The heading path joined with " › ". */
  section?: string;
  url?: string;
  page?: number;
}

const SECTION_JOIN = ' › ';

/**
 * The citation of a passage: its document's title and section, and the url of the place it came
 * from. A PDF page is `#page=N` (what browsers' PDF viewers open at); a section is its HTML id
 * when known, else the heading's slug as GitHub makes it (the anchors of rendered Markdown on
 * GitHub and most documentation generators). An HTML page without a known id gets no fragment:
 * a guessed one would lead nowhere.
 */
export function citationOf(input: CitationInput): Citation {
  const path = (input.path ?? []).map((part) => part.trim()).filter(Boolean);
  const section = path.length > 0 ? path.join(SECTION_JOIN) : undefined;
  const title = input.title?.trim() || undefined;
  const url = input.url ? linkOf(input, path) : undefined;
  return {
    ...(title ? { title } : {}),
    ...(section ? { section } : {}),
    ...(url ? { url } : {}),
    ...(input.page ? { page: input.page } : {}),
  };
}

function linkOf(input: CitationInput, path: readonly string[]): string | undefined {
  let base: URL;
  try {
    base = new URL(input.url!);
  } catch {
    return undefined;
  }
  if (base.protocol !== 'http:' && base.protocol !== 'https:') return undefined;
  base.hash = '';
  const fragment = fragmentOf(input, path, base);
  return fragment ? `${base.href}#${fragment}` : base.href;
}

function fragmentOf(input: CitationInput, path: readonly string[], base: URL): string | undefined {
  if (input.page && (input.format === 'pdf' || /\.pdf$/i.test(base.pathname) || !input.format))
    return `page=${input.page}`;
  if (input.anchor) return encodeURIComponent(input.anchor);
  const heading = path[path.length - 1];
  if (!heading) return undefined;
  if (input.format === 'html' || /\.html?$/i.test(base.pathname)) return undefined;
  const anchor = slug(heading);
  return anchor || undefined;
}

/** The heading path of a source's `section` as the passage index writes it ("tar > Options"). */
export function headingPathOf(section: string | undefined): string[] {
  if (!section) return [];
  return section
    .split(/\s+[>›]\s+/)
    .map((part) => part.trim())
    .filter(Boolean);
}
