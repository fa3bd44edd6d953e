import { DEFAULT_ROLE_PERMISSIONS, MSG } from '@obol/contract';
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { CHALLENGE_KEY, sessionStore } from '../../lib/session.ts';
import { callsTo, mockApi, pathname, renderApp, verifyResponse } from '../../test-utils.tsx';
import { FAKE_CREDENTIAL_ID, promptClosed, stubWebAuthn } from '../../test-webauthn.ts';

afterEach(() => {
  vi.restoreAllMocks();
  vi.unstubAllGlobals();
});

const PASSKEY_LOGIN = {
  challenge_token: 'ch-pk',
  auth_type: 'passkey',
  passkey_options: {
    challenge: 'Y2hhbGxlbmdl',
    rpId: 'localhost',
    allowCredentials: [{ id: FAKE_CREDENTIAL_ID, type: 'public-key', transports: ['internal'] }],
    userVerification: 'preferred',
  },
  message: ['Confirm with your passkey'],
};

async function signInWithPasskey() {
  renderApp('/signin');
  await userEvent.type(screen.getByLabelText('Email'), 'ada@obol.example');
  await userEvent.type(screen.getByLabelText('Password'), 'Obol@2026');
  await userEvent.click(screen.getByRole('radio', { name: 'Passkey' }));
  await userEvent.click(screen.getByRole('button', { name: 'Sign in' }));
}

describe('signing in with a passkey', () => {
  it('runs the browser prompt right after the password and opens the session with its assertion', async () => {
    const fetch = mockApi({
      '/api/login': () => ({ body: PASSKEY_LOGIN }),
      '/api/verify-code': () => ({ body: verifyResponse(DEFAULT_ROLE_PERMISSIONS['2D Admin'], { role: '2D Admin' }) }),
    });
    const { get } = stubWebAuthn();
    await signInWithPasskey();
    await waitFor(() => expect(pathname()).toBe('/companies'));
    expect(callsTo(fetch, '/api/login')[0]).toMatchObject({ auth_type: 'passkey' });
    expect(get).toHaveBeenCalledTimes(1);
    expect(get.mock.calls[0][0].publicKey?.rpId).toBe('localhost');
    const [sent] = callsTo(fetch, '/api/verify-code') as {
      challenge_token: string;
      assertion: object;
      code?: string;
    }[];
    expect(sent.challenge_token).toBe('ch-pk');
    expect(sent.code).toBeUndefined();
    expect(sent.assertion).toMatchObject({
      id: FAKE_CREDENTIAL_ID,
      type: 'public-key',
      response: { signature: 'c2lnbmF0dXJl', authenticatorData: 'YXV0aGRhdGE' },
    });
    expect(sessionStore.get()?.user.role).toBe('2D Admin');
    expect(sessionStorage.getItem(CHALLENGE_KEY)).toBeNull();
  });

  it('says so when the prompt is cancelled, and stays signed out', async () => {
    const fetch = mockApi({ '/api/login': () => ({ body: PASSKEY_LOGIN }) });
    const { get } = stubWebAuthn();
    get.mockRejectedValueOnce(promptClosed());
    await signInWithPasskey();
    await waitFor(() =>
      expect(screen.getAllByRole('alert').some((a) => a.textContent === MSG.passkeyCancelled)).toBe(true),
    );
    expect(callsTo(fetch, '/api/verify-code')).toHaveLength(0);
    expect(sessionStore.get()).toBeNull();
    expect(pathname()).toBe('/signin');
  });

  it("shows the server's refusal for an account without a passkey", async () => {
    mockApi({ '/api/login': () => ({ status: 422, body: { error: [MSG.noPasskey] } }) });
    stubWebAuthn();
    await signInWithPasskey();
    await waitFor(() => expect(screen.getAllByRole('alert').some((a) => a.textContent === MSG.noPasskey)).toBe(true));
  });

  it('shows a rejected assertion', async () => {
    mockApi({
      '/api/login': () => ({ body: PASSKEY_LOGIN }),
      '/api/verify-code': () => ({ status: 401, body: { error: [MSG.passkeyInvalid] } }),
    });
    stubWebAuthn();
    await signInWithPasskey();
    await waitFor(() =>
      expect(screen.getAllByRole('alert').some((a) => a.textContent === MSG.passkeyInvalid)).toBe(true),
    );
    expect(sessionStore.get()).toBeNull();
  });

  it('says so in a browser without passkeys', async () => {
    mockApi({ '/api/login': () => ({ body: PASSKEY_LOGIN }) });
    await signInWithPasskey();
    await waitFor(() =>
      expect(screen.getAllByRole('alert').some((a) => a.textContent === MSG.passkeyUnsupported)).toBe(true),
    );
  });
});
