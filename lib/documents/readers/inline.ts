import type { Token, Tokens } from 'marked';

const ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", nbsp: ' ' };

/** Decodes the HTML character references Markdown text may hold (`&amp;`, `&#39;`, `&#x2014;`). */
export function decodeEntities(text: string): string {
  if (!text.includes('&')) return text;
  return text.replace(/&(#x[0-9a-f]+|#\d+|[a-z]+);/gi, (whole, name: string) => {
    if (name[0] === '#') {
      const code =
        name[1] === 'x' || name[1] === 'X' ? Number.parseInt(name.slice(2), 16) : Number(name.slice(1));
      return Number.isFinite(code) && code > 0 && code < 0x110000 ? String.fromCodePoint(code) : whole;
    }
    return ENTITIES[name.toLowerCase()] ?? whole;
  });
}

function children(token: Token): Token[] | undefined {
  return (token as { tokens?: Token[] }).tokens;
}

/** Inline tokens as plain text: no syntax, images left out, links by their text. */
export function plainInline(tokens: readonly Token[] | undefined): string {
  if (!tokens) return '';
  let out = '';
  for (const token of tokens) {
    switch (token.type) {
      case 'codespan':
        out += decodeEntities((token as Tokens.Codespan).text);
        break;
      case 'image':
      case 'html':
        break;
      case 'br':
        out += ' ';
        break;
      case 'escape':
        out += (token as Tokens.Escape).text;
        break;
      default: {
        const inner = children(token);
        out += inner ? plainInline(inner) : decodeEntities((token as { text?: string }).text ?? '');
      }
    }
  }
  return out.replace(/\s+/g, ' ').trim();
}

/** Inline tokens as clean Markdown: inline code and emphasis kept, links to pages kept, images dropped. */
export function markdownInline(tokens: readonly Token[] | undefined): string {
  if (!tokens) return '';
  let out = '';
  for (const token of tokens) {
    switch (token.type) {
      case 'codespan':
        out += codeSpan(decodeEntities((token as Tokens.Codespan).text));
        break;
      case 'strong':
        out += wrapped('**', markdownInline(children(token)));
        break;
      case 'em':
        out += wrapped('_', markdownInline(children(token)));
        break;
      case 'del':
        out += markdownInline(children(token));
        break;
      case 'link': {
        const link = token as Tokens.Link;
        const text = markdownInline(link.tokens);
        out += /^https?:\/\//.test(link.href) && text !== '' ? `[${text}](${link.href})` : text;
        break;
      }
      case 'image':
      case 'html':
        break;
      case 'br':
        out += ' ';
        break;
      case 'escape':
        out += (token as Tokens.Escape).text;
        break;
      default: {
        const inner = children(token);
        out += inner ? markdownInline(inner) : decodeEntities((token as { text?: string }).text ?? '');
      }
    }
  }
  return out.replace(/\s+/g, ' ').trim();
}

/** Inline code in backticks, with a longer fence when the code holds backticks. */
export function codeSpan(code: string): string {
  const longest = Math.max(0, ...(code.match(/`+/g) ?? []).map((run) => run.length));
  const fence = '`'.repeat(longest + 1);
  const pad = code.startsWith('`') || code.endsWith('`') ? ' ' : '';
  return `${fence}${pad}${code}${pad}${fence}`;
}

function wrapped(mark: string, text: string): string {
  return text === '' ? '' : `${mark}${text}${mark}`;
}

/** A fenced code block with its language. */
export function fencedCode(code: string, lang?: string): string {
  const longest = Math.max(2, ...(code.match(/^`{3,}/gm) ?? []).map((run) => run.length));
  const fence = '`'.repeat(longest + 1);
  return `${fence}${lang ?? ''}\n${code}\n${fence}`;
}

/** The name an item describes: its leading `code` or **bold** term, when text follows it. */
export function leadingName(tokens: readonly Token[] | undefined): string | undefined {
  if (!tokens || tokens.length < 2) return undefined;
  const first = tokens[0];
  if (first.type !== 'codespan' && first.type !== 'strong' && first.type !== 'link') return undefined;
  const name = plainInline([first]);
  if (name === '' || name.length > 60) return undefined;
  const rest = plainInline(tokens.slice(1));
  return rest === '' ? undefined : name;
}
