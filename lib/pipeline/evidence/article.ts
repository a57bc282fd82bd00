import { groundedAnswer, type WikiLookup } from '../../wiki/index.js';
import type { Confidence, Source } from '../types.js';

/** The evidence an encyclopedia lookup gives (Variant B's www mode), as the pipeline's stages read it. */
export interface ArticleEvidence {
  kind: 'grounded' | 'unknown';
  /** The extract's sentences most relevant to the question, with the article's source line. */
  text: string;
  sources: Source[];
  /** The extract is the one passage an external model is grounded in. */
  context: Source[];
  confidence: Confidence;
  /** The lookup itself: the assist stage grounds an external model in its extract. */
  article: WikiLookup;
  thought: string;
}

/**
 * Evidence from an article instead of the trained text: a found article's extract is what the
 * reply stands on (level `answer`: the article was chosen by the encyclopedia's own search for
 * the question's words); no article, or no way to reach one, is an honest "I don't know".
 */
export function replyFromArticle(article: WikiLookup, question: string): ArticleEvidence {
  const found = article.kind === 'found';
  const sources: Source[] = found
    ? [{ text: article.extract, score: 1, ref: { title: article.title, url: article.url } }]
    : [];
  return {
    kind: found ? 'grounded' : 'unknown',
    text: groundedAnswer(article, question),
    sources,
    context: sources,
    confidence: found ? { score: 1, level: 'answer' } : { score: 0, level: 'none' },
    article,
    thought: found ? `article: ${article.title}` : `article: none (${article.kind})`,
  };
}
