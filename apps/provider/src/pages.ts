import type { Item } from './store.ts';

/** The hosted pay pages: plain HTML forms, no script, no auth. */

const escapeHtml = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
export const euros = (cents: number) => `€${(cents / 100).toFixed(2)}`;

export const page = (title: string, body: string) =>
  `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${escapeHtml(title)}</title>` +
  '<meta name="viewport" content="width=device-width,initial-scale=1"><style>' +
  'body{font-family:system-ui,sans-serif;max-width:420px;margin:3rem auto;padding:0 1rem;color:#222}' +
  '.card{border:1px solid #ddd;border-radius:8px;padding:1.2rem 1.4rem}' +
  'button{padding:.6rem 1.2rem;margin:.8rem .5rem 0 0;font-size:1rem;cursor:pointer}' +
  'label{display:block;margin:.5rem 0}input{display:block;width:100%;padding:.35rem;box-sizing:border-box}' +
  '.muted{color:#666;font-size:.9rem}</style></head><body><div class="card">' +
  body +
  '<p class="muted">Obol payment provider simulator: test payments only.</p></div></body></html>';

export const resultPage = (text: string) => page(text, `<h1>${escapeHtml(text)}</h1>`);

export function payPage(item: Item) {
  const description = item.data.description ? `<p>${escapeHtml(String(item.data.description))}</p>` : '';
  return page(
    `Pay ${euros(item.amount)}`,
    `<h1>Pay ${euros(item.amount)}</h1>
<p>Reference: <strong>${escapeHtml(item.reference)}</strong></p>${description}
<p class="muted">Expires at ${escapeHtml(String(item.data.expires_at))}</p>
<form method="post" action="/pay/${encodeURIComponent(item.id)}/pay">
<label>First name <input name="first_name" autocomplete="given-name"></label>
<label>Last name <input name="last_name" autocomplete="family-name"></label>
<label>Date of birth <input name="date_of_birth" type="date"></label>
<button type="submit">Pay</button></form>
<form method="post" action="/pay/${encodeURIComponent(item.id)}/decline"><button type="submit">Decline</button></form>`,
  );
}

export const stateText: Record<string, string> = {
  Completed: 'Payment completed',
  Declined: 'Payment declined',
  Expired: 'This payment link has expired',
};
