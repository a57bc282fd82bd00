import { describe, expect, it } from 'vitest';
import { assistPrompt } from '../../lib/provider/index.js';

describe('assistPrompt', () => {
  const base = {
    message: 'How do plants make food?',
    history: [
      { role: 'user' as const, content: 'hi' },
      { role: 'assistant' as const, content: 'hello! how can i help' },
    ],
    draft: 'plants make food from the sun light and water',
    keywords: ['plants', 'food'],
  };

  it('sends the history as chat turns followed by the latest message', () => {
    const { messages } = assistPrompt(base);
    expect(messages).toEqual([
      { role: 'user', content: 'hi' },
      { role: 'assistant', content: 'hello! how can i help' },
      { role: 'user', content: 'How do plants make food?' },
    ]);
  });

  it('puts the draft and the keywords in the system prompt and allows ignoring the draft', () => {
    const { system } = assistPrompt(base);
    expect(system).toContain('<draft>plants make food from the sun light and water</draft>');
    expect(system).toContain('<keywords>plants, food</keywords>');
    expect(system).toMatch(/ignore it/);
    expect(system).toMatch(/concise/);
    expect(system).not.toContain('<analysis>');
  });

  it('includes the local analysis when there is one', () => {
    const { system } = assistPrompt({ ...base, analysis: 'A mostly green photo, 640x480.' });
    expect(system).toContain('<analysis>A mostly green photo, 640x480.</analysis>');
  });

  it('says so when the local model had no draft or keywords', () => {
    const { system } = assistPrompt({ ...base, draft: '  ', keywords: [] });
    expect(system).toContain('<draft>(the local model had no draft)</draft>');
    expect(system).toContain('<keywords>(none)</keywords>');
  });

  it('attaches an image to the latest message', () => {
    const data = new Uint8Array([1, 2, 3]);
    const { messages } = assistPrompt({ ...base, image: { data, mediaType: 'image/jpeg' } });
    expect(messages.at(-1)).toEqual({
      role: 'user',
      content: [
        { type: 'text', text: 'How do plants make food?' },
        { type: 'image', data, mediaType: 'image/jpeg' },
      ],
    });
  });

  it('keeps only the most recent turns of a long history', () => {
    const history = Array.from({ length: 30 }, (_, i) => ({
      role: i % 2 === 0 ? ('user' as const) : ('assistant' as const),
      content: `turn ${i}`,
    }));
    const { messages } = assistPrompt({ ...base, history, maxHistory: 4 });
    expect(messages.map((message) => message.content)).toEqual([
      'turn 26',
      'turn 27',
      'turn 28',
      'turn 29',
      'How do plants make food?',
    ]);
  });
});
