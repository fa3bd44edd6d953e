import { ALL_PERMISSIONS, type PayoutRow } from '@obol/contract';
import { screen, waitFor } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { callsTo, mockApi, renderApp, signInAs } from '../test-utils.tsx';

vi.setConfig({ testTimeout: 20_000 });

const row = (status: PayoutRow['status']): PayoutRow => ({
  id: 7,
  beneficiary_name: 'Ana Novak',
  brand: 'Acme Brand',
  behalf_of: 'Acme Payouts',
  uploaded_by: 'Mia Manager',
  account_used: 'Main account',
  merchant_transaction_id: 'M-7',
  intergiro_trx_id: 'IG-7',
  reference: 'Invoice 7',
  account_id: '100000007',
  batch_id: null,
  currency: 'EUR',
  amount: 2550,
  fee: 25,
  status,
  updated_at: '2026-11-28T10:00:00Z',
});

/** A server's event stream the test writes to, as GET /api/events answers it. */
function eventStream() {
  let push!: (frame: string) => void;
  const stream = new ReadableStream<Uint8Array>({
    start(c) {
      const enc = new TextEncoder();
      push = (frame) => c.enqueue(enc.encode(frame));
      push(': connected\n\n');
    },
  });
  return { stream, push };
}

describe('the live stream', () => {
  it('turns a payout row Completed in place when its event arrives, and marks it for a moment', async () => {
    let status: PayoutRow['status'] = 'Processing';
    const events = eventStream();
    const fetch = mockApi({
      '/api/events': () => ({ text: events.stream, headers: { 'content-type': 'text/event-stream' } }),
      '/api/payout-transactions': () => ({
        body: {
          transactions: { data: [row(status)], total: 1, total_estimated: false },
          next_cursor: null,
          prev_cursor: null,
        },
      }),
      '/api/brand-list': () => ({ body: { brand: [] } }),
    });
    signInAs(ALL_PERMISSIONS);
    renderApp('/payout-transactions');
    expect((await screen.findAllByText('Processing')).length).toBeGreaterThan(0);
    const listed = callsTo(fetch, '/api/payout-transactions').length;
    // the stream sends the bearer token like every call, never in the URL
    const opened = fetch.mock.calls.find(([u]) => String(u) === '/api/events')!;
    expect((opened[1]?.headers as Record<string, string>).authorization).toMatch(/^Bearer /);

    status = 'Completed';
    events.push(
      'id: 41\nevent: payout\ndata: {"kind":"payout","id":"7","status":"Completed","amount":2550,"at":"2026-11-28T10:00:01Z"}\n\n',
    );
    // refetched once, in place: the row reads Completed and is marked for a moment
    await waitFor(() => expect(callsTo(fetch, '/api/payout-transactions').length).toBe(listed + 1));
    await waitFor(() => expect(screen.queryAllByText('Processing')).toEqual([]));
    expect(document.querySelector('tr[data-fresh]')).not.toBeNull();
    await waitFor(() => expect(document.querySelector('tr[data-fresh]')).toBeNull(), { timeout: 5000 });
  });
});
