/**
 * The owner's view of the chat page: what visitors asked (unanswered, disliked, most asked), a
 * chart of answered vs unanswered replies per day, and the trained documents. The e-mail and
 * token stay in this tab's sessionStorage only. Everything shown is text: nothing a visitor
 * typed ever becomes markup.
 */
import { ApiError, describeError, ownerRequest } from './api.js';

const OWNER_KEY = 'chat.owner';
const SVG = 'http://www.w3.org/2000/svg';
const $ = (id) => document.getElementById(id);

function el(tag, attributes = {}, ...children) {
  const element = document.createElement(tag);
  for (const [name, value] of Object.entries(attributes)) {
    if (value !== undefined && value !== null && value !== false) element.setAttribute(name, String(value));
  }
  element.append(...children.filter((child) => child !== undefined && child !== null));
  return element;
}

function svg(tag, attributes = {}, ...children) {
  const element = document.createElementNS(SVG, tag);
  for (const [name, value] of Object.entries(attributes)) element.setAttribute(name, String(value));
  element.append(...children);
  return element;
}

function savedOwner() {
  try {
    const owner = JSON.parse(sessionStorage.getItem(OWNER_KEY) ?? 'null');
    return owner && typeof owner.email === 'string' && typeof owner.token === 'string' ? owner : null;
  } catch {
    return null;
  }
}

let owner = savedOwner();

function showSignedIn() {
  $('owner-login').hidden = owner !== null;
  $('owner-content').hidden = owner === null;
  if (owner) $('owner-who').textContent = owner.email;
}

function fail(target, error) {
  if (error instanceof ApiError && (error.status === 401 || error.status === 403)) {
    owner = null;
    sessionStorage.removeItem(OWNER_KEY);
    showSignedIn();
    $('owner-login-error').textContent = describeError(error);
    return;
  }
  target.replaceChildren(el('p', { class: 'error', role: 'alert' }, describeError(error)));
}

/** The questions of the kind chosen, as a table, and the chart of the same days. */
async function loadQuestions() {
  const kind = $('owner-kind').value;
  const days = $('owner-days').value;
  const box = $('owner-questions');
  box.setAttribute('aria-busy', 'true');
  try {
    const body = await ownerRequest(`api/admin/questions?kind=${kind}&days=${days}`, owner);
    box.replaceChildren(questionTable(body.questions ?? [], kind));
    $('owner-chart').replaceChildren(chart(body.perDay ?? []));
    $('owner-teach').textContent = body.howToTeach ?? '';
    if (body.logging === false)
      box.prepend(el('p', { class: 'meta' }, 'The question log is off (QUESTION_LOG=off).'));
  } catch (error) {
    fail(box, error);
  } finally {
    box.removeAttribute('aria-busy');
  }
}

function questionTable(questions, kind) {
  if (questions.length === 0) {
    const none = {
      unanswered: 'No unanswered questions.',
      disliked: 'No answers were disliked.',
      top: 'No questions yet.',
    };
    return el('p', { class: 'meta' }, none[kind] ?? 'Nothing yet.');
  }
  const head = el(
    'tr',
    {},
    ...['Question', 'Asked', 'Last asked', '👍', '👎', 'Reply and comments'].map((name) =>
      el('th', { scope: 'col' }, name),
    ),
  );
  const rows = questions.map((entry) => {
    const reply = el(
      'details',
      {},
      el('summary', {}, 'Reply'),
      el('p', { class: 'owner-reply' }, String(entry.reply ?? '')),
      ...(entry.sources ?? []).map((source) =>
        el('p', { class: 'meta' }, [source.title, source.section].filter(Boolean).join(' › ') || 'passage'),
      ),
    );
    const comments = (entry.comments ?? []).map((comment) => el('li', {}, String(comment)));
    return el(
      'tr',
      { 'data-testid': 'owner-question' },
      el('td', { 'data-label': 'Question', class: 'owner-q' }, String(entry.question ?? '')),
      el('td', { 'data-label': 'Asked', class: 'num' }, String(entry.count ?? 0)),
      el('td', { 'data-label': 'Last asked' }, new Date(entry.lastAskedAt).toLocaleString()),
      el('td', { 'data-label': '👍', class: 'num' }, String(entry.up ?? 0)),
      el('td', { 'data-label': '👎', class: 'num' }, String(entry.down ?? 0)),
      el(
        'td',
        { 'data-label': 'Reply' },
        reply,
        comments.length > 0 ? el('ul', { class: 'owner-comments' }, ...comments) : null,
      ),
    );
  });
  return el('table', { class: 'owner-table' }, el('thead', {}, head), el('tbody', {}, ...rows));
}

/** Stacked bars per day: answered below, unanswered above; the numbers in each bar's title. */
function chart(perDay) {
  const width = 320;
  const height = 120;
  const most = Math.max(1, ...perDay.map((day) => day.answered + day.unanswered));
  const step = perDay.length > 0 ? width / perDay.length : width;
  const bar = Math.max(2, step * 0.7);
  const answered = perDay.reduce((sum, day) => sum + day.answered, 0);
  const unanswered = perDay.reduce((sum, day) => sum + day.unanswered, 0);
  const figure = svg('svg', {
    viewBox: `0 0 ${width} ${height}`,
    role: 'img',
    'aria-label': `Answered ${answered}, unanswered ${unanswered} over ${perDay.length} days`,
    class: 'owner-chart-svg',
  });
  perDay.forEach((day, i) => {
    const x = i * step + (step - bar) / 2;
    const a = (day.answered / most) * (height - 4);
    const u = (day.unanswered / most) * (height - 4);
    const label = `${day.date}: ${day.answered} answered, ${day.unanswered} unanswered`;
    figure.append(
      svg(
        'rect',
        { x, y: height - a, width: bar, height: a, class: 'bar-answered' },
        svg('title', {}, label),
      ),
      svg(
        'rect',
        { x, y: height - a - u, width: bar, height: u, class: 'bar-unanswered' },
        svg('title', {}, label),
      ),
    );
  });
  const legend = el(
    'p',
    { class: 'meta owner-legend' },
    el('span', { class: 'key answered' }),
    ` Answered ${answered} `,
    el('span', { class: 'key unanswered' }),
    ` Unanswered ${unanswered}`,
  );
  return el('div', {}, figure, legend);
}

/** The trained documents, with a delete button each (GET/DELETE /api/admin/documents). */
async function loadDocuments() {
  const box = $('owner-documents');
  try {
    const body = await ownerRequest('api/admin/documents?limit=100', owner);
    const documents = Array.isArray(body?.documents) ? body.documents : [];
    if (documents.length === 0) return box.replaceChildren(el('p', { class: 'meta' }, 'No documents yet.'));
    box.replaceChildren(
      el(
        'ul',
        { class: 'owner-docs' },
        ...documents.map((document) => {
          const remove = el(
            'button',
            { type: 'button', class: 'small', 'aria-label': `Delete ${document.name ?? document.id}` },
            'Delete',
          );
          remove.addEventListener('click', () => deleteDocument(document, remove));
          const facts = [
            document.format,
            `${document.passages ?? 0} passages`,
            document.trainedAt ? new Date(document.trainedAt).toLocaleDateString() : null,
          ];
          return el(
            'li',
            { 'data-testid': 'owner-document' },
            el('span', { class: 'owner-doc-name' }, String(document.name ?? document.id)),
            el('span', { class: 'meta' }, facts.filter(Boolean).join(' · ')),
            remove,
          );
        }),
      ),
    );
  } catch (error) {
    if (error instanceof ApiError && (error.status === 404 || error.status === 405)) {
      box.replaceChildren(el('p', { class: 'meta' }, 'This service cannot list its documents yet.'));
    } else fail(box, error);
  }
}

async function deleteDocument(document, button) {
  if (
    !window.confirm(`Delete "${document.name ?? document.id}"? The service forgets what it learned from it.`)
  )
    return;
  button.disabled = true;
  try {
    await ownerRequest(`api/admin/documents?id=${encodeURIComponent(document.id)}`, owner, {
      method: 'DELETE',
    });
    await loadDocuments();
  } catch (error) {
    button.disabled = false;
    fail($('owner-documents'), error);
  }
}

function refresh() {
  if (!owner) return;
  loadQuestions();
  loadDocuments();
}

$('owner-login').addEventListener('submit', (event) => {
  event.preventDefault();
  const email = $('owner-email').value.trim();
  const token = $('owner-token').value;
  if (!email || !token) return;
  owner = { email, token };
  sessionStorage.setItem(OWNER_KEY, JSON.stringify(owner));
  $('owner-token').value = '';
  $('owner-login-error').textContent = '';
  showSignedIn();
  refresh();
});
$('owner-sign-out').addEventListener('click', () => {
  owner = null;
  sessionStorage.removeItem(OWNER_KEY);
  showSignedIn();
  $('owner-questions').replaceChildren();
  $('owner-documents').replaceChildren();
});
$('owner-kind').addEventListener('change', loadQuestions);
$('owner-days').addEventListener('change', loadQuestions);
$('open-owner').addEventListener('click', () => {
  $('owner').showModal();
  showSignedIn();
  refresh();
});
