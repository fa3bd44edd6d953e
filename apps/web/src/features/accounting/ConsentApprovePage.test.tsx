import { ACCOUNTING_MSG } from '@obol/contract';
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { callsTo, mockApi, renderApp } from '../../test-utils.tsx';

const details = {
  company_name: 'Initech',
  email: 'ops@initech.test',
  approved: false,
  accounts: [
    { name: 'Operating', account_iban: 'DE89370400440532011001', currency: 'EUR' },
    { name: 'Reserve', account_iban: 'DE89370400440532011002', currency: 'EUR' },
  ],
};

describe('the consent page (/consent-approve, public)', () => {
  it('shows the company and the accounts to be shared, and approves without a session', async () => {
    const fetch = mockApi({
      '/api/consent-details': () => ({ body: details }),
      '/api/consent-approve': () => ({ body: { message: [ACCOUNTING_MSG.consentApproved] } }),
    });
    renderApp('/consent-approve?token=tok_123');
    expect(await screen.findByRole('heading', { name: 'Approve account access', level: 1 })).toBeTruthy();
    expect(await screen.findByText('Initech')).toBeTruthy();
    expect(screen.getByText(/ops@initech\.test/)).toBeTruthy();
    expect(screen.getByText('Reserve')).toBeTruthy();
    expect(screen.getByText(/DE89370400440532011002/)).toBeTruthy();
    expect(callsTo(fetch, '/api/consent-details')).toEqual([{ token: 'tok_123' }]);
    const init = fetch.mock.calls[0][1] as RequestInit;
    expect((init.headers as Record<string, string>).authorization).toBeUndefined();
    await userEvent.click(screen.getByRole('button', { name: 'Approve' }));
    expect(await screen.findByText(ACCOUNTING_MSG.consentApproved)).toBeTruthy();
    expect(callsTo(fetch, '/api/consent-approve')).toEqual([{ token: 'tok_123' }]);
    expect(screen.queryByRole('button', { name: 'Approve' })).toBeNull();
  });

  it('says an approved link was approved, and an unknown or missing token is not valid', async () => {
    mockApi({
      '/api/consent-details': (b) =>
        (b as { token: string }).token === 'done'
          ? { body: { ...details, approved: true } }
          : { status: 404, body: { error: [ACCOUNTING_MSG.consentInvalid] } },
    });
    const { unmount } = renderApp('/consent-approve?token=done');
    expect(await screen.findByText('This account access has already been approved.')).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Approve' })).toBeNull();
    unmount();
    const second = renderApp('/consent-approve?token=nope');
    expect(await screen.findByText(ACCOUNTING_MSG.consentInvalid)).toBeTruthy();
    second.unmount();
    renderApp('/consent-approve');
    await waitFor(() => expect(screen.getByText(ACCOUNTING_MSG.consentInvalid)).toBeTruthy());
  });
});
