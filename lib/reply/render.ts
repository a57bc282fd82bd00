import { detokenize, endsSentence, type LanguageModel } from '../lm/index.js';

/** The reply as text: each word in its usual casing, sentence starts capitalised, natural spacing. */
export function renderReply(model: LanguageModel, ids: readonly number[]): string {
  const words: string[] = [];
  let sentenceStart = true;
  for (const id of ids) {
    const word = model.surfaceForm(id);
    words.push(sentenceStart ? capitalize(word) : word);
    sentenceStart = endsSentence(model.vocabulary.word(id));
  }
  return detokenize(words);
}

function capitalize(word: string): string {
  return word.charAt(0).toUpperCase() + word.slice(1);
}
