import { ALL_PERMISSIONS, DEFAULT_ROLE_PERMISSIONS } from '@obol/contract';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { callsTo, mockApi, renderApp, signInAs } from '../../test-utils.tsx';

const writeText = vi.fn(async (_text: string) => undefined);
beforeEach(() => {
  writeText.mockClear();
  // user-event installs its own clipboard on setup; ours is defined on the instance, so it wins
  Object.defineProperty(window.navigator, 'clipboard', { value: { writeText }, configurable: true });
});
afterEach(() => vi.restoreAllMocks());

const overview = () => ({
  body: { account_reference: 'ACME-0001', public_key_masked: 'pk_AbCd…WxYz', created_at: '2026-11-01T10:00:00.000Z' },
});
/** The profile's passkeys card lists none (its own tests cover it). */
const noPasskeys = () => ({ body: { data: [], total: 0 } });
const keys = {
  user_verified: 1,
  public_key: 'pk_AbCdEfGhIjKlMnOpQrStUvWxYz012345',
  private_key: 'sk_private0123456789abcdefghijklmnopqrstuvwxyzAB',
  account_reference: 'ACME-0001',
  message: ['Keys decrypted'],
};
const signInMerchant = () =>
  signInAs(DEFAULT_ROLE_PERMISSIONS.Merchant, { role: 'Merchant', email: 'merchant@obol.example', name: 'Acme' });

describe("a merchant's own API key", () => {
  it('shows the account reference and the masked key; copying before the reveal says Decrypt Keys first.', async () => {
    mockApi({ '/api/api-key-overview': overview, '/api/passkeys': noPasskeys });
    signInMerchant();
    renderApp('/user-profile');
    expect(await screen.findByText('ACME-0001')).toBeTruthy();
    expect(screen.getByTestId('public-key').textContent).toBe('pk_AbCd…WxYz');
    expect(screen.getByTestId('private-key').textContent).not.toContain('sk_');
    await userEvent.click(screen.getByRole('button', { name: 'Copy the private key' }));
    expect((await screen.findByRole('alert')).textContent).toContain('Decrypt Keys first.');
    expect(writeText).not.toHaveBeenCalled();
  });

  it('reveals the keys after the password (Required., Incorrect Password.), then copies them', async () => {
    let calls = 0;
    const fetch = mockApi({
      '/api/passkeys': noPasskeys,
      '/api/api-key-overview': overview,
      '/api/api-key': () =>
        ++calls === 1
          ? {
              status: 400,
              body: { error: ['Incorrect Password.'], fields: { current_password: ['Incorrect Password.'] } },
            }
          : { body: keys },
    });
    signInMerchant();
    renderApp('/user-profile');
    await userEvent.click(await screen.findByRole('button', { name: 'Reveal keys' }));
    const dialog = await screen.findByRole('dialog', { name: 'Reveal API keys' });
    await userEvent.click(within(dialog).getByRole('button', { name: 'Reveal' }));
    expect(await within(dialog).findByText('Required.')).toBeTruthy();
    expect(callsTo(fetch, '/api/api-key')).toHaveLength(0);
    const field = within(dialog).getByLabelText('Password');
    await userEvent.type(field, 'wrong{Enter}');
    expect(await within(dialog).findByText('Incorrect Password.')).toBeTruthy();
    expect(screen.getByTestId('private-key').textContent).not.toContain('sk_');
    await userEvent.clear(field);
    await userEvent.type(field, 'Obol@2026{Enter}');
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(callsTo(fetch, '/api/api-key')).toEqual([
      { current_password: 'wrong', email: 'merchant@obol.example' },
      { current_password: 'Obol@2026', email: 'merchant@obol.example' },
    ]);
    expect(screen.getByTestId('public-key').textContent).toBe(keys.public_key);
    expect(screen.getByTestId('private-key').textContent).toBe(keys.private_key);

    await userEvent.click(screen.getByRole('button', { name: 'Copy the private key' }));
    await waitFor(() => expect(writeText).toHaveBeenCalledWith(keys.private_key));
    expect((await screen.findByRole('alert')).textContent).toContain('Copied To Clipboard.');

    // hiding forgets them: copying refuses again
    await userEvent.click(screen.getByRole('button', { name: 'Hide keys' }));
    expect(screen.getByTestId('public-key').textContent).toBe('pk_AbCd…WxYz');
    writeText.mockClear();
    await userEvent.click(screen.getByRole('button', { name: 'Copy the public key' }));
    await waitFor(() =>
      expect(screen.getAllByRole('alert').some((a) => a.textContent?.includes('Decrypt Keys first.'))).toBe(true),
    );
    expect(writeText).not.toHaveBeenCalled();
  });

  it('lets a brand rotate its own key after the password, showing the new pair and until when the old one works', async () => {
    const fetch = mockApi({
      '/api/passkeys': noPasskeys,
      '/api/api-key-overview': overview,
      '/api/rotate-api-key': () => ({
        body: {
          public_key: 'pk_NewNewNewNewNewNewNewNewNew0001',
          private_key: 'sk_newprivate0123456789abcdefghijklmnopqrstuv',
          previous_public_key_masked: 'pk_AbCd…WxYz',
          previous_valid_until: '2026-11-27T10:00:00.000Z',
          message: ['API keys rotated'],
        },
      }),
    });
    signInAs(DEFAULT_ROLE_PERMISSIONS.Brand, { role: 'Brand', email: 'brand@obol.example', name: 'Acme Brand' });
    renderApp('/user-profile');
    await userEvent.click(await screen.findByRole('button', { name: 'Rotate keys' }));
    const dialog = await screen.findByRole('dialog', { name: 'Rotate API keys' });
    expect(dialog.textContent).toContain('keeps working for 24 hours');
    await userEvent.type(within(dialog).getByLabelText('Password'), 'Obol@2026{Enter}');
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(callsTo(fetch, '/api/rotate-api-key')).toEqual([{ current_password: 'Obol@2026' }]);
    expect(screen.getByTestId('public-key').textContent).toBe('pk_NewNewNewNewNewNewNewNewNew0001');
    expect(screen.getByTestId('private-key').textContent).toBe('sk_newprivate0123456789abcdefghijklmnopqrstuv');
    expect(screen.getByText(/The previous public key keeps working until/)).toBeTruthy();
  });

  it('shows when to retry after too many reveals', async () => {
    mockApi({
      '/api/passkeys': noPasskeys,
      '/api/api-key-overview': overview,
      '/api/api-key': () => ({ status: 429, body: { error: ['Too many requests. Please try again in 9 minutes.'] } }),
    });
    signInMerchant();
    renderApp('/user-profile');
    await userEvent.click(await screen.findByRole('button', { name: 'Reveal keys' }));
    const dialog = await screen.findByRole('dialog', { name: 'Reveal API keys' });
    await userEvent.type(within(dialog).getByLabelText('Password'), 'Obol@2026{Enter}');
    expect(await within(dialog).findByText('Too many requests. Please try again in 9 minutes.')).toBeTruthy();
  });

  it('is not shown to staff, who have no key of their own', async () => {
    const fetch = mockApi();
    signInAs(ALL_PERMISSIONS, { role: 'Admin' });
    renderApp('/user-profile');
    expect(await screen.findByRole('heading', { name: 'User Profile' })).toBeTruthy();
    expect(screen.queryByRole('heading', { name: 'API key' })).toBeNull();
    expect(callsTo(fetch, '/api/api-key-overview')).toHaveLength(0);
  });
});
