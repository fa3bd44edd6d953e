import { ALL_PERMISSIONS, MSG, type PasskeyRow } from '@obol/contract';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { callsTo, mockApi, renderApp, signInAs } from '../../test-utils.tsx';
import { FAKE_CREDENTIAL_ID, promptClosed, stubWebAuthn } from '../../test-webauthn.ts';

afterEach(() => {
  vi.restoreAllMocks();
  vi.unstubAllGlobals();
});

const KEY: PasskeyRow = { id: 7, name: 'Work laptop', created_at: '2026-03-01T10:00:00Z', last_used_at: null };
const OPTIONS = {
  challenge: 'Y2hhbGxlbmdl',
  rp: { name: 'Obol', id: 'localhost' },
  user: { id: 'dXNlcg', name: 'ada@obol.example', displayName: 'Ada' },
  pubKeyCredParams: [{ alg: -7, type: 'public-key' }],
  timeout: 120000,
  attestation: 'none',
  excludeCredentials: [],
};

function server(keys = [KEY], extra: Parameters<typeof mockApi>[0] = {}) {
  let list = keys;
  return mockApi({
    '/api/passkeys': () => ({ body: { data: list, total: list.length } }),
    '/api/passkey-register-options': () => ({ body: { options: OPTIONS, message: [] } }),
    '/api/passkey-register': (b) => {
      const added = {
        id: 8,
        name: (b as { name: string }).name,
        created_at: '2026-03-02T10:00:00Z',
        last_used_at: null,
      };
      list = [...list, added];
      return { status: 201, body: { passkey: added, message: [MSG.passkeyAdded] } };
    },
    ...extra,
  });
}

const card = async () => {
  signInAs(ALL_PERMISSIONS);
  renderApp('/user-profile');
  return screen.findByRole('heading', { name: 'Passkeys' });
};

describe('the passkeys card', () => {
  it('lists each passkey with its name, when it was added and last used', async () => {
    server([KEY, { ...KEY, id: 9, name: 'YubiKey', last_used_at: '2026-03-05T08:30:00Z' }]);
    await card();
    const list = await screen.findByRole('list', { name: 'Your passkeys' });
    const items = within(list).getAllByRole('listitem');
    expect(items).toHaveLength(2);
    expect(items[0].textContent).toContain('Work laptop');
    expect(items[0].textContent).toMatch(/Added 2026-03-01 \d\d:00:00 · Last used never/);
    expect(items[1].textContent).toMatch(/Last used 2026-03-05/);
  });

  it('adds one: name and password, then the browser prompt, then the server keeps it', async () => {
    const fetch = server([]);
    const { create } = stubWebAuthn();
    await card();
    expect(await screen.findByText('No passkeys yet.')).toBeTruthy();
    await userEvent.click(screen.getByRole('button', { name: 'Add a passkey' }));
    const dialog = await screen.findByRole('dialog', { name: 'Add a passkey' });
    await userEvent.click(within(dialog).getByRole('button', { name: 'Continue' }));
    expect(within(dialog).getAllByText(MSG.required)).toHaveLength(2);
    expect(callsTo(fetch, '/api/passkey-register-options')).toHaveLength(0);

    await userEvent.type(within(dialog).getByLabelText('Name'), 'Phone');
    await userEvent.type(within(dialog).getByLabelText('Password'), 'Obol@2026');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Continue' }));
    expect(await screen.findByText(MSG.passkeyAdded)).toBeTruthy();
    expect(callsTo(fetch, '/api/passkey-register-options')).toEqual([{ current_password: 'Obol@2026' }]);
    expect(create).toHaveBeenCalledTimes(1);
    expect(create.mock.calls[0][0].publicKey?.rp).toEqual({ name: 'Obol', id: 'localhost' });
    const [sent] = callsTo(fetch, '/api/passkey-register') as { name: string; response: { id: string } }[];
    expect(sent.name).toBe('Phone');
    expect(sent.response).toMatchObject({ id: FAKE_CREDENTIAL_ID, rawId: FAKE_CREDENTIAL_ID, type: 'public-key' });
    expect(await screen.findByText('Phone')).toBeTruthy();
  });

  it('shows a wrong password under its field and never opens the prompt', async () => {
    server([], {
      '/api/passkey-register-options': () => ({
        status: 400,
        body: { error: [MSG.incorrectPassword], fields: { current_password: [MSG.incorrectPassword] } },
      }),
    });
    const { create } = stubWebAuthn();
    await card();
    await userEvent.click(screen.getByRole('button', { name: 'Add a passkey' }));
    const dialog = await screen.findByRole('dialog', { name: 'Add a passkey' });
    await userEvent.type(within(dialog).getByLabelText('Name'), 'Phone');
    await userEvent.type(within(dialog).getByLabelText('Password'), 'wrong');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Continue' }));
    expect(await within(dialog).findByText(MSG.incorrectPassword)).toBeTruthy();
    expect(create).not.toHaveBeenCalled();
  });

  it('says so when the prompt is cancelled, and keeps nothing', async () => {
    const fetch = server([]);
    const { create } = stubWebAuthn();
    create.mockRejectedValueOnce(promptClosed());
    await card();
    await userEvent.click(screen.getByRole('button', { name: 'Add a passkey' }));
    const dialog = await screen.findByRole('dialog', { name: 'Add a passkey' });
    await userEvent.type(within(dialog).getByLabelText('Name'), 'Phone');
    await userEvent.type(within(dialog).getByLabelText('Password'), 'Obol@2026');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Continue' }));
    expect(await within(dialog).findByText(MSG.passkeyCancelled)).toBeTruthy();
    expect(callsTo(fetch, '/api/passkey-register')).toHaveLength(0);
  });

  it('removes one after a confirmation with the password', async () => {
    const fetch = server([KEY], {
      '/api/delete-passkey': () => ({ body: { message: [MSG.passkeyRemoved] } }),
    });
    await card();
    await userEvent.click(await screen.findByRole('button', { name: 'Remove Work laptop' }));
    const dialog = await screen.findByRole('dialog', { name: 'Remove passkey?' });
    expect(dialog.textContent).toContain('“Work laptop” will no longer sign you in');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Remove passkey' }));
    expect(within(dialog).getByText(MSG.required)).toBeTruthy();
    await userEvent.type(within(dialog).getByLabelText('Password'), 'Obol@2026');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Remove passkey' }));
    expect(await screen.findByText(MSG.passkeyRemoved)).toBeTruthy();
    expect(callsTo(fetch, '/api/delete-passkey')).toEqual([{ id: 7, current_password: 'Obol@2026' }]);
  });

  it('renames one', async () => {
    const fetch = server([KEY], {
      '/api/rename-passkey': (b) => ({
        body: { passkey: { ...KEY, name: (b as { name: string }).name }, message: [MSG.passkeyRenamed] },
      }),
    });
    await card();
    await userEvent.click(await screen.findByRole('button', { name: 'Rename Work laptop' }));
    const dialog = await screen.findByRole('dialog', { name: 'Rename passkey' });
    const field = within(dialog).getByLabelText('Name');
    await userEvent.clear(field);
    await userEvent.type(field, 'Old laptop');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Rename' }));
    await waitFor(() => expect(callsTo(fetch, '/api/rename-passkey')).toEqual([{ id: 7, name: 'Old laptop' }]));
    expect(await screen.findByText(MSG.passkeyRenamed)).toBeTruthy();
  });
});
