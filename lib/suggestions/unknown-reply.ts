/** The don't-know reply unless UNKNOWN_REPLY says otherwise: to the visitor, no word on training. */
export const DEFAULT_UNKNOWN_REPLY =
  "Sorry, I can't answer that: the documents I have don't cover it. {suggestions}";

/** How many suggestions a don't-know reply offers. */
export const UNKNOWN_REPLY_SUGGESTIONS = 3;

/**
 * The reply to a question the documents do not answer: the template (UNKNOWN_REPLY) with
 * `{suggestions}` replaced by two or three questions they do answer ("You could ask: "…" or
 * "…""), or by nothing when there are none.
 */
export function unknownReplyText(suggestions: readonly string[], template = DEFAULT_UNKNOWN_REPLY): string {
  const offered = suggestions.slice(0, UNKNOWN_REPLY_SUGGESTIONS);
  return template
    .replaceAll('{suggestions}', () => suggestionSentence(offered))
    .replace(/[ \t]+$/gm, '')
    .trim();
}

/** `You could ask: "A", "B" or "C"`; empty without suggestions. */
export function suggestionSentence(questions: readonly string[]): string {
  if (questions.length === 0) return '';
  const quoted = questions.map((question) => `"${question}"`);
  const list =
    quoted.length === 1 ? quoted[0] : `${quoted.slice(0, -1).join(', ')} or ${quoted[quoted.length - 1]}`;
  return `You could ask: ${list}`;
}
