import { ALL_PERMISSIONS, DEFAULT_ROLE_PERMISSIONS } from '@obol/contract';
import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { markActivity } from '../lib/api.ts';
import { sessionStore } from '../lib/session.ts';
import { callsTo, mockApi, pathname, renderApp, signInAs } from '../test-utils.tsx';
import { secondsLeft, warnAt } from './IdleWarning.tsx';

describe('the session', () => {
  it('a 401 on an authenticated call clears everything, says Session expired and goes to /signin', async () => {
    mockApi({
      '/api/auth-permission': () => ({ status: 401, body: { error: ['Session expired'] } }),
      '/api/users': () => ({ status: 401, body: { error: ['Session expired'] } }),
    });
    signInAs(ALL_PERMISSIONS);
    sessionStorage.setItem('obol.challenge', '{}');
    renderApp('/users');
    await waitFor(() => expect(pathname()).toBe('/signin'));
    expect((await screen.findByRole('alert')).textContent).toContain('Session expired');
    expect(localStorage.getItem('obol.token')).toBeNull();
    expect(localStorage.getItem('obol.session')).toBeNull();
    expect(sessionStorage.getItem('obol.challenge')).toBeNull();
    expect(sessionStore.get()).toBeNull();
  });

  it('survives a reload: the stored session is read back', () => {
    signInAs(ALL_PERMISSIONS, { name: 'Ada Admin' });
    sessionStore.reload();
    expect(sessionStore.get()?.token).toBe('token-1');
    expect(sessionStore.get()?.user.name).toBe('Ada Admin');
    expect(sessionStore.get()?.permissions).toHaveLength(ALL_PERMISSIONS.length);
  });

  it('keeps and clears the current batch', () => {
    signInAs(ALL_PERMISSIONS);
    const batch = {
      batch_id: 'B1',
      merchant_name: 'Acme',
      file_name: 'march.csv',
      account_reference: 'ACC-1',
      batch_status: 'Pending',
    };
    sessionStore.setBatch(batch);
    sessionStore.reload();
    expect(sessionStore.get()?.batch).toEqual(batch);
    sessionStore.setBatch(null);
    expect(sessionStore.get()?.batch).toBeNull();
  });

  it('re-fetches the permissions on every route change and applies them', async () => {
    const fetch = mockApi({
      '/api/auth-permission': () => ({
        body: {
          status: true,
          data: { permission: ['User can view profile', 'User can view transactions'] },
          session: sessionStore.get()?.timing,
        },
      }),
    });
    signInAs(ALL_PERMISSIONS);
    renderApp('/user-profile');
    await waitFor(() => expect(callsTo(fetch, '/api/auth-permission')).toHaveLength(1));
    // the revoked menus disappear
    await waitFor(() => expect(screen.queryByRole('link', { name: 'Users' })).toBeNull());
    const nav = screen.getByRole('navigation', { name: 'Main menu' });
    await userEvent.click(within(nav).getByRole('button', { name: 'Transactions' }));
    await userEvent.click(within(nav).getByRole('link', { name: 'Recent Batches' }));
    await waitFor(() => expect(callsTo(fetch, '/api/auth-permission')).toHaveLength(2));
    expect(pathname()).toBe('/recent-batches');
  });

  it('logs out from the user menu', async () => {
    const fetch = mockApi({ '/api/logout': () => ({ body: { message: ['Logged out'] } }) });
    signInAs(ALL_PERMISSIONS);
    renderApp('/user-profile');
    await userEvent.click(screen.getByRole('button', { name: /^Account menu/ }));
    expect(screen.getByRole('menuitem', { name: 'User Profile' })).toBeTruthy();
    await userEvent.click(screen.getByRole('menuitem', { name: 'Logout' }));
    await waitFor(() => expect(pathname()).toBe('/signin'));
    expect(callsTo(fetch, '/api/logout')).toHaveLength(1);
    expect(localStorage.getItem('obol.token')).toBeNull();
  });

  it('opens the menus in the mobile drawer', async () => {
    mockApi();
    signInAs(DEFAULT_ROLE_PERMISSIONS.Merchant, { role: 'Merchant', name: 'Acme Merchant' });
    renderApp('/user-profile');
    await userEvent.click(screen.getByRole('button', { name: 'Open menu' }));
    const drawer = await screen.findByRole('presentation');
    await userEvent.click(within(drawer).getByRole('button', { name: 'Reports' }));
    await userEvent.click(within(drawer).getByRole('link', { name: 'Download Reports' }));
    await waitFor(() => expect(pathname()).toBe('/download-reports'));
    expect(await screen.findByRole('heading', { name: 'Download Reports' })).toBeTruthy();
    // choosing a page closes the drawer
    await waitFor(() => expect(screen.queryByRole('presentation')).toBeNull());
  });
});

describe('the idle warning', () => {
  it('warns a minute before the end, or at half a timeout shorter than 2 minutes', () => {
    expect(warnAt(1800)).toBe(60);
    expect(warnAt(120)).toBe(60);
    expect(warnAt(100)).toBe(50);
    expect(warnAt(60)).toBe(30);
  });

  it('counts from the last successful call, capped by the absolute end', () => {
    const now = Date.parse('2026-01-01T12:00:00Z');
    expect(secondsLeft(1800, now - 100_000, undefined, now)).toBe(1700);
    expect(secondsLeft(1800, now, '2026-01-01T12:00:30Z', now)).toBe(30);
  });

  it('shows a countdown; Stay signed in keeps the session alive', async () => {
    const fetch = mockApi();
    signInAs(ALL_PERMISSIONS, { idle: 20 });
    renderApp('/user-profile');
    await waitFor(() => expect(callsTo(fetch, '/api/auth-permission')).toHaveLength(1));
    act(() => markActivity(Date.now() - 12_000));
    const dialog = await screen.findByRole('dialog', { name: 'Your session is about to expire' });
    expect(Number(within(dialog).getByTestId('idle-seconds').textContent)).toBeLessThanOrEqual(10);
    await userEvent.click(within(dialog).getByRole('button', { name: 'Stay signed in' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(callsTo(fetch, '/api/auth-permission')).toHaveLength(2);
    expect(sessionStore.get()).not.toBeNull();
  });

  it('ends the session at zero', async () => {
    mockApi();
    signInAs(ALL_PERMISSIONS, { idle: 20 });
    renderApp('/user-profile');
    await waitFor(() => expect(screen.getByRole('heading', { name: 'User Profile' })).toBeTruthy());
    act(() => markActivity(Date.now() - 25_000));
    await waitFor(() => expect(pathname()).toBe('/signin'));
    expect((await screen.findByRole('alert')).textContent).toContain('Session expired');
    expect(sessionStore.get()).toBeNull();
  });
});
