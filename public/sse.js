/** Server-sent events read from a fetch body: the parsing half of the chat stream. */

/**
 * Yields `{ event, data }` for each event of `body` (a ReadableStream of UTF-8 bytes) in order.
 * `event` is 'message' when the server named none; several `data:` lines join with newlines;
 * comment lines (`:`) and fields other than event/data are skipped; an event the stream ends
 * in the middle of is dropped, as the EventSource standard says.
 * @param {ReadableStream<Uint8Array>} body
 * @returns {AsyncGenerator<{ event: string, data: string }>}
 */
export async function* readEvents(body) {
  const reader = body.pipeThrough(new TextDecoderStream()).getReader();
  let buffer = '';
  let event = '';
  let data = [];
  try {
    while (true) {
      const { value, done } = await reader.read();
      if (done) break;
      buffer += value;
      let end = buffer.search(/\r\n|\r|\n/);
      while (end !== -1) {
        const line = buffer.slice(0, end);
        const breakLength = buffer.startsWith('\r\n', end) ? 2 : 1;
        // A lone \r at the very end may be the first half of \r\n: wait for the next piece.
        if (breakLength === 1 && buffer[end] === '\r' && end === buffer.length - 1) break;
        buffer = buffer.slice(end + breakLength);
        if (line === '') {
          if (data.length > 0) yield { event: event || 'message', data: data.join('\n') };
          event = '';
          data = [];
        } else if (!line.startsWith(':')) {
          const colon = line.indexOf(':');
          const field = colon === -1 ? line : line.slice(0, colon);
          const value = colon === -1 ? '' : line.slice(colon + 1).replace(/^ /, '');
          if (field === 'event') event = value;
          else if (field === 'data') data.push(value);
        }
        end = buffer.search(/\r\n|\r|\n/);
      }
    }
  } finally {
    reader.releaseLock();
  }
}
