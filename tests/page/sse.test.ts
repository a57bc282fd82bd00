import { describe, expect, it } from 'vitest';
import { readEvents } from '../../public/sse.js';

/** A body that delivers `pieces` as separate chunks, as a network would. */
function streamOf(pieces: string[]): ReadableStream<Uint8Array> {
  const encoder = new TextEncoder();
  return new ReadableStream({
    start(controller) {
      for (const piece of pieces) controller.enqueue(encoder.encode(piece));
      controller.close();
    },
  });
}

async function collect(pieces: string[]) {
  const events: Array<{ event: string; data: string }> = [];
  for await (const event of readEvents(streamOf(pieces))) events.push(event);
  return events;
}

describe('readEvents (the page reading a chat stream)', () => {
  it('yields delta events then the done event, in order', async () => {
    const events = await collect([
      'event: delta\ndata: {"text":"Hel"}\n\n',
      'event: delta\ndata: {"text":"lo"}\n\nevent: done\ndata: {"response":"Hello"}\n\n',
    ]);
    expect(events).toEqual([
      { event: 'delta', data: '{"text":"Hel"}' },
      { event: 'delta', data: '{"text":"lo"}' },
      { event: 'done', data: '{"response":"Hello"}' },
    ]);
  });

  it('joins an event split anywhere across chunks, a multi-byte character included', async () => {
    const whole = 'event: delta\r\ndata: {"text":"naïve — ok"}\r\n\r\n';
    const bytes = new TextEncoder().encode(whole);
    const chunks: ReadableStream<Uint8Array> = new ReadableStream({
      start(controller) {
        for (const byte of bytes) controller.enqueue(new Uint8Array([byte]));
        controller.close();
      },
    });
    const events: Array<{ event: string; data: string }> = [];
    for await (const event of readEvents(chunks)) events.push(event);
    expect(events).toEqual([{ event: 'delta', data: '{"text":"naïve — ok"}' }]);
  });

  it('joins several data lines with newlines, names an unnamed event "message" and skips comments', async () => {
    const events = await collect([': keep-alive\n\ndata: one\ndata: two\nid: 7\n\n']);
    expect(events).toEqual([{ event: 'message', data: 'one\ntwo' }]);
  });

  it('drops an event the stream ends in the middle of', async () => {
    const events = await collect(['event: delta\ndata: {"text":"a"}\n\nevent: done\ndata: {"respo']);
    expect(events).toEqual([{ event: 'delta', data: '{"text":"a"}' }]);
  });
});
