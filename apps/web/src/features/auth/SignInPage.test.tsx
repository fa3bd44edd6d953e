import { ALL_PERMISSIONS, DEFAULT_ROLE_PERMISSIONS } from '@obol/contract';
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { CHALLENGE_KEY, sessionStore } from '../../lib/session.ts';
import { callsTo, mockApi, pathname, renderApp, signInAs, verifyResponse } from '../../test-utils.tsx';

describe('sign-in', () => {
  it('shows the validation messages under the fields and sends nothing', async () => {
    const fetch = mockApi();
    renderApp('/signin');
    await userEvent.click(screen.getByRole('button', { name: 'Sign in' }));
    expect(await screen.findAllByText('This field is required')).toHaveLength(2);
    await userEvent.type(screen.getByLabelText('Email'), 'not-an-email');
    await userEvent.click(screen.getByRole('button', { name: 'Sign in' }));
    expect(await screen.findByText('E-mail must be valid')).toBeTruthy();
    expect(fetch).not.toHaveBeenCalled();
  });

  it('offers the four second factors as radio buttons', () => {
    mockApi();
    renderApp('/signin');
    for (const f of ['E-mail code', 'Authenticator app', 'Backup code', 'Passkey'])
      expect(screen.getByRole('radio', { name: f })).toBeTruthy();
    expect((screen.getByRole('radio', { name: 'E-mail code' }) as HTMLInputElement).checked).toBe(true);
  });

  it('shows the server error of a refused login', async () => {
    mockApi({ '/api/login': () => ({ status: 401, body: { error: ['Invalid email or password'] } }) });
    renderApp('/signin');
    await userEvent.type(screen.getByLabelText('Email'), 'ada@obol.example');
    await userEvent.type(screen.getByLabelText('Password'), 'wrong');
    await userEvent.click(screen.getByRole('button', { name: 'Sign in' }));
    expect((await screen.findByRole('alert')).textContent).toContain('Invalid email or password');
    expect(pathname()).toBe('/signin');
  });

  it('stops offering the e-mailed code to an account the server says has a stronger factor', async () => {
    const refusal =
      'This account signs in with its authenticator app or passkey, not an e-mailed code. Choose another second factor.';
    const fetch = mockApi({
      '/api/login': (b) =>
        (b as { auth_type: string }).auth_type === 'email'
          ? { status: 403, body: { error: [refusal], fields: { auth_type: [refusal] } } }
          : { body: { challenge_token: 'ch-2', auth_type: 'authenticator', message: ['Enter the code'] } },
    });
    renderApp('/signin');
    await userEvent.type(screen.getByLabelText('Email'), 'ada@obol.example');
    await userEvent.type(screen.getByLabelText('Password'), 'Obol@2026');
    await userEvent.click(screen.getByRole('button', { name: 'Sign in' }));
    expect((await screen.findByRole('alert')).textContent).toContain(refusal);
    expect(screen.queryByRole('radio', { name: 'E-mail code' })).toBeNull();
    expect((screen.getByRole('radio', { name: 'Authenticator app' }) as HTMLInputElement).checked).toBe(true);
    expect(pathname()).toBe('/signin');
    // another address is still offered the e-mailed code
    await userEvent.clear(screen.getByLabelText('Email'));
    await userEvent.type(screen.getByLabelText('Email'), 'bob@obol.example');
    expect(screen.getByRole('radio', { name: 'E-mail code' })).toBeTruthy();
    await userEvent.clear(screen.getByLabelText('Email'));
    await userEvent.type(screen.getByLabelText('Email'), 'Ada@obol.example');
    await userEvent.click(screen.getByRole('button', { name: 'Sign in' }));
    await screen.findByRole('button', { name: 'Verify' });
    expect(callsTo(fetch, '/api/login')[1]).toMatchObject({ auth_type: 'authenticator' });
  });

  it("says 'Something went wrong!' for an unexpected status", async () => {
    mockApi({ '/api/login': () => ({ status: 502, body: { error: ['Bad gateway'] } }) });
    renderApp('/signin');
    await userEvent.type(screen.getByLabelText('Email'), 'ada@obol.example');
    await userEvent.type(screen.getByLabelText('Password'), 'whatever');
    await userEvent.click(screen.getByRole('button', { name: 'Sign in' }));
    expect((await screen.findByRole('alert')).textContent).toContain('Something went wrong!');
  });

  it('signs in with a backup code: login, code, session stored, Logged In, first permitted screen', async () => {
    const fetch = mockApi({
      '/api/login': (b) => ({
        body: { challenge_token: 'ch-1', auth_type: (b as { auth_type: string }).auth_type, message: ['Enter one'] },
      }),
      '/api/verify-code': () => ({ body: verifyResponse(DEFAULT_ROLE_PERMISSIONS['2D Admin'], { role: '2D Admin' }) }),
    });
    renderApp('/signin');
    await userEvent.type(screen.getByLabelText('Email'), 'Ada@Obol.example');
    await userEvent.type(screen.getByLabelText('Password'), 'Obol@2026');
    await userEvent.click(screen.getByRole('radio', { name: 'Backup code' }));
    await userEvent.click(screen.getByRole('button', { name: 'Sign in' }));
    await screen.findByRole('button', { name: 'Verify' });
    expect(pathname()).toBe('/signin/authentication');
    expect(callsTo(fetch, '/api/login')[0]).toEqual({
      email: 'ada@obol.example',
      password: 'Obol@2026',
      auth_type: 'backup',
    });
    expect(JSON.parse(sessionStorage.getItem(CHALLENGE_KEY)!)).toMatchObject({ token: 'ch-1', auth_type: 'backup' });

    await userEvent.type(screen.getByLabelText('Code'), 'ABCDE-12345');
    await userEvent.click(screen.getByRole('button', { name: 'Verify' }));
    await waitFor(() => expect(screen.getByRole('alert').textContent).toContain('Logged In'));
    expect(callsTo(fetch, '/api/verify-code')[0]).toEqual({ challenge_token: 'ch-1', code: 'ABCDE-12345' });
    expect(localStorage.getItem('obol.token')).toBe('token-1');
    expect(sessionStore.get()?.user.role).toBe('2D Admin');
    expect(sessionStorage.getItem(CHALLENGE_KEY)).toBeNull();
    // a 2D Admin cannot see Payments: the first built screen of its menus
    await waitFor(() => expect(pathname()).toBe('/companies'));
  });

  it('keeps e-mail and authenticator codes numeric', async () => {
    mockApi();
    sessionStorage.setItem(CHALLENGE_KEY, JSON.stringify({ token: 't', auth_type: 'email', merchant: false }));
    renderApp('/signin/authentication');
    const code = screen.getByLabelText('Code') as HTMLInputElement;
    await userEvent.type(code, '12a3-4567');
    expect(code.value).toBe('123456');
    expect(code.inputMode).toBe('numeric');
  });

  it('shows a wrong code under the field', async () => {
    mockApi({ '/api/verify-code': () => ({ status: 401, body: { error: ['Invalid or expired code'] } }) });
    sessionStorage.setItem(CHALLENGE_KEY, JSON.stringify({ token: 't', auth_type: 'email', merchant: false }));
    renderApp('/signin/authentication');
    await userEvent.type(screen.getByLabelText('Code'), '000000');
    await userEvent.click(screen.getByRole('button', { name: 'Verify' }));
    expect(await screen.findAllByText('Invalid or expired code')).not.toHaveLength(0);
    expect(sessionStore.get()).toBeNull();
    expect(pathname()).toBe('/signin/authentication');
  });

  it('sends /signin/authentication back to /signin when no factor was chosen', () => {
    mockApi();
    renderApp('/signin/authentication');
    expect(pathname()).toBe('/signin');
    expect(screen.getByRole('button', { name: 'Sign in' })).toBeTruthy();
  });

  it('sends a signed-in user from /signin to /payout-transactions', async () => {
    mockApi();
    signInAs(ALL_PERMISSIONS);
    renderApp('/signin');
    await waitFor(() => expect(pathname()).toBe('/payout-transactions'));
    expect(screen.getByRole('heading', { name: 'Payout Transactions' })).toBeTruthy();
  });

  it('sends a signed-in user without transactions from /signin to their first screen', async () => {
    mockApi();
    signInAs(DEFAULT_ROLE_PERMISSIONS['2D Admin'], { role: '2D Admin' });
    renderApp('/signin/authentication');
    await waitFor(() => expect(pathname()).toBe('/companies'));
  });

  it('brands /merchant-signin for merchants', () => {
    mockApi();
    renderApp('/merchant-signin');
    expect(screen.getByRole('heading', { name: 'Merchant sign-in' })).toBeTruthy();
    expect(screen.getByLabelText('Email')).toBeTruthy();
  });
});
