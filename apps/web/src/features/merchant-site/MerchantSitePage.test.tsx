import { createHmac } from 'node:crypto';
import { PAYIN_MSG } from '@obol/contract';
import { fireEvent, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { callsTo, mockApi, renderApp } from '../../test-utils.tsx';
import { INBOX_STORE } from './shopEvents.ts';

afterEach(() => {
  vi.restoreAllMocks();
  vi.unstubAllGlobals();
  sessionStorage.clear();
  localStorage.clear();
});

const link = {
  request_id: 'pl_000001',
  reference: 'x',
  amount: 2490,
  currency: 'EUR',
  url: 'http://127.0.0.1:3100/pay/pl_000001',
  channel: 'Payin',
  transaction_status: 'Pending',
  link_status: 'Initiated',
  expires_at: '2026-11-25T18:15:00.000Z',
  created_at: '2026-11-25T18:00:00.000Z',
};

async function fill() {
  await userEvent.type(screen.getByLabelText('First name'), 'Ana');
  await userEvent.type(screen.getByLabelText('Last name'), 'Novak');
  fireEvent.change(screen.getByLabelText('Date of birth'), { target: { value: '1990-04-12' } });
}

describe('the demo storefront (/merchant-site)', () => {
  it('pays through the merchant API: a token for the key, a link with an Idempotency-Key, then the hosted page', async () => {
    let tokenTries = 0;
    const fetch = mockApi({
      '/api/token': () =>
        ++tokenTries === 1
          ? { status: 401, body: { error: [PAYIN_MSG.apiKeyInvalid] } }
          : { body: { access_token: 'mt_abc.def', token_type: 'Bearer', expires_in: 900 } },
      '/api/create-payin-link': () => ({ status: 201, body: link }),
    });
    const assign = vi.fn();
    vi.stubGlobal('location', { ...window.location, assign, origin: 'http://localhost:3000' });
    renderApp('/merchant-site');
    expect(await screen.findByRole('heading', { name: 'Checkout' })).toBeTruthy();
    await userEvent.click(screen.getByRole('radio', { name: /Stoneware mug/ }));
    await userEvent.click(screen.getByRole('radio', { name: /Espresso beans/ }));
    await fill();

    // without a key: refused before any call
    await userEvent.click(screen.getByRole('button', { name: 'Pay €24.90' }));
    expect(await screen.findByText(PAYIN_MSG.apiKeyMissing)).toBeTruthy();
    expect(callsTo(fetch, '/api/token')).toHaveLength(0);

    await userEvent.type(screen.getByLabelText('Merchant API key'), 'pk_wrong:sk_wrong');
    await userEvent.click(screen.getByRole('button', { name: 'Pay €24.90' }));
    expect(await screen.findByText(PAYIN_MSG.apiKeyInvalid)).toBeTruthy();
    expect(assign).not.toHaveBeenCalled();

    await userEvent.click(screen.getByRole('button', { name: 'Pay €24.90' }));
    await waitFor(() => expect(assign).toHaveBeenCalledWith(link.url));
    const tokenCall = fetch.mock.calls.filter(([u]) => u === '/api/token').at(-1)!;
    expect((tokenCall[1]!.headers as Record<string, string>)['x-api-key']).toBe('pk_wrong:sk_wrong');
    const [linkCall] = fetch.mock.calls.filter(([u]) => u === '/api/create-payin-link');
    const headers = linkCall[1]!.headers as Record<string, string>;
    expect(headers.authorization).toBe('Bearer mt_abc.def');
    expect(headers['idempotency-key']).toMatch(/^[0-9a-f-]{36}$/);
    expect(callsTo(fetch, '/api/create-payin-link')[0]).toMatchObject({
      amount: 2490,
      first_name: 'Ana',
      last_name: 'Novak',
      date_of_birth: '1990-04-12',
      reference: expect.stringMatching(/^shop-/),
      return_url: expect.stringMatching(/^http:\/\/localhost:3000\/merchant-site\?order=shop-/),
    });
  }, 60_000);

  it('sends a cashback reward to the buyer’s wallet and a staff card payment as CardEye, checking both first', async () => {
    const fetch = mockApi({
      '/api/token': () => ({ body: { access_token: 'mt_abc.def', token_type: 'Bearer', expires_in: 900 } }),
      '/api/create-payin-link': () => ({ status: 201, body: { ...link, channel: 'CardEye' } }),
    });
    const assign = vi.fn();
    vi.stubGlobal('location', { ...window.location, assign, origin: 'http://localhost:3000' });
    renderApp('/merchant-site');
    await screen.findByRole('heading', { name: 'Checkout' });
    await fill();
    await userEvent.type(screen.getByLabelText('Merchant API key'), 'pk_a:sk_b');
    await userEvent.type(screen.getByLabelText(/Obol wallet for 5% cashback/), '12');
    await userEvent.click(screen.getByRole('switch', { name: 'Card payment taken by our staff (CardEye)' }));
    await userEvent.click(screen.getByRole('button', { name: 'Pay €24.90' }));
    // a wallet that is not 9 digits and no staff member: refused here, before any call
    expect(await screen.findByText('Invalid Obol Id')).toBeTruthy();
    expect(await screen.findByText(PAYIN_MSG.requestedBy)).toBeTruthy();
    expect(callsTo(fetch, '/api/token')).toHaveLength(0);

    await userEvent.type(screen.getByLabelText(/Obol wallet for 5% cashback/), '3456789');
    expect(screen.getByText('€1.24 back to this wallet once paid')).toBeTruthy();
    await userEvent.type(screen.getByLabelText('Staff member or till'), 'Till 4');
    await userEvent.click(screen.getByRole('button', { name: 'Pay €24.90' }));
    await waitFor(() => expect(assign).toHaveBeenCalledWith(link.url));
    expect(callsTo(fetch, '/api/create-payin-link')[0]).toMatchObject({
      amount: 2490,
      user_obol_id: '123456789',
      reward_amount: 124,
      channel: 'CardEye',
      requested_by: 'Till 4',
    });
  }, 60_000);

  it('shows the outcome when the payment page sends the buyer back', async () => {
    mockApi({});
    renderApp('/merchant-site?order=shop-1&status=Declined');
    expect((await screen.findByTestId('order-result')).textContent).toContain('Order shop-1: not paid (Declined)');
  }, 60_000);

  it('shows the events its webhook address received, each signature checked with the pasted secret', async () => {
    const inbox = 'ab'.repeat(16);
    localStorage.setItem(INBOX_STORE, inbox);
    const body = JSON.stringify({
      id: 'evt_41',
      type: 'payin.completed',
      created: 1_795_000_000,
      data: { object: { kind: 'payin', id: 'pl_000007', status: 'Completed', amount: 1200, currency: 'EUR' } },
    });
    const t = 1_795_000_001;
    const v1 = createHmac('sha256', 'whsec_right').update(`${t}.${body}`).digest('hex');
    mockApi({
      [`/api/demo-shop/${inbox}/events`]: () => ({
        body: {
          data: [
            {
              event_id: 'evt_41',
              event: 'payin.completed',
              body,
              signature: `t=${t},v1=${v1}`,
              times: 2,
              received_at: '2026-11-29T04:00:00.000Z',
            },
          ],
        },
      }),
    });
    renderApp('/merchant-site');
    await screen.findByRole('region', { name: 'Events this shop received' });
    expect((screen.getByLabelText('Webhook address') as HTMLInputElement).value).toBe(
      `${window.location.origin}/api/demo-shop/${inbox}/webhook`,
    );
    const list = await screen.findByRole('list', { name: 'Received events' });
    await waitFor(() => expect(list.textContent).toContain('payin.completed'));
    expect(list.textContent).toContain('payin pl_000007 · Completed · €12.00');
    expect(list.textContent).toContain('received 2 times');
    expect(list.textContent).toContain('Paste the signing secret to check it');

    await userEvent.type(screen.getByLabelText('Signing secret'), 'whsec_wrong');
    await waitFor(() => expect(list.textContent).toContain('Signature does not match this secret'));
    await userEvent.clear(screen.getByLabelText('Signing secret'));
    await userEvent.type(screen.getByLabelText('Signing secret'), 'whsec_right');
    await waitFor(() => expect(list.textContent).toContain('Signature verified'));
  }, 60_000);
});
