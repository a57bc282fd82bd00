import { useChat } from '@ai-sdk/react';
import { DefaultChatTransport } from 'ai';
import { useState } from 'react';

/** Where the service runs: `npm start` in the project root, unless VITE_CHAT_API says otherwise. */
const api = import.meta.env.VITE_CHAT_API ?? 'http://localhost:3000/api/ui/chat';
const transport = new DefaultChatTransport({ api, body: { modelMode: 'expert' } });

export function Chat() {
  const { messages, sendMessage, regenerate, status, error, stop } = useChat({ transport });
  const [input, setInput] = useState('');
  const busy = status === 'submitted' || status === 'streaming';

  const submit = (event) => {
    event.preventDefault();
    if (!input.trim() || busy) return;
    sendMessage({ text: input });
    setInput('');
  };

  return (
    <main>
      <h1>useChat + ngram-chat-backend</h1>
      <p className="hint">
        Talking to <code>{api}</code> through the AI SDK&apos;s <code>useChat</code>.
      </p>
      <section aria-label="Conversation" role="log" aria-busy={busy}>
        {messages.map((message) => (
          <article
            key={message.id}
            className={message.role}
            aria-label={message.role === 'user' ? 'You' : 'Assistant'}
          >
            <p>{textOf(message)}</p>
            <Sources parts={message.parts} />
          </article>
        ))}
      </section>
      {error && (
        <p role="alert" className="error">
          {error.message}
        </p>
      )}
      <form onSubmit={submit}>
        <label htmlFor="message">Message</label>
        <input
          id="message"
          value={input}
          onChange={(event) => setInput(event.target.value)}
          autoComplete="off"
        />
        <button type="submit" disabled={busy}>
          Send
        </button>
        {busy ? (
          <button type="button" onClick={stop}>
            Stop
          </button>
        ) : (
          <button type="button" onClick={() => regenerate()} disabled={messages.length === 0}>
            Regenerate
          </button>
        )}
      </form>
    </main>
  );
}

/** The reply's sources: one `source-document` part each, the passage under providerMetadata.ngram. */
function Sources({ parts }) {
  const sources = parts.filter((part) => part.type === 'source-document');
  if (sources.length === 0) return null;
  return (
    <ol className="sources" aria-label="Sources">
      {sources.map((source) => (
        <li key={source.sourceId}>
          <details>
            <summary>{source.title}</summary>
            <blockquote>{source.providerMetadata?.ngram?.text}</blockquote>
          </details>
        </li>
      ))}
    </ol>
  );
}

/** A message's text: its text parts, in order. */
function textOf(message) {
  return message.parts
    .filter((part) => part.type === 'text')
    .map((part) => part.text)
    .join('');
}
