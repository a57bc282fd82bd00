import { parseDocument } from 'htmlparser2';
import { SectionBuilder } from '../section-builder.js';
import type { Section } from '../types.js';
import { codeSpan, fencedCode } from './inline.js';
import { optionEntriesOf } from './option-listing.js';

/** The part of htmlparser2's DOM this reader looks at. */
interface HtmlNode {
  type: string;
  name?: string;
  data?: string;
  attribs?: Record<string, string>;
  children?: HtmlNode[];
  startIndex?: number | null;
}

/** Never content: page furniture, scripts, forms. */
const DROPPED = new Set([
  'nav',
  'header',
  'footer',
  'aside',
  'script',
  'style',
  'noscript',
  'template',
  'svg',
  'canvas',
  'iframe',
  'form',
  'button',
  'select',
  'dialog',
  'head',
]);
const DROPPED_ROLES = new Set(['navigation', 'banner', 'contentinfo', 'complementary', 'search']);
const BLOCKS = new Set([
  'p',
  'ul',
  'ol',
  'dl',
  'pre',
  'table',
  'blockquote',
  'h1',
  'h2',
  'h3',
  'h4',
  'h5',
  'h6',
  'div',
  'section',
  'article',
  'main',
  'figure',
  'details',
  'hr',
]);

/**
 * Reads HTML through htmlparser2 (a real, forgiving parser): the main content (`<main>`, the
 * `<article>` with the most text, else `<body>`) as headings h1–h6, paragraphs, list items,
 * code blocks, table rows, definition terms and quotes; navigation, headers, footers, asides,
 * scripts and styles are dropped. Blocks keep clean Markdown for replies.
 */
export function readHtml(html: string): { title?: string; sections: Section[] } {
  const root = parseDocument(html, { withStartIndices: true }) as unknown as HtmlNode;
  const title = textOf(find(root, (node) => node.name === 'title'));
  // A page that only sends the browser on to another (a manual's node alias: "The node you are
  // looking for is at …") has nothing of its own to teach; what it points to is taught there.
  if (REFRESH.test(html) && redirectOf(root) !== null) return { ...(title ? { title } : {}), sections: [] };
  const reader = new HtmlReader(html);
  reader.readChildren(mainContent(root));
  return { ...(title ? { title } : {}), sections: reader.builder.finish() };
}

/**
 * Where a page that only redirects sends the reader: the address of a `<meta http-equiv="refresh">`
 * that goes there at once ("0; url=Output-Formats.html#Alternate-Names"); null for any other page.
 */
export function redirectTarget(html: string): string | null {
  return REFRESH.test(html) ? redirectOf(parseDocument(html) as unknown as HtmlNode) : null;
}

function redirectOf(root: HtmlNode): string | null {
  const meta = find(
    root,
    (node) => node.name === 'meta' && (node.attribs?.['http-equiv'] ?? '').toLowerCase() === 'refresh',
  );
  return IMMEDIATE_REDIRECT.exec(meta?.attribs?.content ?? '')?.[1] ?? null;
}

/** A refresh named anywhere in the page: only then is it parsed for one. */
const REFRESH = /http-equiv\s*=\s*["']?refresh/i;
/** The content of a refresh that goes elsewhere at once, and the address it goes to. */
const IMMEDIATE_REDIRECT = /^\s*0*\s*[;,]\s*url\s*=\s*['"]?([^'"\s]+)/i;

function find(node: HtmlNode, test: (node: HtmlNode) => boolean): HtmlNode | undefined {
  if (test(node)) return node;
  for (const child of node.children ?? []) {
    const found = find(child, test);
    if (found) return found;
  }
  return undefined;
}

function findAll(node: HtmlNode, test: (node: HtmlNode) => boolean, out: HtmlNode[] = []): HtmlNode[] {
  if (test(node)) out.push(node);
  for (const child of node.children ?? []) findAll(child, test, out);
  return out;
}

function isDropped(node: HtmlNode): boolean {
  if (node.type === 'comment' || node.type === 'directive') return true;
  if (node.type === 'script' || node.type === 'style') return true;
  if (!node.name) return false;
  const attribs = node.attribs ?? {};
  return (
    DROPPED.has(node.name) ||
    isPermalink(node) ||
    DROPPED_ROLES.has(attribs.role ?? '') ||
    attribs['aria-hidden'] === 'true' ||
    'hidden' in attribs
  );
}

/** What a permalink beside a heading or a term shows: a pilcrow, a section sign, "#", a link symbol. */
const PERMALINK_MARK = /^\s*(?:¶|§|#|🔗|\uD83D\uDD17)?\s*$/u;

/**
 * A permalink anchor (Sphinx's `headerlink`, MkDocs' and Docusaurus' "#" beside a heading or a
 * glossary term): page furniture that links to where it stands. Read as text it would end every
 * heading and term name with "¶" ("Glossary¶", "loader¶"), which no question writes.
 */
function isPermalink(node: HtmlNode): boolean {
  if (node.name !== 'a') return false;
  const attribs = node.attribs ?? {};
  if (
    /(?:^|\s)(?:headerlink|anchorjs-link|hash-link|header-anchor|anchor-link)(?:\s|$)/.test(
      attribs.class ?? '',
    )
  ) {
    return true;
  }
  if (!(attribs.href ?? '').startsWith('#')) return false;
  const text = (node.children ?? [])
    .map((child) => (child.type === 'text' ? (child.data ?? '') : '\u0000'))
    .join('');
  return text.trim() !== '' && PERMALINK_MARK.test(text);
}

function mainContent(root: HtmlNode): HtmlNode {
  const main = find(root, (node) => node.name === 'main' || node.attribs?.role === 'main');
  if (main) return main;
  const articles = findAll(root, (node) => node.name === 'article');
  if (articles.length > 0) {
    // Lengths from one pass over the tree: measuring each article alone is quadratic when they nest.
    const lengths = textLengths(root);
    return articles.reduce((best, article) =>
      (lengths.get(article) ?? 0) > (lengths.get(best) ?? 0) ? article : best,
    );
  }
  return find(root, (node) => node.name === 'body') ?? root;
}

/** The length of the text under every node (furniture left out, whitespace not collapsed), without recursion. */
function textLengths(root: HtmlNode): Map<HtmlNode, number> {
  const lengths = new Map<HtmlNode, number>();
  const stack: { node: HtmlNode; visited: boolean }[] = [{ node: root, visited: false }];
  while (stack.length > 0) {
    const top = stack.pop()!;
    const { node } = top;
    if (isDropped(node)) {
      lengths.set(node, 0);
      continue;
    }
    if (top.visited || !node.children?.length) {
      const own = node.type === 'text' ? (node.data ?? '').trim().length : 0;
      const children = (node.children ?? []).reduce((sum, child) => sum + (lengths.get(child) ?? 0), 0);
      lengths.set(node, own + children);
      continue;
    }
    stack.push({ node, visited: true });
    for (const child of node.children) stack.push({ node: child, visited: false });
  }
  return lengths;
}

/** Plain text of a subtree, whitespace collapsed, furniture left out. */
function textOf(node: HtmlNode | undefined): string {
  if (!node) return '';
  return inline(node.children ?? []).text;
}

/** Inline content as plain text and as Markdown, whitespace collapsed. */
function inline(nodes: readonly HtmlNode[]): { text: string; markdown: string } {
  const raw = inlineRaw(nodes);
  return { text: collapse(raw.text), markdown: collapse(raw.markdown) };
}

/** The white space an element's content starts and ends with, kept outside its Markdown marks. */
function wrap(inner: string, mark: (trimmed: string) => string): string {
  const trimmed = inner.trim();
  if (trimmed === '') return inner;
  const lead = /^\s/.test(inner) ? ' ' : '';
  const trail = /\s$/.test(inner) ? ' ' : '';
  return `${lead}${mark(trimmed)}${trail}`;
}

/**
 * Inline content with its white space as written: `<b>PRAGMA </b><i>schema</i>` keeps the space
 * inside the bold between the two words.
 */
function inlineRaw(nodes: readonly HtmlNode[]): { text: string; markdown: string } {
  let text = '';
  let markdown = '';
  for (const node of nodes) {
    if (isDropped(node)) continue;
    if (node.type === 'text') {
      text += node.data ?? '';
      markdown += node.data ?? '';
      continue;
    }
    const inner = inlineRaw(node.children ?? []);
    switch (node.name) {
      case 'br':
        text += ' ';
        markdown += ' ';
        break;
      case 'img':
        break;
      case 'code':
      case 'kbd':
      case 'samp':
      case 'tt':
        text += inner.text;
        markdown += wrap(inner.text.replace(/\s+/g, ' '), codeSpan);
        break;
      case 'strong':
      case 'b':
        text += inner.text;
        markdown += wrap(inner.markdown.replace(/\s+/g, ' '), (trimmed) => `**${trimmed}**`);
        break;
      case 'em':
      case 'i':
        text += inner.text;
        markdown += wrap(inner.markdown.replace(/\s+/g, ' '), (trimmed) => `_${trimmed}_`);
        break;
      case 'a': {
        const href = node.attribs?.href ?? '';
        text += inner.text;
        markdown += /^https?:\/\//.test(href)
          ? wrap(inner.markdown.replace(/\s+/g, ' '), (trimmed) => `[${trimmed}](${href})`)
          : inner.markdown;
        break;
      }
      default:
        text += inner.text;
        markdown += inner.markdown;
    }
  }
  return { text, markdown };
}

function collapse(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}

class HtmlReader {
  readonly builder = new SectionBuilder();
  private readonly lineStarts: number[] = [0];

  constructor(source: string) {
    for (let i = source.indexOf('\n'); i >= 0; i = source.indexOf('\n', i + 1)) this.lineStarts.push(i + 1);
  }

  /** Reads block-level children; runs of inline content between blocks become paragraphs. */
  readChildren(node: HtmlNode): void {
    let run: HtmlNode[] = [];
    const flush = () => {
      if (run.length > 0) this.paragraph(run);
      run = [];
    };
    for (const child of node.children ?? []) {
      if (isDropped(child)) continue;
      if (
        child.name &&
        (BLOCKS.has(child.name) || child.name === 'li' || child.name === 'dt' || child.name === 'h')
      ) {
        flush();
        if (!isNavigation(child)) this.readBlock(child);
      } else run.push(child);
    }
    flush();
  }

  /** 1-based source line where a node starts. */
  private lineOf(node: HtmlNode | undefined): number {
    const offset = node?.startIndex ?? 0;
    let low = 0;
    let high = this.lineStarts.length - 1;
    while (low < high) {
      const middle = (low + high + 1) >> 1;
      if (this.lineStarts[middle] <= offset) low = middle;
      else high = middle - 1;
    }
    return low + 1;
  }

  private paragraph(nodes: readonly HtmlNode[]): void {
    const heading = nodes.findIndex((node) => node.name === 'h');
    if (heading >= 0) {
      // An unclosed <p> swallows the <h> after it (the parser nests unknown elements inside):
      // the heading still ends the paragraph before it and opens the entry after it.
      this.paragraph(nodes.slice(0, heading));
      this.readBlock(nodes[heading]);
      this.paragraph(nodes.slice(heading + 1));
      return;
    }
    const { text, markdown } = inline(nodes);
    if (text !== '') this.builder.block({ kind: 'paragraph', text, markdown, line: this.lineOf(nodes[0]) });
  }

  private readBlock(node: HtmlNode): void {
    const name = node.name ?? '';
    if (/^h[1-6]$/.test(name)) {
      this.builder.heading(Number(name[1]), textOf(node));
      return;
    }
    if (name === 'h') {
      // XHTML 2's unnumbered heading, which some generated manuals put before each entry of a
      // long page (often hidden, as a label for their search): a block of its own, so it is not
      // read as the end of the entry before it. (Read as a heading of the entry it measured worse
      // on the SQLite manual's pragma page: the ranking's margin between entries, see the report.)
      this.paragraph(node.children ?? []);
      return;
    }
    switch (name) {
      case 'p':
        this.paragraph(node.children ?? []);
        return;
      case 'ul':
      case 'ol':
        this.list(node, name === 'ol', 0);
        return;
      case 'pre':
        this.code(node);
        return;
      case 'table':
        this.table(node);
        return;
      case 'blockquote': {
        const { text, markdown } = inline(node.children ?? []);
        if (text !== '') this.builder.block({ kind: 'quote', text, markdown, line: this.lineOf(node) });
        return;
      }
      case 'dl':
        this.definitions(node);
        return;
      case 'hr':
        return;
      default:
        this.readChildren(node);
    }
  }

  private list(node: HtmlNode, ordered: boolean, depth: number): void {
    // A list of nothing but links is a table of contents or a menu (a manual's "Contents", the
    // sub-sections listed under a chapter heading): navigation that repeats the headings' words.
    if (depth === 0 && isLinkList(node)) return;
    let number = Number(node.attribs?.start ?? 1) || 1;
    for (const item of node.children ?? []) {
      if (item.name !== 'li') continue;
      const own = (item.children ?? []).filter((child) => child.name !== 'ul' && child.name !== 'ol');
      const { text, markdown } = inline(own.filter((child) => child.name !== 'pre'));
      if (text !== '') {
        const name = leadingTerm(own);
        this.builder.block({
          kind: 'list-item',
          text,
          markdown: `${'  '.repeat(depth)}${ordered ? `${number}.` : '-'} ${markdown}`,
          line: this.lineOf(item),
          ...(name ? { name } : {}),
        });
      }
      number++;
      for (const child of item.children ?? []) {
        if (child.name === 'ul' || child.name === 'ol') this.list(child, child.name === 'ol', depth + 1);
        else if (child.name === 'pre') this.code(child);
      }
    }
  }

  private code(node: HtmlNode): void {
    const text = rawText(node).replace(/^\n/, '').replace(/\s+$/, '');
    if (text === '') return;
    const classes = [node, ...(node.children ?? []).filter((child) => child.name === 'code')]
      .map((element) => element.attribs?.class ?? '')
      .join(' ');
    const lang = /(?:^|\s)(?:language|lang)-([\w+#-]+)/.exec(classes)?.[1];
    this.builder.block({
      kind: 'code',
      text,
      markdown: fencedCode(text, lang),
      line: this.lineOf(node),
      ...(lang ? { lang } : {}),
    });
    for (const entry of optionEntriesOf(text, lang, this.lineOf(node))) this.builder.block(entry);
  }

  private table(node: HtmlNode): void {
    const rows = findAll(node, (child) => child.name === 'tr');
    // A table most of whose rows are nothing but links is an index or a menu (a manual's index of
    // entries, each a link to its section, with its letter headings): navigation, left out whole.
    const cellsOf = (row: HtmlNode) =>
      (row.children ?? []).filter((cell) => cell.name === 'td' || cell.name === 'th');
    const linkRows = rows.filter((row) => {
      const cells = cellsOf(row);
      return (
        cells.length > 0 &&
        cells.every(isLinksOnly) &&
        cells.some((cell) => linkOrBlank(cell) && textOf(cell) !== '')
      );
    }).length;
    const textRows = rows.filter((row) => cellsOf(row).some((cell) => textOf(cell) !== '')).length;
    if (linkRows >= 3 && linkRows >= INDEX_TABLE_SHARE * textRows) return;
    let headers: string[] = [];
    for (const row of rows) {
      const cells = cellsOf(row);
      if (cells.length === 0) continue;
      if (cells.every((cell) => cell.name === 'th') && headers.length === 0) {
        headers = cells.map((cell) => textOf(cell));
        continue;
      }
      if (cells.every(isLinksOnly)) continue;
      const texts = cells.map((cell) => inline(cell.children ?? []));
      const name = texts[0].text;
      const describe = (values: string[]) =>
        values.length === 2
          ? values[1]
          : values
              .slice(1)
              .map((value, column) =>
                headers[column + 1] && value ? `${headers[column + 1]}: ${value}` : value,
              )
              .filter((value) => value !== '')
              .join('; ');
      const plain = describe(texts.map((cell) => cell.text));
      const marked = describe(texts.map((cell) => cell.markdown));
      if (name === '' && plain === '') continue;
      this.builder.block({
        kind: 'table-row',
        text: name === '' ? plain : plain === '' ? name : `${name}: ${plain}`,
        markdown:
          name === '' ? marked : marked === '' ? texts[0].markdown : `${texts[0].markdown}: ${marked}`,
        line: this.lineOf(row),
        ...(name ? { name } : {}),
      });
    }
  }

  private definitions(node: HtmlNode): void {
    let term: { text: string; markdown: string } | undefined;
    // Consecutive <dt>s share the <dd> after them (an option's several spellings, `-k` and
    // `--keep`): the entry is named by all of them, not the last alone.
    let afterTerm = false;
    for (const child of node.children ?? []) {
      if (child.name === 'dt') {
        const next = inline(child.children ?? []);
        if (next.text === '') continue;
        term =
          afterTerm && term
            ? { text: `${term.text}, ${next.text}`, markdown: `${term.markdown}, ${next.markdown}` }
            : next;
        afterTerm = true;
      } else if (child.name === 'dd') {
        afterTerm = false;
        const { text, markdown } = inline(child.children ?? []);
        if (text === '') continue;
        this.builder.block({
          kind: 'list-item',
          text: term ? `${term.text}: ${text}` : text,
          markdown: term ? `- ${term.markdown}: ${markdown}` : `- ${markdown}`,
          line: this.lineOf(child),
          ...(term?.text ? { name: term.text } : {}),
        });
      }
    }
  }
}

/**
 * Share of a table's rows with text that are only links from which it is read as an index and left
 * out: an index's letter headings and column titles are rows of their own among its entries.
 */
const INDEX_TABLE_SHARE = 0.5;

/** What a link to a neighbouring page of a manual says it is (HTML's link types; texinfo's "Next: … Up: …" line). */
const NAVIGATION_RELS = new Set([
  'next',
  'prev',
  'previous',
  'up',
  'contents',
  'index',
  'start',
  'first',
  'last',
]);

/**
 * A paragraph whose links all go to the manual's next, previous or parent page or to its
 * contents (`rel="next"` …; texinfo puts "Next: …, Previous: …, Up: … [Contents][Index]" above
 * every node): page furniture, though no <nav> marks it.
 */
function isNavigation(node: HtmlNode): boolean {
  // A paragraph only: texinfo wraps its line in a <div class="header">, which is read through to it,
  // and a paragraph's links are found without walking a whole chapter's subtree.
  if (node.name !== 'p') return false;
  const links = findAll(node, (child) => child.name === 'a' && child.attribs?.href !== undefined);
  // Outside its links it says no more than where they lead ("Next:", "Up:", "[", "]").
  const rest = textOutsideLinks(node).replace(
    /\b(?:next|previous|prev|up|contents|index|top)\b|[\s\p{P}\p{S}]/giu,
    '',
  );
  return (
    rest === '' &&
    links.length > 0 &&
    links.every((link) => (link.attribs?.rel ?? '').split(/\s+/).some((rel) => NAVIGATION_RELS.has(rel)))
  );
}

/** A list whose every item (nested lists included) is nothing but links. */
function isLinkList(node: HtmlNode): boolean {
  const items = (node.children ?? []).filter((child) => child.name === 'li');
  return (
    items.length > 0 &&
    items.every((item) =>
      (item.children ?? []).every((child) =>
        child.name === 'ul' || child.name === 'ol'
          ? isLinkList(child)
          : isLinksOnly(child) && linkOrBlank(child),
      ),
    )
  );
}

/** Whether a node holds a link (white space between links passes too). */
function linkOrBlank(node: HtmlNode): boolean {
  return node.type === 'text'
    ? (node.data ?? '').trim() === ''
    : find(node, (child) => child.name === 'a') !== undefined;
}

/** A cell of a navigation table: nothing but links (or nothing at all). */
function isLinksOnly(cell: HtmlNode): boolean {
  // Punctuation beside the links ("<a>.</a>:", "[<a>Contents</a>]") says nothing of its own either.
  return textOutsideLinks(cell).replace(/[\s\p{P}]/gu, '') === '';
}

/** The text of a subtree outside its links (furniture left out). */
function textOutsideLinks(node: HtmlNode): string {
  if (node.name === 'a' || isDropped(node)) return '';
  if (node.type === 'text') return node.data ?? '';
  return (node.children ?? []).map(textOutsideLinks).join('');
}

/** The text inside a <pre>, line breaks kept. */
function rawText(node: HtmlNode): string {
  if (node.type === 'text') return node.data ?? '';
  if (node.name === 'br') return '\n';
  return (node.children ?? []).map(rawText).join('');
}

/** An item's leading <code> or <strong> term, when text follows it. */
function leadingTerm(nodes: readonly HtmlNode[]): string | undefined {
  const meaningful = nodes.filter((node) => !(node.type === 'text' && (node.data ?? '').trim() === ''));
  const first = meaningful[0];
  if (!first || meaningful.length < 2) return undefined;
  if (first.name !== 'code' && first.name !== 'strong' && first.name !== 'b') return undefined;
  const name = textOf(first);
  return name !== '' && name.length <= 60 ? name : undefined;
}
