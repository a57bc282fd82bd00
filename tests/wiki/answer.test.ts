import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createWikipediaClient,
  groundedAnswer,
  groundingPrompt,
  searchQueryFrom,
  sourceOf,
  type WikiFound,
  type WikiLookup,
} from '../../lib/wiki/index.js';
import { startWikipediaStandin, type WikipediaStandin } from '../support/wikipedia-standin.js';

const photosynthesis: WikiFound = {
  kind: 'found',
  title: 'Photosynthesis',
  url: 'https://en.wikipedia.org/wiki/Photosynthesis',
  description: 'Biological process to convert light into chemical energy',
  extract:
    'Photosynthesis is a system of biological processes by which organisms convert light energy into ' +
    'chemical energy. It usually produces oxygen. Most plants, algae, and cyanobacteria perform it.',
};

describe('groundedAnswer', () => {
  it('answers with the relevant sentences of the extract and names the source title and URL', () => {
    const answer = groundedAnswer(photosynthesis, 'Does photosynthesis produce oxygen?');
    expect(answer).toBe(
      'Photosynthesis is a system of biological processes by which organisms convert light energy into ' +
        'chemical energy. It usually produces oxygen.\n\n' +
        'Source: Photosynthesis — https://en.wikipedia.org/wiki/Photosynthesis',
    );
  });

  it('says so, with the source, when the article has no extract', () => {
    const answer = groundedAnswer({ ...photosynthesis, extract: '' }, 'What is photosynthesis?');
    expect(answer).toContain('no summary I can quote');
    expect(answer).toContain('Source: Photosynthesis — https://en.wikipedia.org/wiki/Photosynthesis');
  });

  it('asks for a more specific question on a disambiguation page, with its link', () => {
    const answer = groundedAnswer(
      { kind: 'disambiguation', title: 'Mercury', url: 'https://en.wikipedia.org/wiki/Mercury' },
      'Tell me about Mercury',
    );
    expect(answer).toContain('“Mercury” may refer to several things on Wikipedia; please be more specific');
    expect(answer).toContain('https://en.wikipedia.org/wiki/Mercury');
  });

  it('says honestly that nothing was found', () => {
    expect(groundedAnswer({ kind: 'no_results', query: 'zzxqv' }, 'what is zzxqv?')).toMatch(
      /^I found nothing on Wikipedia for “zzxqv”/,
    );
  });

  it('says honestly that Wikipedia could not be reached, and does not guess', () => {
    const answer = groundedAnswer(
      { kind: 'unavailable', reason: 'timed out after 4000 ms' },
      'Who was Turing?',
    );
    expect(answer).toMatch(/^I couldn't reach Wikipedia \(timed out after 4000 ms\), so I won't guess/);
  });
});

describe('groundingPrompt', () => {
  it('gives an external model the extract as its only context, and asks it to cite title and URL', () => {
    const grounding = groundingPrompt(photosynthesis, 'Does photosynthesis produce oxygen?');
    expect(grounding?.prompt).toBe('Does photosynthesis produce oxygen?');
    expect(grounding?.system).toContain('using only the Wikipedia extract below');
    expect(grounding?.system).toContain('If the extract does not contain the answer');
    expect(grounding?.system).toContain(photosynthesis.extract);
    expect(grounding?.system).toContain(
      'Source: Photosynthesis — https://en.wikipedia.org/wiki/Photosynthesis',
    );
  });

  it('is null when there is nothing to ground in', () => {
    const nothing: WikiLookup[] = [
      { ...photosynthesis, extract: '' },
      { kind: 'disambiguation', title: 'Mercury', url: 'https://en.wikipedia.org/wiki/Mercury' },
      { kind: 'no_results', query: 'zzxqv' },
      { kind: 'unavailable', reason: 'HTTP 503 from the search' },
    ];
    for (const lookup of nothing) expect(groundingPrompt(lookup, 'question')).toBeNull();
  });
});

describe('sourceOf', () => {
  it('names the article of a found or disambiguation lookup, and nothing otherwise', () => {
    expect(sourceOf(photosynthesis)).toEqual({ title: 'Photosynthesis', url: photosynthesis.url });
    expect(sourceOf({ kind: 'no_results', query: 'x' })).toBeNull();
  });
});

describe('grounded answers from the stand-in', () => {
  let standin: WikipediaStandin;
  beforeAll(async () => {
    standin = await startWikipediaStandin();
  });
  afterAll(async () => {
    await standin.close();
  });

  const ask = async (question: string) => {
    const wiki = createWikipediaClient({
      baseUrl: standin.baseUrl,
      timeoutMs: 300,
      userAgent: 'tests/1.0',
      cacheSeconds: 0,
    });
    return groundedAnswer(await wiki.lookup(searchQueryFrom(question)), question);
  };

  it('grounds an answer about Alan Turing in his article and cites it', async () => {
    const answer = await ask('When was Alan Turing born?');
    expect(answer).toMatch(/^Alan Mathison Turing \(23 June 1912 – 7 June 1954\)/);
    expect(answer.endsWith('Source: Alan Turing — https://en.wikipedia.org/wiki/Alan_Turing')).toBe(true);
  });

  it('gives an honest answer, not an invented one, for each kind of trouble', async () => {
    expect(await ask('What is Mercury?')).toMatch(/may refer to several things/);
    expect(await ask('What is a florbnitz?')).toMatch(/^I found nothing on Wikipedia for “florbnitz”/);
    expect(await ask('explode')).toMatch(/^I couldn't reach Wikipedia \(HTTP 503 from the search\)/);
    expect(await ask('sluggish')).toMatch(/^I couldn't reach Wikipedia \(timed out after 300 ms\)/);
  });
});
