/**
 * Words that carry no subject: question words, auxiliaries, pronouns, articles, prepositions and
 * the polite framing of a chat request ("can you tell me about"). Lower case, straight apostrophes.
 */
export const stopWords: ReadonlySet<string> = new Set(
  `a about above after again all also am an and any are aren't as at be because been before being
  between both but by can can't could couldn't describe define definition did didn't do does doesn't
  doing done during each explain few for from further give had has have having he he's her here hers
  herself him himself his how how's i i'd i'm i've if in info information into is isn't it it's its
  itself just know let let's like me mean meaning means more most my myself no nor not of off on once
  only or other our ours out over own please quick quickly same say she she's should show so some
  something such summarize summarise tell than thank thanks that that's the their theirs them then
  there there's these they this those through to too under until up us very want was wasn't we were
  weren't what what's when when's where where's which while who who's whom whose why why's will with
  would wouldn't you you're your yours yourself`.split(/\s+/),
);

/** Lower case with curly apostrophes straightened, so `What’s` matches `what's`. */
export function normalizeWord(word: string): string {
  return word.toLowerCase().replace(/[\u2018\u2019]/g, "'");
}
