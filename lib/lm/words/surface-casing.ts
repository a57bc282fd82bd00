import { endsSentence } from './tokenizer.js';
import { ownCopy } from './vocabulary.js';

/** Per word, how often each surface form was seen: counts for non-default forms live in a small map. */
interface FormCounts {
  /** Count of the form equal to the folded word. */
  plain: number;
  others?: Map<string, number>;
}

/**
 * Remembers how the corpus writes each (case-folded) word so replies can restore it: the most
 * frequent surface form seen inside sentences wins; forms seen at a sentence start, where a capital
 * says little about the word, are used only when nothing else is known.
 */
export class SurfaceCasing {
  private readonly inner: FormCounts[] = [];
  private readonly initial: FormCounts[] = [];

  /** Records the surface forms of one line whose folded word ids are `ids`. */
  observe(surface: readonly string[], folded: readonly string[], ids: ArrayLike<number>): void {
    let sentenceStart = true;
    for (let i = 0; i < surface.length; i++) {
      this.add(sentenceStart ? this.initial : this.inner, ids[i], surface[i], folded[i], 1);
      sentenceStart = endsSentence(folded[i]);
    }
  }

  /**
   * The usual surface form of word `id` whose folded form is `folded`. A word seen only at
   * sentence starts keeps a capital only when it is more than the first letter (LORD, McKay).
   */
  restore(id: number, folded: string): string {
    const inner = best(this.inner[id], folded);
    if (inner !== undefined) return inner;
    const initial = best(this.initial[id], folded);
    if (initial === undefined || initial === folded.charAt(0).toUpperCase() + folded.slice(1)) return folded;
    return initial;
  }

  /** All recorded counts as [wordId, sentenceStart, form, count] rows (for snapshots). */
  *rows(): Generator<[number, boolean, string | null, number]> {
    for (const [table, start] of [
      [this.inner, false],
      [this.initial, true],
    ] as const) {
      for (let id = 0; id < table.length; id++) {
        const counts = table[id];
        if (!counts) continue;
        if (counts.plain > 0) yield [id, start, null, counts.plain];
        for (const [form, count] of counts.others ?? []) yield [id, start, form, count];
      }
    }
  }

  /** Adds `count` sightings of `form` (null: the folded form itself) for word `id`. */
  restoreRow(id: number, sentenceStart: boolean, form: string | null, count: number, folded: string): void {
    this.add(sentenceStart ? this.initial : this.inner, id, form ?? folded, folded, count);
  }

  private add(table: FormCounts[], id: number, form: string, folded: string, count: number): void {
    let counts = table[id];
    if (!counts) {
      counts = { plain: 0 };
      table[id] = counts;
    }
    if (form === folded) {
      counts.plain += count;
      return;
    }
    counts.others ??= new Map();
    const seen = counts.others.get(form);
    counts.others.set(seen === undefined ? ownCopy(form) : form, (seen ?? 0) + count);
  }
}

function best(counts: FormCounts | undefined, folded: string): string | undefined {
  if (!counts) return undefined;
  let form: string | undefined = counts.plain > 0 ? folded : undefined;
  let top = counts.plain;
  for (const [other, count] of counts.others ?? []) {
    if (count > top) {
      top = count;
      form = other;
    }
  }
  return form;
}
