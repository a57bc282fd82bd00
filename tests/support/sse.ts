/** One server-sent event: its name (`message` when unnamed) and its data lines joined. */
export interface ServerEvent {
  event: string;
  data: string;
}

/** Reads a text/event-stream body to its end and returns its events in order. */
export async function readEvents(response: Response): Promise<ServerEvent[]> {
  const text = await response.text();
  const events: ServerEvent[] = [];
  for (const block of text.split(/\r?\n\r?\n/)) {
    if (block.trim() === '') continue;
    let event = 'message';
    const data: string[] = [];
    for (const line of block.split(/\r?\n/)) {
      if (line.startsWith(':')) continue;
      const colon = line.indexOf(':');
      const field = colon === -1 ? line : line.slice(0, colon);
      const value = colon === -1 ? '' : line.slice(colon + 1).replace(/^ /, '');
      if (field === 'event') event = value;
      else if (field === 'data') data.push(value);
    }
    if (data.length > 0) events.push({ event, data: data.join('\n') });
  }
  return events;
}

/** The delta texts, the done body and the error body of one of our chat streams. */
export async function readReplyStream(response: Response): Promise<{
  deltas: string[];
  done: Record<string, unknown>[];
  errors: Record<string, unknown>[];
  names: string[];
}> {
  const events = await readEvents(response);
  const parsed = (name: string) =>
    events.filter((event) => event.event === name).map((event) => JSON.parse(event.data));
  return {
    deltas: parsed('delta').map((delta: { text: string }) => delta.text),
    done: parsed('done'),
    errors: parsed('error'),
    names: events.map((event) => event.event),
  };
}
