/** The thumbs under a reply of the chat page: thumbs down opens a comment box; POST /api/feedback. */
import { describeError, rateReply } from './api.js';

function el(tag, attributes = {}, ...children) {
  const element = document.createElement(tag);
  for (const [name, value] of Object.entries(attributes)) element.setAttribute(name, String(value));
  element.append(...children);
  return element;
}

/** A row of thumbs for the reply `replyId`; its status line says what happened. */
export function ratingRow(replyId) {
  const row = el('div', {
    class: 'rate',
    role: 'group',
    'aria-label': 'Rate this answer',
    'data-testid': 'rate',
  });
  const status = el('span', { class: 'rate-status', role: 'status' });
  const up = el(
    'button',
    { type: 'button', class: 'ghost small', 'aria-label': 'Helpful', 'aria-pressed': 'false' },
    '👍',
  );
  const down = el(
    'button',
    { type: 'button', class: 'ghost small', 'aria-label': 'Not helpful', 'aria-pressed': 'false' },
    '👎',
  );
  const send = async (rating, comment) => {
    status.textContent = 'Sending…';
    try {
      await rateReply(replyId, rating, comment);
      up.setAttribute('aria-pressed', String(rating === 'up'));
      down.setAttribute('aria-pressed', String(rating === 'down'));
      row.querySelector('form')?.remove();
      status.textContent = 'Thanks for your feedback.';
    } catch (error) {
      status.textContent = describeError(error);
    }
  };
  up.addEventListener('click', () => send('up', ''));
  down.addEventListener('click', () => {
    if (row.querySelector('form')) return;
    const comment = el('textarea', {
      rows: '2',
      maxlength: '1000',
      'aria-label': 'What was wrong? (optional)',
      placeholder: 'What was wrong? (optional)',
    });
    const form = el(
      'form',
      { class: 'rate-comment' },
      comment,
      el('button', { type: 'submit', class: 'small' }, 'Send feedback'),
    );
    form.addEventListener('submit', (event) => {
      event.preventDefault();
      send('down', comment.value.trim());
    });
    row.append(form);
    comment.focus();
  });
  row.append(up, down, status);
  return row;
}
