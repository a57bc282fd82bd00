/*
 * The chat widget: <script src="https://HOST/widget.js" defer></script> on any page.
 * Options (data- attributes of the tag): data-title, data-greeting, data-accent, data-position
 * (right | left), data-mode (instant | expert | apex), data-starters (up to four questions shown
 * before the first message, separated by "|"; without it, up to three from /api/suggestions).
 * It talks to HOST/api/ui/chat, the host its
 * own script came from, and lives in a Shadow DOM so the page's styles and its own never mix.
 */
(() => {
  const script = document.currentScript;
  if (!script?.src || customElements.get('ngram-chat-widget')) return;

  const data = script.dataset;
  const service = new URL(script.src).origin;
  const title = (data.title || 'Chat').trim().slice(0, 80);
  const greeting = (data.greeting || 'Hello! Ask me a question.').trim().slice(0, 500);
  const position = data.position === 'left' ? 'left' : 'right';
  const mode = ['instant', 'expert', 'apex'].includes(data.mode) ? data.mode : 'expert';
  const accent = data.accent && CSS.supports('color', data.accent) ? data.accent : '#1f5fbf';
  const storageKey = `ngram-chat:${service}`;
  const starters = (data.starters || '')
    .split('|')
    .map((question) => question.trim().slice(0, 200))
    .filter(Boolean)
    .slice(0, 4);
  const MAX_KEPT = 40;

  const css = `
:host { all: initial !important; display: block !important; position: fixed !important;
  z-index: 2147483000 !important; bottom: 0 !important; ${position}: 0 !important; }
* { box-sizing: border-box; font-family: system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; }
button, textarea { font: inherit; font-size: 15px; }
.launcher { position: fixed; bottom: 20px; ${position}: 20px; width: 56px; height: 56px; border: 0;
  border-radius: 50%; background: var(--accent); color: var(--on-accent); cursor: pointer;
  box-shadow: 0 4px 14px rgba(0,0,0,.25); display: grid; place-items: center; padding: 0; }
.launcher svg { width: 28px; height: 28px; fill: currentColor; }
.panel { position: fixed; bottom: 88px; ${position}: 20px; width: 380px; height: min(600px, calc(100vh - 108px));
  display: flex; flex-direction: column; background: #fff; color: #1a1a1a; border-radius: 14px;
  box-shadow: 0 8px 30px rgba(0,0,0,.25); overflow: hidden; font-size: 15px; line-height: 1.45; }
.panel[hidden] { display: none; }
header { display: flex; align-items: center; gap: 8px; padding: 10px 10px 10px 16px;
  background: var(--accent); color: var(--on-accent); }
h2 { flex: 1; margin: 0; font-size: 16px; font-weight: 600; overflow: hidden; text-overflow: ellipsis; white-space: nowrap; }
header button { background: transparent; color: inherit; border: 0; border-radius: 6px; cursor: pointer;
  min-width: 36px; min-height: 36px; padding: 4px 8px; font-size: 13px; }
header button.close { font-size: 22px; line-height: 1; }
.log { flex: 1; overflow-y: auto; padding: 14px; display: flex; flex-direction: column; gap: 10px; background: #f6f7f9; }
.msg { max-width: 88%; padding: 8px 12px; border-radius: 12px; overflow-wrap: anywhere; }
.msg.user { align-self: flex-end; background: var(--accent); color: var(--on-accent); white-space: pre-wrap; }
.msg.bot { align-self: flex-start; background: #fff; border: 1px solid #dde1e6; }
.msg.error { border-color: #b3261e; color: #8c1d18; }
.msg p, .msg ul, .msg ol, .msg pre, .msg h3 { margin: 0 0 8px; }
.msg > :last-child { margin-bottom: 0; }
.msg h3 { font-size: 15px; }
.msg ul, .msg ol { padding-left: 20px; }
.msg code { font-family: ui-monospace, Menlo, Consolas, monospace; font-size: 13px; background: #eef0f3; padding: 1px 4px; border-radius: 4px; }
.msg pre { background: #eef0f3; padding: 8px; border-radius: 6px; overflow-x: auto; }
.msg pre code { padding: 0; background: none; }
.msg a { color: #0b4fa8; }
.sources { margin-top: 8px; border-top: 1px solid #e3e6ea; padding-top: 6px; font-size: 13px; }
.sources h4 { margin: 0 0 4px; font-size: 12px; font-weight: 600; color: #555; text-transform: uppercase; letter-spacing: .04em; }
details { margin: 2px 0; }
summary { cursor: pointer; color: #0b4fa8; border-radius: 4px; }
blockquote { margin: 4px 0 6px; padding: 4px 8px; border-left: 3px solid var(--accent); background: #f6f7f9; color: #333; white-space: pre-wrap; }
.typing::after { content: "…"; }
.sources a { color: #0b4fa8; }
.starters { display: flex; flex-direction: column; align-items: flex-start; gap: 6px; }
.starters button, .rate button { border: 1px solid #c3c9d1; background: #fff; color: #1a1a1a; border-radius: 14px;
  padding: 5px 10px; cursor: pointer; font-size: 14px; text-align: left; }
.rate { display: flex; flex-wrap: wrap; align-items: center; gap: 6px; margin-top: 6px; font-size: 13px; color: #555; }
.rate button { min-width: 36px; min-height: 32px; padding: 2px 8px; }
.rate button[aria-pressed="true"] { background: var(--accent); color: var(--on-accent); border-color: var(--accent); }
.rate form { display: flex; flex-direction: column; gap: 6px; width: 100%; padding: 0; border: 0; background: none; }
.rate textarea { min-height: 60px; font-size: 14px; }
.rate form button { align-self: flex-start; min-height: 32px; padding: 0 12px; }
form { display: flex; gap: 8px; padding: 10px; border-top: 1px solid #e3e6ea; background: #fff; }
textarea { flex: 1; resize: none; min-height: 42px; max-height: 120px; padding: 10px; border: 1px solid #9aa3ad;
  border-radius: 10px; color: #1a1a1a; background: #fff; }
form button { border: 0; border-radius: 10px; padding: 0 16px; min-height: 42px; background: var(--accent); color: var(--on-accent); cursor: pointer; font-weight: 600; }
form button:disabled { opacity: .55; cursor: default; }
:focus-visible { outline: 3px solid #ffb000; outline-offset: 2px; }
.sr-only { position: absolute; width: 1px; height: 1px; margin: -1px; overflow: hidden; clip: rect(0 0 0 0); white-space: nowrap; border: 0; }
@media (max-width: 480px) {
  .panel { inset: 0; width: 100%; height: 100%; border-radius: 0; bottom: 0; }
  :host(.open) .launcher { display: none; }
}`;

  class ChatWidget extends HTMLElement {}
  customElements.define('ngram-chat-widget', ChatWidget);
  const host = document.createElement('ngram-chat-widget');
  const root = host.attachShadow({ mode: 'open' });

  /** Makes an element: el('p', { class: 'x' }, 'text', child ...); text is always a text node. */
  const el = (tag, attributes = {}, ...children) => {
    const node = document.createElement(tag);
    for (const [name, value] of Object.entries(attributes)) node.setAttribute(name, value);
    for (const child of children) node.append(child);
    return node;
  };

  if ('adoptedStyleSheets' in root && typeof CSSStyleSheet.prototype.replaceSync === 'function') {
    const sheet = new CSSStyleSheet();
    sheet.replaceSync(css);
    root.adoptedStyleSheets = [sheet];
  } else {
    root.append(el('style', {}, css));
  }

  const icon = document.createElementNS('http://www.w3.org/2000/svg', 'svg');
  icon.setAttribute('viewBox', '0 0 24 24');
  icon.setAttribute('aria-hidden', 'true');
  const bubble = document.createElementNS('http://www.w3.org/2000/svg', 'path');
  bubble.setAttribute(
    'd',
    'M4 3h16a2 2 0 0 1 2 2v11a2 2 0 0 1-2 2H9l-5 4v-4H4a2 2 0 0 1-2-2V5a2 2 0 0 1 2-2z',
  );
  icon.append(bubble);

  const launcher = el(
    'button',
    {
      class: 'launcher',
      type: 'button',
      'aria-label': 'Open chat',
      'aria-expanded': 'false',
      'aria-controls': 'panel',
    },
    icon,
  );
  const dialogName = title.includes('Chat') ? title : `${title} — Chat`;
  const closeButton = el('button', { class: 'close', type: 'button', 'aria-label': 'Close chat' }, '×');
  const resetButton = el('button', { type: 'button' }, 'New conversation');
  const log = el('div', {
    class: 'log',
    role: 'log',
    'aria-live': 'polite',
    'aria-label': 'Conversation',
    tabindex: '0',
  });
  const input = el('textarea', {
    id: 'message',
    rows: '1',
    placeholder: 'Ask a question…',
    maxlength: '4000',
  });
  const send = el('button', { type: 'submit' }, 'Send');
  const form = el('form', {}, el('label', { class: 'sr-only', for: 'message' }, 'Message'), input, send);
  const panel = el(
    'div',
    { class: 'panel', id: 'panel', role: 'dialog', 'aria-label': dialogName, hidden: '' },
    el('header', {}, el('h2', {}, title), resetButton, closeButton),
    log,
    form,
  );
  root.append(launcher, panel);

  host.style.setProperty('--accent', accent);

  // ---- the conversation, kept in the browser so a reload continues it ----
  const newId = () =>
    crypto.randomUUID
      ? crypto.randomUUID()
      : `${Date.now().toString(36)}${Math.random().toString(36).slice(2)}`;
  let state = { id: newId(), messages: [] };
  try {
    const saved = JSON.parse(localStorage.getItem(storageKey) || 'null');
    if (saved && typeof saved.id === 'string' && Array.isArray(saved.messages)) state = saved;
  } catch {
    // storage unavailable (private mode, blocked): the conversation lives as long as the page
  }
  const save = () => {
    state.messages = state.messages.slice(-MAX_KEPT);
    try {
      localStorage.setItem(storageKey, JSON.stringify(state));
    } catch {
      // as above
    }
  };

  // ---- a small Markdown renderer that only ever makes elements and text nodes ----
  const inline = (text) => {
    const out = [];
    const pattern =
      /(`[^`]+`)|(\*\*[^*]+\*\*)|(\*[^*\s][^*]*\*|_[^_\s][^_]*_)|(\[[^\]]+\]\((?:https?:\/\/|mailto:)[^)\s]+\))/g;
    let last = 0;
    for (const match of text.matchAll(pattern)) {
      if (match.index > last) out.push(text.slice(last, match.index));
      const token = match[0];
      if (match[1]) out.push(el('code', {}, token.slice(1, -1)));
      else if (match[2]) out.push(el('strong', {}, ...inline(token.slice(2, -2))));
      else if (match[3]) out.push(el('em', {}, ...inline(token.slice(1, -1))));
      else {
        const split = token.lastIndexOf('](');
        out.push(
          el(
            'a',
            { href: token.slice(split + 2, -1), target: '_blank', rel: 'noopener noreferrer' },
            token.slice(1, split),
          ),
        );
      }
      last = match.index + token.length;
    }
    if (last < text.length) out.push(text.slice(last));
    return out;
  };
  const markdown = (text) => {
    const nodes = [];
    const lines = text.replace(/\r\n?/g, '\n').split('\n');
    let paragraph = [];
    let list = null;
    const flush = () => {
      if (paragraph.length) nodes.push(el('p', {}, ...inline(paragraph.join(' '))));
      paragraph = [];
      list = null;
    };
    for (let i = 0; i < lines.length; i++) {
      const line = lines[i];
      if (/^\s*```/.test(line)) {
        flush();
        const code = [];
        while (++i < lines.length && !/^\s*```/.test(lines[i])) code.push(lines[i]);
        nodes.push(el('pre', {}, el('code', {}, code.join('\n'))));
        continue;
      }
      const heading = /^#{1,6}\s+(.*)$/.exec(line);
      const item = /^\s*(?:([-*+])|(\d+)[.)])\s+(.*)$/.exec(line);
      if (heading) {
        flush();
        nodes.push(el('h3', {}, ...inline(heading[1])));
      } else if (item) {
        if (paragraph.length) flush();
        const tag = item[1] ? 'ul' : 'ol';
        if (!list || list.tagName.toLowerCase() !== tag) {
          list = el(tag);
          nodes.push(list);
        }
        list.append(el('li', {}, ...inline(item[3])));
      } else if (line.trim() === '') {
        flush();
      } else {
        list = null;
        paragraph.push(line.trim());
      }
    }
    flush();
    return nodes;
  };

  // ---- rendering ----
  /** "title › section", linked (new tab) when the source has an http(s) url. */
  const citationOf = (source) => {
    const label = source.section ? `${source.title} › ${source.section}` : source.title;
    const url = typeof source.url === 'string' && /^https?:\/\//i.test(source.url) ? source.url : '';
    return url ? el('a', { href: url, target: '_blank', rel: 'noopener' }, label) : label;
  };
  const sourcesOf = (sources) => {
    const box = el('div', { class: 'sources' }, el('h4', {}, 'Sources'));
    sources.forEach((source, index) => {
      box.append(
        el(
          'details',
          {},
          el('summary', {}, `[${index + 1}] `, citationOf(source)),
          el('blockquote', {}, source.text || 'No passage text.'),
        ),
      );
    });
    return box;
  };
  /** The thumbs under a reply; thumbs down opens a comment box. Sends POST /api/feedback. */
  const ratingOf = (message) => {
    const row = el('div', { class: 'rate', role: 'group', 'aria-label': 'Rate this answer' });
    const status = el('span', { role: 'status' });
    const thumb = (rating, label, face) => {
      const button = el(
        'button',
        { type: 'button', 'aria-label': label, 'aria-pressed': String(message.rating === rating) },
        face,
      );
      button.addEventListener('click', () => {
        if (rating === 'up') rate(message, 'up', '', row, status);
        else if (!row.querySelector('form')) row.append(commentBox(message, row, status));
      });
      return button;
    };
    row.append(thumb('up', 'Helpful', '👍'), thumb('down', 'Not helpful', '👎'), status);
    if (message.rating) status.textContent = 'Thanks for your feedback.';
    return row;
  };
  const commentBox = (message, row, status) => {
    const comment = el('textarea', {
      maxlength: '1000',
      rows: '2',
      'aria-label': 'What was wrong? (optional)',
      placeholder: 'What was wrong? (optional)',
    });
    const submit = el('button', { type: 'submit' }, 'Send feedback');
    const box = el('form', {}, comment, submit);
    box.addEventListener('submit', (event) => {
      event.preventDefault();
      event.stopPropagation();
      rate(message, 'down', comment.value.trim(), row, status);
    });
    queueMicrotask(() => comment.focus());
    return box;
  };
  const rate = async (message, rating, comment, row, status) => {
    status.textContent = 'Sending…';
    try {
      const response = await fetch(`${service}/api/feedback`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify({ replyId: message.replyId, rating, ...(comment ? { comment } : {}) }),
      });
      if (!response.ok) {
        const body = await response.json().catch(() => ({}));
        throw new Error(body.error || `The chat service answered ${response.status}.`);
      }
      message.rating = rating;
      save();
      for (const button of row.querySelectorAll(':scope > button'))
        button.setAttribute(
          'aria-pressed',
          String(button.getAttribute('aria-label') === (rating === 'up' ? 'Helpful' : 'Not helpful')),
        );
      row.querySelector('form')?.remove();
      status.textContent = 'Thanks for your feedback.';
    } catch (error) {
      status.textContent =
        error instanceof TypeError ? 'The chat service cannot be reached right now.' : error.message;
    }
  };
  const render = (message, node = el('div')) => {
    node.className = `msg ${message.role === 'user' ? 'user' : 'bot'}${message.error ? ' error' : ''}`;
    node.replaceChildren();
    if (message.role === 'user') node.append(message.text);
    else {
      node.append(...markdown(message.text));
      if (message.sources?.length) node.append(sourcesOf(message.sources));
      if (message.replyId && !message.error) node.append(ratingOf(message));
    }
    return node;
  };
  /** The starter questions: data-starters, else up to three the documents answer (asked once). */
  let suggested = null;
  const starterQuestions = async () => {
    if (starters.length > 0) return starters;
    suggested ??= fetch(`${service}/api/suggestions`)
      .then((response) => (response.ok ? response.json() : { questions: [] }))
      .then((body) =>
        Array.isArray(body.questions) ? body.questions.filter((q) => typeof q === 'string').slice(0, 3) : [],
      )
      .catch(() => []);
    return suggested;
  };
  const showStarters = async () => {
    const questions = await starterQuestions();
    if (questions.length === 0 || state.messages.length > 0 || log.querySelector('.starters')) return;
    const list = el('div', { class: 'starters', role: 'group', 'aria-label': 'Questions to start with' });
    for (const question of questions) {
      const button = el('button', { type: 'button' }, question);
      button.addEventListener('click', () => {
        if (busy) return;
        list.remove();
        ask(question);
      });
      list.append(button);
    }
    log.append(list);
  };
  const show = () => {
    log.replaceChildren(render({ role: 'assistant', text: greeting }));
    for (const message of state.messages) log.append(render(message));
    if (state.messages.length === 0) showStarters();
    log.scrollTop = log.scrollHeight;
  };

  // ---- talking to the service: the AI SDK's UI message stream ----
  let busy = false;
  const ask = async (text) => {
    busy = true;
    send.disabled = true;
    log.querySelector('.starters')?.remove();
    log.setAttribute('aria-busy', 'true');
    const history = state.messages.filter((message) => !message.error);
    state.messages.push({ role: 'user', text });
    log.append(render({ role: 'user', text }));
    const reply = { role: 'assistant', text: '', sources: [] };
    const node = el('div', { class: 'msg bot typing' });
    log.append(node);
    log.scrollTop = log.scrollHeight;
    const messages = [...history, { role: 'user', text }].map((message, index) => ({
      id: `m${index}`,
      role: message.role,
      parts: [{ type: 'text', text: message.text }],
    }));
    try {
      const response = await fetch(`${service}/api/ui/chat`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify({ id: state.id, messages, trigger: 'submit-message', modelMode: mode }),
      });
      if (!response.ok || !response.body) {
        const body = await response.json().catch(() => ({}));
        throw new Error(body.error || `The chat service answered ${response.status}.`);
      }
      const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
      let buffer = '';
      for (;;) {
        const { value, done } = await reader.read();
        if (done) break;
        buffer += value;
        const events = buffer.split('\n\n');
        buffer = events.pop();
        for (const event of events) {
          const payload = event
            .split('\n')
            .filter((line) => line.startsWith('data: '))
            .map((line) => line.slice(6))
            .join('\n');
          if (!payload || payload === '[DONE]') continue;
          const chunk = JSON.parse(payload);
          if (chunk.type === 'text-delta') reply.text += chunk.delta;
          else if (chunk.type === 'source-document') {
            const cited = chunk.providerMetadata?.ngram || {};
            const section = typeof cited.section === 'string' ? cited.section.replace(/\s+>\s+/g, ' › ') : '';
            reply.sources.push({
              title: typeof cited.title === 'string' && cited.title ? cited.title : chunk.title,
              ...(section && typeof cited.title === 'string' ? { section } : {}),
              ...(typeof cited.url === 'string' ? { url: cited.url } : {}),
              text: cited.text || '',
            });
          } else if (chunk.type === 'finish' && typeof chunk.messageMetadata?.replyId === 'string') {
            reply.replyId = chunk.messageMetadata.replyId;
          } else if (chunk.type === 'error') throw new Error(chunk.errorText);
        }
        render(reply, node);
        log.scrollTop = log.scrollHeight;
      }
      if (!reply.text) reply.text = 'No answer came back; please try again.';
    } catch (error) {
      reply.error = true;
      reply.text =
        error instanceof TypeError ? 'The chat service cannot be reached right now.' : error.message;
    }
    state.messages.push(reply);
    save();
    render(reply, node);
    log.scrollTop = log.scrollHeight;
    log.removeAttribute('aria-busy');
    busy = false;
    send.disabled = false;
  };

  // ---- opening, closing, keys ----
  const open = () => {
    if (panel.hidden) {
      panel.hidden = false;
      host.classList.add('open');
      launcher.setAttribute('aria-expanded', 'true');
      show();
    }
    input.focus();
  };
  const close = () => {
    panel.hidden = true;
    host.classList.remove('open');
    launcher.setAttribute('aria-expanded', 'false');
    launcher.focus();
  };
  launcher.addEventListener('click', open);
  closeButton.addEventListener('click', close);
  panel.addEventListener('keydown', (event) => {
    if (event.key === 'Escape') {
      event.stopPropagation();
      close();
    }
  });
  resetButton.addEventListener('click', () => {
    state = { id: newId(), messages: [] };
    save();
    show();
    input.focus();
  });
  form.addEventListener('submit', (event) => {
    event.preventDefault();
    const text = input.value.trim();
    if (!text || busy) return;
    input.value = '';
    ask(text);
  });
  input.addEventListener('keydown', (event) => {
    if (event.key === 'Enter' && !event.shiftKey && !event.isComposing) {
      event.preventDefault();
      form.requestSubmit();
    }
  });

  const mount = () => {
    document.body.append(host);
    // The accent's text colour: white on dark accents, near-black on light ones.
    const probe = el('span', { hidden: '' });
    probe.style.color = accent;
    root.append(probe);
    const [r, g, b] = (getComputedStyle(probe).color.match(/[\d.]+/g) || [0, 0, 0]).map(Number);
    host.style.setProperty('--on-accent', 0.299 * r + 0.587 * g + 0.114 * b > 160 ? '#111' : '#fff');
    probe.remove();
  };
  if (document.body) mount();
  else document.addEventListener('DOMContentLoaded', mount);
})();
