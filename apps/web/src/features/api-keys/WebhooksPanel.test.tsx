import {
  DEFAULT_ROLE_PERMISSIONS,
  WEBHOOK_EVENTS,
  WEBHOOK_MSG,
  type WebhookAttemptRow,
  type WebhookEndpointRow,
} from '@obol/contract';
import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { callsTo, mockApi, renderApp, signInAs } from '../../test-utils.tsx';

vi.setConfig({ testTimeout: 30_000 });

const endpoint = (id: number, over: Partial<WebhookEndpointRow> = {}): WebhookEndpointRow => ({
  id,
  url: `https://shop.example/hooks/${id}`,
  events: ['payin.completed', 'refund.completed'],
  status: 'Enabled',
  failing_since: null,
  previous_secret_expires_at: null,
  created_at: '2026-11-20T10:00:00.000Z',
  ...over,
});

const attempt = (over: Partial<WebhookAttemptRow> = {}): WebhookAttemptRow => ({
  delivery_id: 41,
  attempt: 1,
  event_id: 'evt_901',
  event: 'payin.completed',
  object_id: '77',
  delivery_status: 'Pending',
  at: '2026-11-28T10:00:00.000Z',
  response_status: 500,
  response: 'not today',
  duration_ms: 12,
  ...over,
});

describe('webhooks on the API Keys screen', () => {
  it('adds an endpoint with the events chosen and shows its secret once', async () => {
    const list: WebhookEndpointRow[] = [];
    const fetch = mockApi({
      '/api/api-and-keys': () => ({ body: { data: [], total: 0 } }),
      '/api/webhook-endpoints': () => ({ body: { data: list } }),
      '/api/create-webhook-endpoint': (b) => {
        const body = b as { url: string; events: WebhookEndpointRow['events'] };
        if (body.url.includes('127.0.0.1'))
          return { status: 422, body: { error: [WEBHOOK_MSG.urlPrivate], fields: { url: [WEBHOOK_MSG.urlPrivate] } } };
        const made = endpoint(5, { url: body.url, events: body.events });
        list.push(made);
        return { status: 201, body: { message: [WEBHOOK_MSG.created], endpoint: made, secret: 'whsec_once' } };
      },
    });
    signInAs(DEFAULT_ROLE_PERMISSIONS.Merchant, { role: 'Merchant', email: 'm1@shop.test' });
    renderApp('/api-keys');
    expect(await screen.findByText(/No endpoints yet/)).toBeTruthy();
    // the empty list's own next step
    const table = within(screen.getByRole('table', { name: 'Webhook endpoints' }));
    await userEvent.click(table.getByRole('button', { name: 'Add endpoint' }));
    const dialog = within(await screen.findByRole('dialog', { name: 'Add webhook endpoint' }));
    // every event is chosen to start with; none is refused by the form
    for (const label of ['Pay-in completed', 'Payout failed', 'Transfer failed'])
      expect((dialog.getByRole('checkbox', { name: label }) as HTMLInputElement).checked).toBe(true);
    for (const cb of dialog.getAllByRole('checkbox')) await userEvent.click(cb);
    await userEvent.type(dialog.getByRole('textbox', { name: /Endpoint URL/ }), 'not a url');
    await userEvent.click(dialog.getByRole('button', { name: 'Add endpoint' }));
    expect(dialog.getByText(WEBHOOK_MSG.url)).toBeTruthy();
    expect(dialog.getByText(WEBHOOK_MSG.events)).toBeTruthy();
    expect(callsTo(fetch, '/api/create-webhook-endpoint')).toEqual([]);

    await userEvent.click(dialog.getByRole('checkbox', { name: 'Pay-in completed' }));
    await userEvent.click(dialog.getByRole('checkbox', { name: 'Refund completed' }));
    const url = dialog.getByRole('textbox', { name: /Endpoint URL/ });
    await userEvent.clear(url);
    await userEvent.type(url, 'https://127.0.0.1/hooks');
    await userEvent.click(dialog.getByRole('button', { name: 'Add endpoint' }));
    expect(await dialog.findByText(WEBHOOK_MSG.urlPrivate)).toBeTruthy();
    await userEvent.clear(url);
    await userEvent.type(url, 'https://shop.example/obol');
    await userEvent.click(dialog.getByRole('button', { name: 'Add endpoint' }));

    expect(await screen.findByText('whsec_once')).toBeTruthy();
    expect(callsTo(fetch, '/api/create-webhook-endpoint').at(-1)).toEqual({
      url: 'https://shop.example/obol',
      events: ['payin.completed', 'refund.completed'],
    });
    expect((await screen.findAllByText('payin.completed, refund.completed')).length).toBeGreaterThan(0);
    await userEvent.click(screen.getByRole('button', { name: 'Done' }));
    expect(screen.queryByText('whsec_once')).toBeNull();
    expect(WEBHOOK_EVENTS).toHaveLength(9);
  });

  it('shows the delivery log with the answers and resends one', async () => {
    const fetch = mockApi({
      '/api/api-and-keys': () => ({ body: { data: [], total: 0 } }),
      '/api/webhook-endpoints': () => ({
        body: { data: [endpoint(3, { failing_since: '2026-11-28T09:00:00.000Z' })] },
      }),
      '/api/webhook-deliveries': () => ({
        body: {
          data: [
            attempt({ attempt: 2, response_status: null, response: 'No answer in 10 s' }),
            attempt({ attempt: 1 }),
          ],
          total: 2,
        },
      }),
      '/api/resend-webhook': () => ({ body: { message: [WEBHOOK_MSG.resent] } }),
    });
    signInAs(DEFAULT_ROLE_PERMISSIONS.Merchant, { role: 'Merchant', email: 'm1@shop.test' });
    renderApp('/api-keys');
    expect((await screen.findAllByText('Failing')).length).toBeGreaterThan(0);
    await userEvent.click(screen.getAllByRole('button', { name: 'Deliveries to https://shop.example/hooks/3' })[0]);
    const dialog = within(await screen.findByRole('dialog', { name: /Deliveries to/ }));
    expect((await dialog.findAllByText('No answer in 10 s')).length).toBeGreaterThan(0);
    expect(dialog.getAllByText('500 not today').length).toBeGreaterThan(0);
    expect(callsTo(fetch, '/api/webhook-deliveries')[0]).toEqual({ endpoint_id: 3, per_page: 10, page: 1 });
    await userEvent.click(dialog.getAllByRole('button', { name: 'Resend payin.completed evt_901' })[0]);
    expect(await screen.findByText(WEBHOOK_MSG.resent)).toBeTruthy();
    expect(callsTo(fetch, '/api/resend-webhook')).toEqual([{ delivery_id: 41 }]);
  });
});
