import { ALL_PERMISSIONS, DEFAULT_ROLE_PERMISSIONS, MSG, type ApiKeyHolderRow } from '@obol/contract';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { callsTo, closeMenu, mockApi, renderApp, rowMenuItem, signInAs, type Handler } from '../../test-utils.tsx';

vi.setConfig({ testTimeout: 30_000 });

const row = (id: number, over: Partial<ApiKeyHolderRow> = {}): ApiKeyHolderRow => ({
  id,
  name: `Merchant ${id}`,
  email: `m${id}@shop.test`,
  account_reference: `OBL000000${id}`,
  public_key_masked: `pk_abcd…wx${id}`,
  key_created_at: '2026-11-01T10:00:00.000Z',
  total_brands: 1,
  ...over,
});

function server(rows: ApiKeyHolderRow[], extra: Record<string, Handler> = {}) {
  return mockApi({
    '/api/api-and-keys': () => ({ body: { data: rows, total: rows.length } }),
    '/api/api-key-brands': () => ({ body: { data: [row(9, { name: 'Outlet Nine', total_brands: 0 })] } }),
    '/api/webhook-endpoints': () => ({ body: { data: [] } }),
    ...extra,
  });
}

describe('the API Keys screen', () => {
  it('lists masked keys for staff, refuses a copy before decrypting, and only the merchant may decrypt', async () => {
    const fetch = server([row(11), row(12)]);
    signInAs(ALL_PERMISSIONS);
    renderApp('/api-keys');
    expect(await screen.findByRole('heading', { name: 'API Keys', level: 1 })).toBeTruthy();
    expect((await screen.findAllByText('pk_abcd…wx11')).length).toBeGreaterThan(0);
    await userEvent.click(screen.getAllByRole('button', { name: 'Copy the public key of Merchant 11' })[0]);
    expect(await screen.findByText(MSG.decryptKeysFirst)).toBeTruthy();
    // three actions: a labelled Actions menu; a disabled one says why
    const decrypt = await rowMenuItem('Merchant 11', /^Decrypt keys/);
    expect(decrypt.getAttribute('aria-disabled')).toBe('true');
    expect(decrypt.textContent).toBe('Decrypt keysOnly the merchant decrypts its own keys');
    const menu = within(screen.getByRole('menu', { name: 'Actions for Merchant 11' }));
    expect(menu.getAllByRole('menuitem').map((i) => i.textContent)).toEqual([
      'Brand keys',
      'Share',
      'Decrypt keysOnly the merchant decrypts its own keys',
    ]);
    await closeMenu();
    expect(screen.queryByRole('button', { name: 'Rotate keys' })).toBeNull();
    await userEvent.type(screen.getByRole('searchbox', { name: 'Search' }), 'Acme');
    await waitFor(
      () => expect(callsTo(fetch, '/api/api-and-keys')).toContainEqual({ per_page: 10, page: 1, name: 'Acme' }),
      {
        timeout: 3000,
      },
    );
  });

  it('lets a merchant decrypt its keys (and its brands") after the password, then copy them', async () => {
    const fetch = server([row(1)], {
      '/api/api-key': (b) =>
        (b as { current_password: string }).current_password === 'right'
          ? {
              body: {
                user_verified: 1,
                public_key: 'pk_full_public',
                private_key: 'sk_full_private',
                account_reference: 'OBL0000001',
                brands: [{ id: 9, name: 'Outlet Nine', public_key: 'pk_brand', private_key: 'sk_brand' }],
                message: ['Keys decrypted'],
              },
            }
          : {
              status: 400,
              body: { error: [MSG.incorrectPassword], fields: { current_password: [MSG.incorrectPassword] } },
            },
    });
    signInAs(DEFAULT_ROLE_PERMISSIONS.Merchant, { role: 'Merchant', email: 'm1@shop.test' });
    renderApp('/api-keys');
    await userEvent.click(await rowMenuItem('Merchant 1', 'Decrypt keys'));
    const dialog = within(await screen.findByRole('dialog', { name: 'Decrypt API keys' }));
    await userEvent.click(dialog.getByRole('button', { name: 'Decrypt' }));
    expect(dialog.getByText(MSG.requiredShort)).toBeTruthy();
    await userEvent.type(dialog.getByLabelText(/Password/), 'wrong');
    await userEvent.click(dialog.getByRole('button', { name: 'Decrypt' }));
    expect(await dialog.findByText(MSG.incorrectPassword)).toBeTruthy();
    await userEvent.clear(dialog.getByLabelText(/Password/));
    await userEvent.type(dialog.getByLabelText(/Password/), 'right');
    await userEvent.click(dialog.getByRole('button', { name: 'Decrypt' }));
    expect((await screen.findAllByText('sk_full_private')).length).toBeGreaterThan(0);
    expect(callsTo(fetch, '/api/api-key')).toContainEqual({ current_password: 'right', email: 'm1@shop.test' });
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    await userEvent.click(screen.getByRole('button', { name: 'Copy the private key' }));
    expect(await screen.findByText(MSG.copied)).toBeTruthy();
    expect((await rowMenuItem('Merchant 1', /^Decrypt keys/)).textContent).toBe(
      'Decrypt keysThe keys are already decrypted',
    );
    await userEvent.click(screen.getByRole('menuitem', { name: 'Brand keys' }));
    const brands = within(await screen.findByRole('dialog', { name: 'Brands of Merchant 1' }));
    expect(await brands.findByText('sk_brand')).toBeTruthy();
  });

  it('shares keys by e-mail with the e-mail rules', async () => {
    const fetch = server([row(1)], { '/api/email-keys': () => ({ body: { message: ['Keys shared by e-mail.'] } }) });
    signInAs(ALL_PERMISSIONS);
    renderApp('/api-keys');
    await userEvent.click(await rowMenuItem('Merchant 1', 'Share'));
    const d = within(await screen.findByRole('dialog', { name: 'Share keys of Merchant 1' }));
    await userEvent.click(d.getByRole('button', { name: 'Share' }));
    expect(d.getByText(MSG.required)).toBeTruthy();
    await userEvent.type(d.getByRole('textbox', { name: /Email/ }), 'dev@');
    await userEvent.click(d.getByRole('button', { name: 'Share' }));
    expect(d.getByText(MSG.emailInvalid)).toBeTruthy();
    await userEvent.type(d.getByRole('textbox', { name: /Email/ }), 'shop.test');
    await userEvent.click(d.getByRole('button', { name: 'Share' }));
    expect(await screen.findByText('Keys shared by e-mail.')).toBeTruthy();
    expect(callsTo(fetch, '/api/email-keys')).toEqual([{ id: 1, email: 'dev@shop.test' }]);
  });

  it('rotates a merchant key after the password and shows the new pair and the grace period', async () => {
    server([row(1)], {
      '/api/rotate-api-key': () => ({
        body: {
          public_key: 'pk_new',
          private_key: 'sk_new',
          previous_public_key_masked: 'pk_abcd…wx1',
          previous_valid_until: '2026-11-25T10:00:00.000Z',
          message: ['New keys issued.'],
        },
      }),
    });
    signInAs(DEFAULT_ROLE_PERMISSIONS.Merchant, { role: 'Merchant', email: 'm1@shop.test' });
    renderApp('/api-keys');
    await userEvent.click(await screen.findByRole('button', { name: 'Rotate keys' }));
    const d = within(await screen.findByRole('dialog', { name: 'Rotate API keys' }));
    await userEvent.type(d.getByLabelText(/Password/), 'right');
    await userEvent.click(d.getByRole('button', { name: 'Rotate' }));
    expect((await screen.findAllByText('sk_new')).length).toBeGreaterThan(0);
    expect(screen.getByText(/The previous public key keeps working until/)).toBeTruthy();
  });
});
