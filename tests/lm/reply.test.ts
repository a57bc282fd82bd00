import { describe, expect, it } from 'vitest';
import { createModel, loadArpa } from '../../lib/lm/index.js';
import { createGrower, growCandidate } from '../../lib/reply/grow.js';
import {
  copiedRunLimit,
  EMPTY_MODEL_REPLY,
  formatThought,
  generateReply,
  mulberry32,
  replyBudgets,
  scoreCandidate,
  selectKeywords,
} from '../../lib/reply/index.js';
import { corpusLines } from './corpus.js';

const model = createModel({ order: 4 });
model.addText(corpusLines('kjv.raw.txt').slice(0, 3000).join('\n'));
const budget = { candidates: 60, timeMs: 10_000 };

describe('reply generation', () => {
  it('finds keywords: stop-words dropped, pronouns swapped, unknown words reported', () => {
    const { keywords, unknownWords } = selectKeywords(
      model,
      'Tell me about Moses and the pharaoh of Egypt, xyzzy',
      ['Who was Aaron?'],
    );
    const words = keywords.map((keyword) => keyword.word);
    expect(words).toEqual(expect.arrayContaining(['moses', 'pharaoh', 'egypt', 'aaron', 'you']));
    expect(words).not.toContain('the');
    expect(words).not.toContain('me');
    expect(keywords.find((keyword) => keyword.word === 'you')?.seed).toBe(false);
    expect(unknownWords).toEqual(['xyzzy']);
  });

  it('grows a reply around a keyword and says how it got there', () => {
    const reply = generateReply(model, { message: 'Pharaoh?', budget, random: mulberry32(3) });
    expect(reply.keywords).toContain('pharaoh');
    expect(reply.seed).toBe('pharaoh');
    expect(reply.text.toLowerCase()).toContain('pharaoh');
    expect(reply.text).toMatch(/^[A-Z]/);
    expect(reply.candidates).toBe(60);
    expect(reply.accepted).toBeGreaterThan(0);
    expect(reply.score).toBeGreaterThan(0);
    expect(reply.fallback).toBeNull();
    expect(formatThought(reply)).toMatch(/keywords: pharaoh.*60 candidates/);
  });

  it('is reproducible with a seeded random source', () => {
    const ask = () =>
      generateReply(model, { message: 'What of the flood?', budget, random: mulberry32(9) }).text;
    expect(ask()).toBe(ask());
  });

  it('never copies a long run of the training text when it has a choice', () => {
    for (let seed = 1; seed <= 5; seed++) {
      const reply = generateReply(model, { message: 'Abraham and Sarah', budget, random: mulberry32(seed) });
      if (reply.fallback === null) {
        const length = model.tokens(reply.text).length;
        expect(reply.copiedRun).toBeLessThanOrEqual(copiedRunLimit(length));
      }
    }
  });

  it('does not repeat the message back', () => {
    const tiny = createModel({ order: 3 });
    tiny.addText('hello there\nhello there');
    const reply = generateReply(tiny, {
      message: 'hello there',
      budget: { candidates: 20, timeMs: 1000 },
      random: mulberry32(1),
    });
    expect(reply.text.toLowerCase()).not.toBe('hello there');
  });

  it('scores a candidate from the forward walk made while growing it exactly as by walking again', () => {
    const grower = createGrower(model.forward, model.backward, {
      temperature: 0.7,
      maxTokens: 40,
      random: mulberry32(11),
    });
    const keywords = new Set(['moses', 'egypt', 'lord'].map((word) => model.vocabulary.id(word)));
    let reused = 0;
    for (let i = 0; i < 60; i++) {
      const seed = [...keywords][i % 3];
      const candidate = growCandidate(grower, seed);
      if (!candidate.forwardPass) continue;
      reused++;
      expect(scoreCandidate(model, candidate.ids, keywords, candidate.forwardPass)).toEqual(
        scoreCandidate(model, candidate.ids, keywords),
      );
    }
    expect(reused).toBeGreaterThan(30);
  });

  it('grows from the sentence start when the message has no known keyword', () => {
    const reply = generateReply(model, { message: 'the of and', budget, random: mulberry32(4) });
    expect(reply.fallback).toBe('no-keywords');
    expect(reply.seed).toBeNull();
    expect(reply.text.length).toBeGreaterThan(0);
  });

  it('asks to be trained when the model is empty, without throwing', () => {
    const reply = generateReply(createModel(), { message: 'hello' });
    expect(reply.text).toBe(EMPTY_MODEL_REPLY);
    expect(reply.fallback).toBe('empty-model');
    expect(reply.unknownWords).toEqual(['hello']);
  });

  it('follows the temperature: at 0 every candidate from the same seed is the same reply', () => {
    const reply = generateReply(model, {
      message: 'Noah',
      temperature: 0,
      budget: { candidates: 3, timeMs: 1000 },
      random: mulberry32(2),
    });
    expect(reply.text.toLowerCase()).toContain('noah');
  });

  it('stays within maxTokens and the instant budget', () => {
    const reply = generateReply(model, { message: 'Jacob', maxTokens: 8, budget: replyBudgets.instant });
    expect(model.tokens(reply.text).length).toBeLessThanOrEqual(8);
    expect(reply.candidates).toBeLessThanOrEqual(replyBudgets.instant.candidates);
  });

  it('replies from a forward-only (ARPA) model with the keyword at the sentence start', () => {
    const arpa = loadArpa(model.toArpa());
    const reply = generateReply(arpa, {
      message: 'Tell me of Jacob',
      budget: { candidates: 30, timeMs: 5000 },
      random: mulberry32(5),
    });
    expect(reply.keywords).toContain('jacob');
    expect(reply.text.length).toBeGreaterThan(0);
  });
});
