import { describeError, health, sendChat, train, trainFile, upload } from './api.js';
import { ratingRow } from './feedback.js';
import { renderMarkdown } from './markdown.js';
import { formatOfFileName, splitForTraining, splitMarkdownForTraining, trainInParts } from './training.js';

const SETTINGS_KEY = 'chat.settings';
const PATHS = { a: 'api/chat', b: 'api/api/chat' };
const MODE_NAMES = {
  instant: 'Instant',
  expert: 'Expert',
  apex: 'Apex',
  standard: 'Standard',
  think: 'Think',
  deep_think: 'Deep think',
  www: 'Encyclopedia',
};

const $ = (id) => document.getElementById(id);
const numberFormat = new Intl.NumberFormat('en');

/** A new element with attributes and children (strings become text, never HTML). */
function el(tag, attributes = {}, ...children) {
  const element = document.createElement(tag);
  for (const [name, value] of Object.entries(attributes)) {
    if (value !== undefined && value !== null && value !== false) element.setAttribute(name, String(value));
  }
  element.append(...children.filter((child) => child !== undefined && child !== null));
  return element;
}

function newSessionId() {
  const bytes = crypto.getRandomValues(new Uint8Array(6));
  return `web-${Array.from(bytes, (byte) => byte.toString(16).padStart(2, '0')).join('')}`;
}

function formatBytes(bytes) {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KB`;
  return `${(bytes / 1024 / 1024).toFixed(1)} MB`;
}

// Settings, kept in localStorage

const defaults = { mode: 'a:expert', temperature: 0.7, maxTokens: 80, raw: false, sessionId: '' };

function loadSettings() {
  try {
    return { ...defaults, ...JSON.parse(localStorage.getItem(SETTINGS_KEY) ?? '{}') };
  } catch {
    return { ...defaults };
  }
}

const settings = loadSettings();
if (!/^[A-Za-z0-9_-]{1,64}$/.test(settings.sessionId)) settings.sessionId = newSessionId();

function saveSettings() {
  localStorage.setItem(SETTINGS_KEY, JSON.stringify(settings));
}

function showSettings() {
  if ([...$('mode').options].some((option) => option.value === settings.mode))
    $('mode').value = settings.mode;
  $('temperature').value = String(settings.temperature);
  $('temperature-value').value = Number(settings.temperature).toFixed(1);
  $('max-tokens').value = String(settings.maxTokens);
  $('raw').checked = settings.raw;
  $('session-id').value = settings.sessionId;
  const variantA = $('mode').value.startsWith('a:');
  $('attach-label').hidden = !variantA;
  if (!variantA) clearAttachment();
}

$('mode').addEventListener('change', () => {
  settings.mode = $('mode').value;
  saveSettings();
  showSettings();
});
$('temperature').addEventListener('input', () => {
  settings.temperature = Number($('temperature').value);
  $('temperature-value').value = settings.temperature.toFixed(1);
  saveSettings();
});
$('max-tokens').addEventListener('change', () => {
  const value = Math.round(Number($('max-tokens').value));
  settings.maxTokens = Number.isFinite(value) ? Math.min(Math.max(value, 1), 400) : defaults.maxTokens;
  $('max-tokens').value = String(settings.maxTokens);
  saveSettings();
});
$('raw').addEventListener('change', () => {
  settings.raw = $('raw').checked;
  saveSettings();
});
$('session-id').addEventListener('change', () => {
  if (!$('session-id').checkValidity()) return $('session-id').reportValidity();
  useSession($('session-id').value);
});

function useSession(id) {
  settings.sessionId = id;
  saveSettings();
  $('session-id').value = id;
  $('allowance').textContent = '';
}

$('new-session').addEventListener('click', () => useSession(newSessionId()));

// Drawers

for (const [button, dialog] of [
  ['open-settings', 'settings'],
  ['open-train', 'train'],
]) {
  $(button).addEventListener('click', () => $(dialog).showModal());
}
for (const dialog of document.querySelectorAll('dialog')) {
  dialog.addEventListener('click', (event) => {
    if (event.target === dialog || event.target.closest('[data-close]')) dialog.close();
  });
}

// Health

function setVocabulary(size) {
  if (typeof size !== 'number') return;
  const line = $('health');
  line.dataset.state = 'ok';
  line.replaceChildren(
    el('span', { class: 'dot', 'aria-hidden': 'true' }),
    el('span', { id: 'vocab', 'data-vocab': size }, numberFormat.format(size)),
    size === 1 ? ' word' : ' words',
  );
}

async function refreshHealth() {
  const line = $('health');
  try {
    const body = await health();
    setVocabulary(body.vocabSize);
    line.title = `Service ${body.status} · store ${body.store} · v${body.version}`;
  } catch (error) {
    line.dataset.state = 'error';
    line.textContent = error.body?.status === 'degraded' ? 'Service degraded' : 'Service unreachable';
    line.title = describeError(error);
  }
}

// The conversation

/** Completed turns, sent as Variant B's history. */
let turns = [];
/** The reply being streamed: its AbortController, or null when idle. */
let inFlight = null;
/** The image waiting to go with the next Variant A message: { dataUrl, name }. */
let attachment = null;
/** The image upload under way, if any: a message sent meanwhile waits for it. */
let attachmentUpload = null;

/** Whether the conversation follows the newest text: until the reader scrolls up from the end. */
let followEnd = true;
$('conversation').addEventListener('scroll', () => {
  const box = $('conversation');
  followEnd = box.scrollHeight - box.scrollTop - box.clientHeight < 80;
});

/** Scrolls to the newest text when following it, or always when `force` (a message just sent). */
function scrollToEnd(force = false) {
  if (force) followEnd = true;
  if (followEnd) $('conversation').scrollTop = $('conversation').scrollHeight;
}

function addUserMessage(text, image) {
  $('empty').hidden = true;
  const item = el(
    'li',
    { class: 'message user' },
    el('h3', { class: 'who visually-hidden' }, 'You'),
    el('div', { class: 'content' }, text),
  );
  if (image) item.append(el('p', { class: 'meta' }, `with image ${image.name}`));
  $('log').append(item);
  scrollToEnd(true);
  return item;
}

/** An http(s) address, or null: no other scheme becomes a link. */
function httpUrl(value) {
  return typeof value === 'string' && /^https?:\/\//i.test(value) ? value : null;
}

function sourceItem(source, index, idPrefix) {
  const ref = source?.ref ?? {};
  const url = httpUrl(source?.url) ?? httpUrl(ref.url);
  const section = typeof source?.section === 'string' ? source.section.replace(/\s+>\s+/g, ' › ') : '';
  const title = source?.title ?? source?.file;
  const document = [typeof ref.url === 'string' ? null : title, section].filter(
    (part) => typeof part === 'string' && part !== '',
  );
  const page = typeof source?.page === 'number' ? ` · p. ${source.page}` : '';
  const where =
    document.length > 0
      ? `${document.join(' › ')}${page}`
      : url
        ? String(ref.title || url)
        : typeof ref.line === 'number'
          ? `line ${numberFormat.format(ref.line)}${page}`
          : 'passage';
  const text = typeof source?.text === 'string' ? source.text : '';
  const score = typeof source?.score === 'number' ? source.score.toFixed(2) : null;
  const summary = el(
    'summary',
    {},
    el('span', { class: 'cite' }, `[${index + 1}]`),
    ' ',
    url
      ? el('a', { class: 'where', href: url, target: '_blank', rel: 'noopener' }, where)
      : el('span', { class: 'where' }, where),
    score === null ? null : el('span', { class: 'score', title: 'Relevance score' }, score),
    el('span', { class: 'snippet' }, text),
  );
  const body = el('div', { class: 'source-body' }, el('blockquote', {}, text));
  if (typeof ref.chunk === 'number') {
    body.append(el('p', { class: 'meta' }, `Trained text, chunk ${ref.chunk}, line ${ref.line}`));
  }
  return el(
    'li',
    { id: `${idPrefix}${index + 1}`, 'data-testid': 'source' },
    el('details', {}, summary, body),
  );
}

/**
 * The citations of a reply: `sources`, plus Variant B's `source` when it is not among them.
 * Returns how many there are.
 */
function showSources(item, body) {
  const sources = Array.isArray(body.sources) ? [...body.sources] : [];
  const extra = body.source;
  if (extra?.url && !sources.some((source) => source?.ref?.url === extra.url)) {
    sources.push({ text: '', ref: { title: extra.title, url: extra.url } });
  }
  if (sources.length === 0) return 0;
  const headingId = `${item.id}-sources`;
  item.append(
    el(
      'section',
      { class: 'sources', 'aria-labelledby': headingId },
      el('h4', { id: headingId }, sources.length === 1 ? 'Source' : `Sources (${sources.length})`),
      el('ol', {}, ...sources.map((source, index) => sourceItem(source, index, `${item.id}-source-`))),
    ),
  );
  return sources.length;
}

/** Turns the `[n]` markers of a rendered reply into links to its citations (not inside code or links). */
function linkCitations(content, item, count) {
  const walker = document.createTreeWalker(content, NodeFilter.SHOW_TEXT, {
    acceptNode: (node) =>
      node.parentElement.closest('code, pre, a') ? NodeFilter.FILTER_REJECT : NodeFilter.FILTER_ACCEPT,
  });
  const nodes = [];
  while (walker.nextNode()) nodes.push(walker.currentNode);
  for (const node of nodes) {
    const pieces = node.data.split(/(\[\d+\])/);
    if (pieces.length === 1) continue;
    node.replaceWith(
      ...pieces.map((piece) => {
        const number = /^\[(\d+)\]$/.exec(piece)?.[1];
        if (!number || Number(number) < 1 || Number(number) > count) return piece;
        const link = el(
          'a',
          { href: `#${item.id}-source-${number}`, class: 'cite-link', 'aria-label': `Source ${number}` },
          piece,
        );
        link.addEventListener('click', (event) => {
          event.preventDefault();
          const details = $(`${item.id}-source-${number}`).querySelector('details');
          details.open = true;
          details.scrollIntoView({ block: 'nearest' });
          details.querySelector('summary').focus();
        });
        return link;
      }),
    );
  }
}

let replyCount = 0;

/** An assistant message that fills in as the reply streams: update(text), finish(body), fail(message). */
function addReply(variant, mode) {
  const id = `reply-${++replyCount}`;
  const content = el('div', { class: 'content markdown' }, el('span', { class: 'typing' }, 'Thinking…'));
  const who = el('h3', { class: 'who' }, `Assistant · ${MODE_NAMES[mode] ?? mode}`);
  const item = el(
    'li',
    {
      id,
      class: 'message assistant streaming',
      'data-testid': 'reply',
      'data-variant': variant,
      'data-mode': mode,
    },
    who,
    content,
  );
  $('log').append(item);
  $('log').setAttribute('aria-busy', 'true');
  scrollToEnd();

  let pending = null;
  let shown = '';
  const render = (text) => {
    pending = null;
    if (text === shown) return;
    shown = text;
    content.replaceChildren(renderMarkdown(text));
    scrollToEnd();
  };
  const settle = () => {
    if (pending !== null) cancelAnimationFrame(pending);
    pending = null;
    item.classList.remove('streaming');
    $('log').setAttribute('aria-busy', 'false');
  };

  return {
    item,
    update(text) {
      item.dataset.deltas = String(Number(item.dataset.deltas ?? 0) + 1);
      if (pending !== null) cancelAnimationFrame(pending);
      pending = requestAnimationFrame(() => render(text));
    },
    finish(body, streamed) {
      settle();
      render(typeof body.response === 'string' ? body.response : '');
      item.dataset.streamed = String(streamed);
      if (body.usedExternal) {
        who.append(
          el('span', { class: 'badge', title: 'An external language model helped' }, 'external model'),
        );
      }
      if (typeof body.thought === 'string' && body.thought) {
        const details = el(
          'details',
          { class: 'thought', 'data-testid': 'thought' },
          el('summary', {}, 'Thought'),
          el('div', { class: 'thought-text' }, body.thought),
        );
        details.addEventListener('toggle', () => {
          if (details.open) details.scrollIntoView({ block: 'nearest' });
        });
        item.append(details);
      }
      const cited = showSources(item, body);
      if (cited > 0) linkCitations(content, item, cited);
      const facts = [];
      if (typeof body.tokens === 'number') facts.push(`${body.tokens} tokens`);
      if (facts.length) item.append(el('p', { class: 'meta' }, facts.join(' · ')));
      if (typeof body.replyId === 'string') item.append(ratingRow(body.replyId));
      scrollToEnd();
    },
    stop(text) {
      settle();
      render(text);
      item.append(el('p', { class: 'meta' }, 'Stopped'));
    },
    fail(message, text, action) {
      settle();
      if (text) render(text);
      else content.replaceChildren();
      item.classList.add('failed');
      const line = el('p', { class: 'error', role: 'alert' }, message);
      if (action) line.append(' ', action);
      item.append(line);
      scrollToEnd();
    },
  };
}

function setBusy(busy) {
  $('send').textContent = busy ? 'Stop' : 'Send';
  $('send').classList.toggle('stop', busy);
  $('send').setAttribute('aria-label', busy ? 'Stop the reply' : 'Send the message');
  $('composer').setAttribute('aria-busy', String(busy));
}

function showAllowance(headers) {
  const limit = headers?.get('X-Session-Limit');
  const remaining = headers?.get('X-Session-Remaining');
  if (limit === null || remaining === null || limit === undefined) return;
  $('allowance').textContent = `${remaining} of ${limit} left`;
  $('allowance').title = `${remaining} of ${limit} messages left in this session`;
}

async function send(message) {
  const [variant, mode] = $('mode').value.split(':');
  const controller = new AbortController();
  inFlight = controller;
  setBusy(true);
  if (variant === 'a' && attachmentUpload) await attachmentUpload;
  const image = variant === 'a' ? attachment : null;
  const payload =
    variant === 'a'
      ? {
          message,
          sessionId: settings.sessionId,
          modelMode: mode,
          temperature: settings.temperature,
          maxTokens: settings.maxTokens,
          ...(settings.raw ? { raw: true } : {}),
          ...(image ? { imageBase64: image.dataUrl } : {}),
        }
      : { message, mode, history: turns };
  addUserMessage(message, image);
  const reply = addReply(variant, mode);
  let text = '';
  try {
    const { body, headers, streamed } = await sendChat(PATHS[variant], payload, {
      signal: controller.signal,
      onDelta(piece) {
        text += piece;
        reply.update(text);
      },
    });
    reply.finish(body, streamed);
    turns = [
      ...turns,
      { role: 'user', content: message },
      { role: 'assistant', content: String(body.response) },
    ];
    setVocabulary(body.vocabSize);
    showAllowance(headers);
    if (image && attachment === image) clearAttachment();
  } catch (error) {
    if (controller.signal.aborted) {
      reply.stop(text);
    } else {
      let action;
      if (error.body?.code === 'session_limit') {
        action = el('button', { type: 'button', class: 'small' }, 'Start a new session');
        action.addEventListener('click', () => {
          useSession(newSessionId());
          action.disabled = true;
          $('message').focus();
        });
      }
      reply.fail(describeError(error), text, action);
      if (!text && !$('message').value) $('message').value = message;
    }
  } finally {
    inFlight = null;
    setBusy(false);
  }
}

$('composer').addEventListener('submit', (event) => {
  event.preventDefault();
  if (inFlight) {
    if (event.submitter === $('send')) inFlight.abort();
    return;
  }
  const message = $('message').value.trim();
  if (!message) return $('message').focus();
  $('message').value = '';
  send(message);
});

for (const button of document.querySelectorAll('.suggestion')) {
  button.addEventListener('click', () => {
    if (!inFlight) send(button.textContent.trim());
  });
}

$('message').addEventListener('keydown', (event) => {
  if (event.key !== 'Enter' || event.shiftKey || event.altKey || event.isComposing) return;
  event.preventDefault();
  $('composer').requestSubmit();
});

$('clear').addEventListener('click', () => {
  inFlight?.abort();
  turns = [];
  $('log').replaceChildren();
  $('empty').hidden = false;
  useSession(newSessionId());
  $('settings').close();
  $('message').focus();
});

// The image for Variant A

function clearAttachment() {
  attachment = null;
  $('image').value = '';
  $('attachment').hidden = true;
  $('attachment-name').textContent = '';
}

$('attachment-remove').addEventListener('click', clearAttachment);

async function attach(file) {
  attachment = null;
  $('attachment').hidden = false;
  $('attachment').classList.remove('failed');
  $('attachment-name').textContent = `Uploading ${file.name}…`;
  try {
    const body = await upload(file);
    attachment = {
      dataUrl: `data:${body.base64MimeType ?? body.mimeType};base64,${body.base64}`,
      name: file.name,
    };
    $('attachment-name').textContent = `${file.name} (${body.width}×${body.height})`;
  } catch (error) {
    $('attachment-name').textContent = describeError(error, 'file');
    $('attachment').classList.add('failed');
  }
}

$('image').addEventListener('change', () => {
  const file = $('image').files?.[0];
  if (!file) return clearAttachment();
  const pending = attach(file).finally(() => {
    if (attachmentUpload === pending) attachmentUpload = null;
  });
  attachmentUpload = pending;
});

// Training

let training = null;

function showTrainProgress({ phase, part, parts, bytesDone, bytesTotal, vocabSize, seconds }) {
  setVocabulary(vocabSize);
  $('train-progress').value = bytesTotal ? bytesDone / bytesTotal : 0;
  $('train-progress').setAttribute('aria-valuetext', `${Math.round((bytesDone / bytesTotal) * 100)}%`);
  const of = `${formatBytes(bytesDone)} of ${formatBytes(bytesTotal)}`;
  $('train-status').textContent =
    phase === 'waiting'
      ? `Too many requests: waiting ${seconds} s, then part ${part} of ${parts} again`
      : phase === 'done'
        ? `All ${parts} ${parts === 1 ? 'part' : 'parts'} sent · ${of}`
        : `Sending part ${part} of ${parts} · ${of}`;
  $('train-run').dataset.phase = phase;
}

/** Trains on a text (or a PDF file, sent whole); `file` names a dropped or chosen file. */
async function trainOn(text, name, file) {
  if (training) return;
  $('train-error').textContent = '';
  $('train-summary').textContent = '';
  const format = file ? formatOfFileName(file.name) : 'text';
  if (format !== 'pdf' && text.includes('\u0000')) {
    $('train-error').textContent = `${name} does not look like a text file.`;
    return;
  }
  const parts =
    format === 'pdf'
      ? [file]
      : format === 'markdown'
        ? splitMarkdownForTraining(text)
        : splitForTraining(text);
  if (parts.length === 0) {
    $('train-error').textContent = `${name} has no text to learn from.`;
    return;
  }
  const controller = new AbortController();
  training = controller;
  $('train-run').hidden = false;
  $('train-label').textContent = `Training on ${name}`;
  for (const id of ['train-file', 'train-paste']) $(id).disabled = true;
  try {
    const result = await trainInParts(parts, {
      send: (part, signal) =>
        typeof part === 'string'
          ? train(part, { signal, format, ...(file ? { name: file.name } : {}) })
          : trainFile(part, { signal }),
      onProgress: showTrainProgress,
      signal: controller.signal,
    });
    setVocabulary(result.vocabSize);
    $('train-summary').textContent =
      `Learnt ${numberFormat.format(result.tokens)} tokens from ${name} in ${result.parts} ` +
      `${result.parts === 1 ? 'part' : 'parts'}. The vocabulary now has ` +
      `${numberFormat.format(result.vocabSize)} words.`;
    $('train-text').value = '';
  } catch (error) {
    $('train-error').textContent = controller.signal.aborted
      ? 'Training cancelled; the parts already sent stay learnt.'
      : `Training stopped: ${describeError(error, 'text')}`;
  } finally {
    training = null;
    $('train-run').hidden = true;
    $('train-file').value = '';
    for (const id of ['train-file', 'train-paste']) $(id).disabled = false;
  }
}

async function trainOnFile(file) {
  if (!$('train').open) $('train').showModal();
  await trainOn(formatOfFileName(file.name) === 'pdf' ? '' : await file.text(), file.name, file);
}

$('train-file').addEventListener('change', () => {
  const file = $('train-file').files?.[0];
  if (file) trainOnFile(file);
});
$('train-paste').addEventListener('click', () => {
  const text = $('train-text').value;
  if (text.trim()) trainOn(text, 'the pasted text');
  else $('train-text').focus();
});
$('train-cancel').addEventListener('click', () => training?.abort());

// A document (.txt, .md, .html, .pdf) dropped anywhere on the page trains the model.
const hasFiles = (event) => [...(event.dataTransfer?.types ?? [])].includes('Files');
document.addEventListener('dragover', (event) => {
  if (!hasFiles(event)) return;
  event.preventDefault();
  document.body.classList.add('dragging');
});
document.addEventListener('dragleave', (event) => {
  if (event.relatedTarget === null) document.body.classList.remove('dragging');
});
document.addEventListener('drop', (event) => {
  document.body.classList.remove('dragging');
  if (!hasFiles(event)) return;
  event.preventDefault();
  const file = event.dataTransfer.files?.[0];
  if (file) trainOnFile(file);
});

showSettings();
refreshHealth();
