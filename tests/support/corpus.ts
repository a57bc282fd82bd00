/** A few lines to train a model on in endpoint tests. */
export const SMALL_CORPUS = [
  'The light shines in the darkness, and the darkness has not overcome it.',
  'Wisdom is better than rubies, and all the things that may be desired are not to be compared to it.',
  'The sea is wide and the ships go upon it in the morning light.',
  'A good name is better than precious ointment.',
  'The river flows to the sea and the sea is never full.',
].join('\n');
