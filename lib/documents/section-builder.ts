import type { Block, Section } from './types.js';

/**
 * Builds sections from a reader's stream of headings and blocks. Headings form a stack by level:
 * a heading closes every open heading of its level or deeper. A heading with no body of its own
 * opens no section; its text stays in the path of the section that follows (H1 "tar" with no
 * body, then H2 "Options" with a body: one section, path ["tar", "Options"]).
 */
export class SectionBuilder {
  private readonly open: { level: number; text: string }[] = [];
  private readonly sections: Section[] = [];
  private current: Section | undefined;
  private page: number | undefined;

  /** Opens a heading of `level` (smaller is outer; any numbers, only their order counts). */
  heading(level: number, text: string): void {
    const clean = text.replace(/\s+/g, ' ').trim();
    if (clean === '') return;
    while (this.open.length > 0 && this.open[this.open.length - 1].level >= level) this.open.pop();
    this.open.push({ level, text: clean });
    this.current = undefined;
  }

  /** The level of the innermost open heading, or undefined before the first one. */
  get innermostLevel(): number | undefined {
    return this.open[this.open.length - 1]?.level;
  }

  /** Whether any block was added yet. */
  get hasBlocks(): boolean {
    return this.sections.length > 0;
  }

  /** The texts of the open headings, outermost first. */
  get path(): string[] {
    return this.open.map((heading) => heading.text);
  }

  /** The page blocks added from now on are on (PDF). */
  setPage(page: number | undefined): void {
    this.page = page;
  }

  /** Adds a body block to the section of the open headings (opening it on its first block). */
  block(block: Block): void {
    if (block.kind !== 'code' && block.text.trim() === '') return;
    if (block.kind === 'code' && block.text.trim() === '') return;
    const withPage =
      this.page !== undefined && block.page === undefined ? { ...block, page: this.page } : block;
    if (!this.current) {
      this.current = { path: this.path, blocks: [] };
      if (withPage.page !== undefined) this.current.page = withPage.page;
      this.sections.push(this.current);
    }
    this.current.blocks.push(withPage);
  }

  /** The sections built, in document order. */
  finish(): Section[] {
    this.current = undefined;
    return this.sections;
  }
}
