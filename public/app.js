import { createClient, describeError, normaliseBase } from './api.js';

const BASE_KEY = 'playground.baseUrl';
const SESSION_KEY = 'playground.sessionId';

const $ = (id) => document.getElementById(id);

let base = normaliseBase(localStorage.getItem(BASE_KEY) || `${location.origin}/api`);
let client = createClient(base);
/** The Variant A image waiting to go with the next message: { dataUrl, name }. */
let attachment = null;
/** Variant B's conversation, kept in the page and sent with each message. */
let historyB = [];

function newSessionId() {
  const bytes = crypto.getRandomValues(new Uint8Array(6));
  return `web-${Array.from(bytes, (byte) => byte.toString(16).padStart(2, '0')).join('')}`;
}

function setText(id, text) {
  $(id).textContent = text;
}

function setVocab(size) {
  if (typeof size !== 'number') return;
  for (const element of document.querySelectorAll('[data-vocab]')) element.textContent = String(size);
}

/** Appends an element with text to `parent`; attributes are set as given. */
function add(parent, tag, text, attributes = {}) {
  const element = document.createElement(tag);
  if (text !== undefined) element.textContent = text;
  for (const [name, value] of Object.entries(attributes)) element.setAttribute(name, value);
  parent.append(element);
  return element;
}

function addMessage(log, role, text, attributes = {}) {
  const item = add(log, 'li', undefined, { class: `message ${role}`, ...attributes });
  add(item, 'span', role === 'user' ? 'You' : 'Assistant', { class: 'who' });
  add(item, 'p', text, { class: 'text' });
  item.scrollIntoView({ block: 'nearest' });
  return item;
}

/** Runs `work` with the form marked busy and its submit button disabled. */
async function busy(form, work) {
  const button = form.querySelector('button[type="submit"]');
  form.setAttribute('aria-busy', 'true');
  button.disabled = true;
  try {
    await work();
  } finally {
    form.removeAttribute('aria-busy');
    button.disabled = false;
  }
}

// Settings and health

async function refreshHealth() {
  const line = $('health');
  line.dataset.state = 'checking';
  line.textContent = `Checking ${base}…`;
  try {
    const { body } = await client.health();
    line.dataset.state = 'ok';
    line.replaceChildren();
    add(line, 'span', `Service ${body.status}`, { id: 'health-status' });
    line.append(' · vocabulary ');
    add(line, 'span', String(body.vocabSize), { id: 'health-vocab', 'data-vocab': '' });
    line.append(` words · store ${body.store} · v${body.version}`);
    if (body.externalModel) line.append(' · external model configured');
    setVocab(body.vocabSize);
  } catch (error) {
    line.dataset.state = 'error';
    const degraded = error.body?.status === 'degraded';
    line.textContent = degraded ? `Service degraded: ${error.body.error}` : describeError(error, base);
  }
}

function useBase(value) {
  base = normaliseBase(value) || `${location.origin}/api`;
  client = createClient(base);
  localStorage.setItem(BASE_KEY, base);
  $('base-url').value = base;
  $('openapi-link').href = `${base}/openapi.json`;
  for (const id of ['a-error', 'b-error', 'train-error']) setText(id, '');
  refreshHealth();
}

$('settings').addEventListener('submit', (event) => {
  event.preventDefault();
  useBase($('base-url').value);
});

// Tabs

const tabs = [$('tab-a'), $('tab-b')];

function selectTab(tab) {
  for (const other of tabs) {
    const selected = other === tab;
    other.setAttribute('aria-selected', String(selected));
    other.tabIndex = selected ? 0 : -1;
    $(other.getAttribute('aria-controls')).hidden = !selected;
  }
}

for (const tab of tabs) {
  tab.addEventListener('click', () => selectTab(tab));
  tab.addEventListener('keydown', (event) => {
    if (event.key !== 'ArrowLeft' && event.key !== 'ArrowRight') return;
    const next = tabs[(tabs.indexOf(tab) + (event.key === 'ArrowRight' ? 1 : tabs.length - 1)) % tabs.length];
    selectTab(next);
    next.focus();
  });
}

// Ctrl+Enter (or Cmd+Enter) sends from any text box.
for (const textarea of document.querySelectorAll('textarea')) {
  textarea.addEventListener('keydown', (event) => {
    if (event.key === 'Enter' && (event.ctrlKey || event.metaKey)) textarea.form.requestSubmit();
  });
}

// Variant A: session, image, chat

function useSession(id) {
  $('session-id').value = id;
  localStorage.setItem(SESSION_KEY, id);
  setText('a-remaining', '');
}

$('new-session').addEventListener('click', () => useSession(newSessionId()));
$('session-id').addEventListener('change', (event) => {
  if (event.target.checkValidity()) useSession(event.target.value);
});

function showRemaining(limit, remaining) {
  if (limit === null || remaining === null) return;
  setText('a-remaining', `${remaining} of ${limit} messages left in this session`);
}

function clearAttachment() {
  attachment = null;
  $('a-image').value = '';
  $('a-image-preview').hidden = true;
  $('a-image-preview').removeAttribute('src');
  $('a-image-remove').hidden = true;
  setText('a-image-status', '');
}

$('a-image-remove').addEventListener('click', clearAttachment);

$('a-image').addEventListener('change', async (event) => {
  const file = event.target.files?.[0];
  setText('a-error', '');
  if (!file) return clearAttachment();
  attachment = null;
  setText('a-image-status', `Uploading ${file.name}…`);
  try {
    const { body } = await client.upload(file);
    const type = body.base64MimeType ?? body.mimeType;
    attachment = { dataUrl: `data:${type};base64,${body.base64}`, name: file.name };
    $('a-image-preview').src = attachment.dataUrl;
    $('a-image-preview').alt = `Attached image ${file.name}`;
    $('a-image-preview').hidden = false;
    $('a-image-remove').hidden = false;
    setText(
      'a-image-status',
      `${file.name} attached (${body.width}×${body.height}); it goes with your next message.`,
    );
  } catch (error) {
    clearAttachment();
    setText('a-error', describeError(error, base, 'file'));
  }
});

function showReplyA(body, mode) {
  const item = addMessage($('a-log'), 'assistant', body.response, {
    'data-testid': 'a-reply',
    'data-mode': mode,
  });
  const who = item.querySelector('.who');
  who.textContent = `Assistant · ${mode}`;
  if (body.usedExternal) {
    add(who, 'span', 'external model', {
      class: 'badge',
      'data-testid': 'a-external',
      title: 'An external language model helped with this reply',
    });
  }
  if (body.thought) {
    const details = add(item, 'details', undefined, { 'data-testid': 'a-thought' });
    add(details, 'summary', 'Thought');
    add(details, 'p', body.thought);
  }
}

$('a-form').addEventListener('submit', (event) => {
  event.preventDefault();
  const form = event.currentTarget;
  if (!form.reportValidity()) return;
  const message = $('a-message').value.trim();
  if (!message) return;
  const payload = {
    message,
    sessionId: $('session-id').value,
    modelMode: $('a-mode').value,
    temperature: Number($('a-temperature').value),
    maxTokens: Number($('a-max-tokens').value),
  };
  if ($('a-raw').checked) payload.raw = true;
  const image = attachment;
  if (image) payload.imageBase64 = image.dataUrl;
  setText('a-error', '');
  return busy(form, async () => {
    try {
      const { body, headers } = await client.chat(payload);
      const sent = addMessage($('a-log'), 'user', message);
      if (image) add(sent, 'span', `with image ${image.name}`, { class: 'meta' });
      showReplyA(body, payload.modelMode);
      setVocab(body.vocabSize);
      showRemaining(headers.get('X-Session-Limit'), headers.get('X-Session-Remaining'));
      $('a-message').value = '';
      if (image && attachment === image) clearAttachment();
    } catch (error) {
      if (error.body?.code === 'session_limit') showRemaining(error.body.limit, 0);
      setText('a-error', describeError(error, base, 'file'));
    }
  });
});

// Variant B

function showReplyB(body) {
  const item = addMessage($('b-log'), 'assistant', body.response, {
    'data-testid': 'b-reply',
    'data-mode': body.mode,
  });
  item.querySelector('.who').textContent = `Assistant · ${body.mode} · ${body.tokens} tokens`;
  const url = body.source?.url;
  if (url && /^https?:\/\//i.test(url)) {
    const line = add(item, 'p', 'Source: ', { class: 'source' });
    add(line, 'a', body.source.title || url, {
      href: url,
      target: '_blank',
      rel: 'noopener noreferrer',
      'data-testid': 'b-source',
    });
  }
}

$('b-clear').addEventListener('click', () => {
  historyB = [];
  $('b-log').replaceChildren();
  setText('b-error', '');
});

$('b-form').addEventListener('submit', (event) => {
  event.preventDefault();
  const form = event.currentTarget;
  const message = $('b-message').value.trim();
  if (!message) return form.reportValidity();
  const payload = { message, mode: $('b-mode').value, history: historyB };
  setText('b-error', '');
  return busy(form, async () => {
    try {
      const { body } = await client.chatB(payload);
      addMessage($('b-log'), 'user', message);
      showReplyB(body);
      historyB = [
        ...historyB,
        { role: 'user', content: message },
        { role: 'assistant', content: body.response },
      ];
      $('b-message').value = '';
    } catch (error) {
      setText('b-error', describeError(error, base));
    }
  });
});

// Training

$('train-form').addEventListener('submit', (event) => {
  event.preventDefault();
  const form = event.currentTarget;
  const text = $('train-text').value;
  if (!text.trim()) return form.reportValidity();
  setText('train-error', '');
  setText('train-result', '');
  return busy(form, async () => {
    try {
      const { body } = await client.train(text);
      setVocab(body.vocabSize);
      setText(
        'train-result',
        `Learnt ${body.tokens} tokens. The vocabulary now has ${body.vocabSize} words.`,
      );
      $('train-text').value = '';
    } catch (error) {
      setText('train-error', describeError(error, base, 'text'));
    }
  });
});

useSession(localStorage.getItem(SESSION_KEY) || newSessionId());
useBase(base);
