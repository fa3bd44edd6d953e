import {
  ALL_PERMISSIONS,
  DEFAULT_ROLE_PERMISSIONS,
  ROUTE_PERMISSIONS,
  type GuardedPath,
  type Permission,
  type VerifyCodeResponse,
} from '@obol/contract';
import { ThemeProvider, createTheme } from '@mui/material';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { cleanup, render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MemoryRouter } from 'react-router';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { sessionStore } from '../lib/session.ts';
import { NotificationsProvider } from '../ui/notifications.tsx';
import { App, SCREENS } from './App.tsx';
import { TITLES } from './paths.ts';

function signInAs(permissions: readonly Permission[], name = 'Ada Admin') {
  const r: VerifyCodeResponse = {
    accessToken: 'token',
    user: { id: 1, name, email: 'a@obol.example', role: 'Admin', parent: null, two_fa_as_otp: true },
    permission: [...permissions],
    account: null,
    batch: null,
    session: { idle_timeout_seconds: 1800, expires_at: new Date(Date.now() + 3600_000).toISOString() },
    message: [],
  };
  sessionStore.signIn(r);
}

function renderAt(path: string) {
  return render(
    <ThemeProvider theme={createTheme()}>
      <QueryClientProvider client={new QueryClient({ defaultOptions: { queries: { retry: false } } })}>
        <MemoryRouter initialEntries={[path]}>
          <NotificationsProvider>
            <App />
          </NotificationsProvider>
        </MemoryRouter>
      </QueryClientProvider>
    </ThemeProvider>,
  );
}

beforeEach(() => {
  sessionStore.clear();
  // the shell re-fetches permissions on route changes; answer with the session's own
  vi.stubGlobal(
    'fetch',
    vi.fn(
      async () =>
        new Response(
          JSON.stringify({
            status: true,
            data: { permission: sessionStore.get()?.permissions ?? [] },
            session: sessionStore.get()?.timing,
          }),
          { status: 200 },
        ),
    ),
  );
});

describe('the shell', () => {
  it('shows every menu to the admin, with the avatar initials', async () => {
    signInAs(ALL_PERMISSIONS);
    renderAt('/user-profile');
    const nav = screen.getAllByRole('navigation', { name: 'Main menu' })[0];
    for (const label of [
      'Payments',
      'Reports',
      'Transactions',
      'Users',
      'Merchants',
      'Roles & Permissions',
      'API Keys',
      'Brands',
      'Activity Logs',
      'Fee Module',
      'Accounts',
      'More',
    ]) {
      expect(
        within(nav).getByRole(
          label === 'Payments' || !['Reports', 'Transactions', 'Accounts', 'More'].includes(label) ? 'link' : 'button',
          { name: label },
        ),
      ).toBeTruthy();
    }
    expect(screen.getByRole('button', { name: 'Account menu' }).textContent).toContain('AA');
  });

  it('shows a brand only its menus', () => {
    signInAs(DEFAULT_ROLE_PERMISSIONS.Brand, 'Acme Brand');
    renderAt('/user-profile');
    const nav = screen.getAllByRole('navigation', { name: 'Main menu' })[0];
    expect(within(nav).queryByRole('link', { name: 'Users' })).toBeNull();
    expect(within(nav).queryByRole('link', { name: 'Merchants' })).toBeNull();
    expect(within(nav).queryByRole('button', { name: 'Accounts' })).toBeNull();
    expect(within(nav).getByRole('link', { name: 'Payments' })).toBeTruthy();
    expect(within(nav).getByRole('button', { name: 'Transactions' })).toBeTruthy();
  });

  it('shows "No access" with a way back for a screen without its permission', () => {
    signInAs(DEFAULT_ROLE_PERMISSIONS.Brand, 'Acme Brand');
    renderAt('/users');
    expect(screen.getByRole('heading', { name: 'No access' })).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Back to my start page' })).toBeTruthy();
  });

  it('sends a visitor without a session to the sign-in page', () => {
    renderAt('/payout-transactions');
    expect(screen.getByRole('button', { name: 'Sign in' })).toBeTruthy();
  });

  it('says an unbuilt screen is not available yet, under its title', () => {
    signInAs(ALL_PERMISSIONS);
    renderAt('/merchants');
    expect(screen.getByRole('heading', { name: 'Merchants' })).toBeTruthy();
    expect(screen.getByText('This screen is not available yet.')).toBeTruthy();
  });

  it('the no-access button leads to the first permitted screen', async () => {
    signInAs(DEFAULT_ROLE_PERMISSIONS['2D Admin'], 'Dee Admin');
    renderAt('/users');
    await userEvent.click(screen.getByRole('button', { name: 'Back to my start page' }));
    expect(await screen.findByRole('heading', { name: 'Companies' })).toBeTruthy();
  });

  it('sends /transactions-history to /batch-transactions without a current batch', async () => {
    signInAs(ALL_PERMISSIONS);
    renderAt('/transactions-history');
    expect(await screen.findByRole('heading', { name: 'Batch Transactions' })).toBeTruthy();
  });

  it('sends / to /payments and /payments/transactions to /payments without a current batch', async () => {
    signInAs(ALL_PERMISSIONS);
    renderAt('/payments/transactions');
    expect(await screen.findByRole('heading', { name: 'Payments' })).toBeTruthy();
    cleanup();
    renderAt('/');
    expect(await screen.findByRole('heading', { name: 'Payments' })).toBeTruthy();
  });

  it('gives every screen not built yet its title and the same notice', async () => {
    signInAs(ALL_PERMISSIONS);
    const paths = (Object.keys(ROUTE_PERMISSIONS) as GuardedPath[]).filter(
      (p) => !SCREENS[p] && p !== '/transactions-history',
    );
    expect(paths.length).toBeGreaterThan(15);
    for (const p of paths) {
      renderAt(p.replace(':role', 'Admin'));
      expect(screen.getByRole('heading', { level: 1, name: TITLES[p] })).toBeTruthy();
      expect(screen.getByText('This screen is not available yet.')).toBeTruthy();
      cleanup();
    }
  });

  it('sends unknown paths to /payments', () => {
    signInAs(ALL_PERMISSIONS);
    renderAt('/no/such/page');
    expect(screen.getByRole('heading', { name: 'Payments' })).toBeTruthy();
  });
});
