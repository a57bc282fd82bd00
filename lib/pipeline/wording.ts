/**
 * How documentation words the kinds of thing a question can want, shared by ranking (which unit
 * is of the kind asked) and extraction (which sentence of it states it).
 */

/** A sentence that gives a reason: a word of cause. */
export const REASON = /\b(?:because|since|so that|in order to|due to|therefore|the reason)\b/i;

/** A sentence about a default. */
export const DEFAULT = /\bdefault(?:s|ed)?\b/i;

/** A value as documentation writes one: a number, on/off, true/false, a quoted or code value. */
export const VALUE =
  /\d|\b(?:on|off|true|false|yes|no|none|null|enabled|disabled)\b|["“'‘`][^"”'’`]+["”'’`]/i;
/** How far after "default" the verb that gives its value may stand ("The default suggested cache size is -2000"). */
const DEFAULT_REACH = 8;
/** A word that links a default to its value: "is", "to", "of", "Default:", "=". */
const LINKS = /^(?:is|are|was|be|to|of|=)$|[:=]$/i;
/** Where a clause ends: the value of a later clause is not this default's. */
const CLAUSE_END = /[.;!?]$/;

/**
 * Whether a text states a default value: "Default: `1048576`", "defaults to 5", "The default
 * suggested cache size is -2000", "(default 80)", "is off by default"; not "default" as a word for
 * a thing with a value elsewhere ("The default body reader sends `FST_ERR_…`").
 */
export function statesDefaultValue(text: string): boolean {
  if (!DEFAULT.test(text)) return false;
  const words = text.split(/\s+/);
  const value = (at: number) => at >= 0 && at < words.length && VALUE.test(words[at]);
  for (let i = 0; i < words.length; i++) {
    if (!DEFAULT.test(words[i])) continue;
    if (value(i + 1)) return true;
    if (/^by$/i.test(words[i - 1] ?? '') && (value(i - 2) || value(i - 3))) return true;
    for (let j = i; j < words.length && j <= i + DEFAULT_REACH; j++) {
      if (
        LINKS.test(words[j]) &&
        (value(j + 1) || (/^(?:set|be)$/i.test(words[j + 1] ?? '') && value(j + 2)))
      )
        return true;
      if (j > i && CLAUSE_END.test(words[j])) break;
    }
  }
  return false;
}

/**
 * How a reply at level `nearest` opens: the service's own words, not the documents'. Short, for
 * every word of it comes out of `maxTokens` and pushes the passage's answering words further from
 * the start (twelfth round: 7 words -> 5).
 */
export const NEAREST_PREFACE = 'Closest match (may not answer): ';
/** The same opening as earlier releases wrote it: a conversation stored by one still has it. */
export const EARLIER_NEAREST_PREFACES = ['Closest I found (it may not answer this): '];

/** The closest-passage opening a reply starts with, in this release's words or an earlier one's; undefined for none. */
export function nearestPrefaceOf(reply: string): string | undefined {
  return [NEAREST_PREFACE, ...EARLIER_NEAREST_PREFACES].find((preface) => reply.startsWith(preface));
}
