const encoder = new TextEncoder();

/** UTF-8 length of a string. */
export function utf8Bytes(text: string): number {
  return encoder.encode(text).byteLength;
}

/**
 * Packs a text, arriving in pieces of any size, into parts of at most `maxBytes` UTF-8 bytes.
 * Parts are cut at paragraph boundaries (blank lines); a paragraph too large for one part is cut
 * at line ends, a line too long at spaces, and a word too long between characters (never inside
 * one). Whitespace-only parts are dropped. The service joins the parts with nothing between them,
 * so each cut keeps its separator (the blank line, the line break, the space) on one side: the
 * parts put together are the text, its blank lines each one blank line. Memory stays around one
 * part whatever the input size.
 */
export class PartPacker {
  private pending = '';
  /** The pending paragraph's first lines are packed already: the rest goes on after a line break. */
  private inParagraph = false;
  private part = '';
  private partBytes = 0;
  private started = false;
  private readonly ready: string[] = [];

  constructor(private readonly maxBytes: number) {
    if (!Number.isInteger(maxBytes) || maxBytes < 16)
      throw new RangeError('maxBytes must be an integer of at least 16');
  }

  /** Adds text; returns the parts now complete. */
  push(text: string): string[] {
    this.pending += text;
    const blank = /\r?\n[ \t]*\r?\n/g;
    let cut = 0;
    for (let match = blank.exec(this.pending); match; match = blank.exec(this.pending)) {
      this.addParagraph(this.pending.slice(cut, match.index));
      cut = match.index + match[0].length;
    }
    this.pending = this.pending.slice(cut);
    // A paragraph that never ends must not grow without bound: pack its complete lines.
    if (this.pending.length > this.maxBytes) {
      const lastBreak = this.pending.lastIndexOf('\n');
      if (lastBreak > 0) {
        this.addOversized(this.pending.slice(0, lastBreak), '\n', this.leadOfParagraph());
        this.pending = this.pending.slice(lastBreak + 1);
        this.inParagraph = true;
      }
    }
    return this.take();
  }

  /** Ends the input; returns the last parts. */
  end(): string[] {
    this.addParagraph(this.pending);
    this.pending = '';
    this.flush();
    return this.take();
  }

  private take(): string[] {
    return this.ready.splice(0, this.ready.length);
  }

  private addParagraph(paragraph: string): void {
    const lead = this.leadOfParagraph();
    this.inParagraph = false;
    if (paragraph.trim() === '') return;
    if (utf8Bytes(paragraph) > this.maxBytes) {
      this.addOversized(paragraph, '\n', lead);
      return;
    }
    this.append(paragraph, lead);
  }

  /** What joins the next piece of the pending paragraph to what came before it. */
  private leadOfParagraph(): string {
    return this.inParagraph ? '\n' : '\n\n';
  }

  /**
   * Adds a block too large for one part, in pieces cut at `separator` (lines, then spaces), the
   * first joined to what came before by `lead`.
   */
  private addOversized(block: string, separator: '\n' | ' ', lead: string): void {
    let joint = lead;
    for (const piece of block.split(separator)) {
      if (piece.trim() === '') continue;
      if (utf8Bytes(piece) <= this.maxBytes) this.append(piece, joint);
      else if (separator === '\n') this.addOversized(piece, ' ', joint);
      else {
        let sliceJoint = joint;
        for (const slice of this.characterSlices(piece)) {
          this.append(slice, sliceJoint);
          sliceJoint = '';
        }
      }
      joint = separator;
    }
  }

  private *characterSlices(word: string): Generator<string> {
    let slice = '';
    let bytes = 0;
    for (const character of word) {
      const size = utf8Bytes(character);
      if (bytes + size > this.maxBytes) {
        yield slice;
        slice = '';
        bytes = 0;
      }
      slice += character;
      bytes += size;
    }
    if (slice) yield slice;
  }

  /**
   * Adds text after `separator`. Parts are joined with nothing between them when the service puts
   * the document together, so a separator where a part ends goes with that part where it fits,
   * else opens the next: no word runs into the next and no paragraph into the one after it.
   */
  private append(text: string, separator: string): void {
    const bytes = utf8Bytes(text);
    // The document's first words follow nothing.
    if (!this.started) {
      this.started = true;
      this.part = text;
      this.partBytes = bytes;
      return;
    }
    const joint = utf8Bytes(separator);
    if (this.part !== '' && this.partBytes + joint + bytes <= this.maxBytes) {
      this.part += separator + text;
      this.partBytes += joint + bytes;
      return;
    }
    if (this.part !== '' && this.partBytes + joint <= this.maxBytes) {
      this.part += separator;
      this.partBytes += joint;
      this.flush();
      this.part = text;
      this.partBytes = bytes;
      return;
    }
    this.flush();
    const opens = joint + bytes <= this.maxBytes ? separator : '';
    this.part = opens + text;
    this.partBytes = utf8Bytes(opens) + bytes;
  }

  private flush(): void {
    if (this.part.trim() !== '') this.ready.push(this.part);
    this.part = '';
    this.partBytes = 0;
  }
}

/** Splits a whole text into parts (see `PartPacker`). */
export function splitForTraining(text: string, maxBytes: number): string[] {
  const packer = new PartPacker(maxBytes);
  return [...packer.push(text), ...packer.end()];
}

/** Reads a text stream (e.g. a file) as training parts, one part in memory at a time. */
export async function* partsOf(chunks: AsyncIterable<string>, maxBytes: number): AsyncGenerator<string> {
  const packer = new PartPacker(maxBytes);
  for await (const chunk of chunks) yield* packer.push(chunk);
  yield* packer.end();
}

const ATX_HEADING = /^ {0,3}#{1,6}(?:\s|$)/;
const FENCE = /^ {0,3}(`{3,}|~{3,})/;

/**
 * Splits Markdown into parts of at most `maxBytes`, cut before headings (never inside a fenced
 * code block), so each part parses as Markdown of its own; a section larger than a part is cut as
 * `splitForTraining` cuts text.
 */
export function splitMarkdownForTraining(text: string, maxBytes: number): string[] {
  const sections: string[] = [];
  let section: string[] = [];
  let fence: string | undefined;
  for (const line of text.replace(/\r\n?/g, '\n').split('\n')) {
    const opened = FENCE.exec(line)?.[1];
    if (fence === undefined && ATX_HEADING.test(line) && section.length > 0) {
      sections.push(section.join('\n'));
      section = [];
    }
    if (opened && fence === undefined) fence = opened[0];
    else if (opened && fence !== undefined && opened[0] === fence) fence = undefined;
    section.push(line);
  }
  if (section.length > 0) sections.push(section.join('\n'));
  const parts: string[] = [];
  let part = '';
  const flush = () => {
    if (part.trim() !== '') parts.push(part);
    part = '';
  };
  for (const piece of sections) {
    if (piece.trim() === '') continue;
    if (utf8Bytes(piece) > maxBytes) {
      flush();
      parts.push(...splitForTraining(piece, maxBytes));
      continue;
    }
    if (part !== '' && utf8Bytes(part) + 1 + utf8Bytes(piece) > maxBytes) flush();
    part = part === '' ? piece : `${part}\n${piece}`;
  }
  flush();
  return parts;
}
