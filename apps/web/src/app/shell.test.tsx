import { ALL_PERMISSIONS, DEFAULT_ROLE_PERMISSIONS, ROUTE_PERMISSIONS, type GuardedPath } from '@obol/contract';
import { cleanup, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it } from 'vitest';
import { mockApi, pathname, renderApp, signInAs } from '../test-utils.tsx';
import { MAIN_ID } from '../ui/SkipLink.tsx';
import { BUILT_PATHS, TITLES, builtNavigation, firstPermittedPath, isBuilt } from './paths.ts';
import { RAIL_KEY } from './Shell.tsx';

const sidebar = () => screen.getByRole('navigation', { name: 'Main menu' });

beforeEach(() => {
  mockApi({ '/api/users': () => ({ body: { data: [], total: 0 } }) });
});

describe('the sidebar', () => {
  it('shows the admin every menu that has a built screen, grouped as the spec, with the avatar initials', () => {
    signInAs(ALL_PERMISSIONS);
    renderApp('/user-profile');
    const nav = sidebar();
    for (const label of [
      'Payments',
      'Users',
      'Merchants',
      'API Keys',
      'Activity Logs',
      'Roles & Permissions',
      'Brands',
    ])
      expect(within(nav).getByRole('link', { name: label })).toBeTruthy();
    for (const label of ['Reports', 'Transactions', 'Accounts', 'More'])
      expect(within(nav).getByRole('button', { name: label }).getAttribute('aria-expanded')).toBe('false');
    expect(screen.getByRole('button', { name: /^Account menu/ }).textContent).toContain('AA');
  });

  it('opens a group to its built pages only', async () => {
    signInAs(ALL_PERMISSIONS);
    renderApp('/user-profile');
    await userEvent.click(within(sidebar()).getByRole('button', { name: 'Transactions' }));
    const group = within(sidebar()).getByRole('group', { name: 'Transactions' });
    expect(
      within(group)
        .getAllByRole('link')
        .map((a) => a.textContent),
    ).toEqual([
      'Payout Transactions',
      'Batch Transactions',
      'Recent Batches',
      'Payin Transactions',
      'Payin Rewards',
      'CardEye Transactions',
      'Refund Transactions',
      'Download Transactions',
    ]);
    expect(within(sidebar()).getByRole('button', { name: 'Transactions' }).getAttribute('aria-expanded')).toBe('true');
  });

  it('offers View Balance and the transfer screens under More', async () => {
    signInAs(ALL_PERMISSIONS);
    renderApp('/user-profile');
    await userEvent.click(within(sidebar()).getByRole('button', { name: 'More' }));
    const group = within(sidebar()).getByRole('group', { name: 'More' });
    expect(
      within(group)
        .getAllByRole('link')
        .map((l) => l.textContent),
    ).toEqual(['View Balance', 'Amount Transfer', 'Merchants Payout', 'Transfer Transactions']);
  });

  it('shows a brand only its menus', () => {
    signInAs(DEFAULT_ROLE_PERMISSIONS.Brand, { name: 'Acme Brand', role: 'Brand' });
    renderApp('/user-profile');
    const nav = sidebar();
    expect(within(nav).queryByRole('link', { name: 'Users' })).toBeNull();
    expect(within(nav).queryByRole('link', { name: 'Roles & Permissions' })).toBeNull();
    expect(within(nav).queryByRole('button', { name: 'Accounts' })).toBeNull();
    expect(within(nav).getByRole('link', { name: 'Payments' })).toBeTruthy();
    expect(within(nav).getByRole('button', { name: 'Transactions' })).toBeTruthy();
  });

  it('marks the current page and opens its group; a page reached from another marks that one', () => {
    signInAs(ALL_PERMISSIONS);
    renderApp('/payout-transactions');
    const link = within(sidebar()).getByRole('link', { name: 'Payout Transactions' });
    expect(link.getAttribute('aria-current')).toBe('page');
    expect(within(sidebar()).getByRole('link', { name: 'Payments' }).getAttribute('aria-current')).toBeNull();
    const crumbs = screen.getByRole('navigation', { name: 'Breadcrumb' });
    expect(within(crumbs).getByText('Transactions')).toBeTruthy();
    expect(within(crumbs).getByText('Payout Transactions').getAttribute('aria-current')).toBe('page');
  });

  it('collapses to an icon rail and remembers it across a reload', async () => {
    signInAs(ALL_PERMISSIONS);
    renderApp('/user-profile');
    await userEvent.click(screen.getByRole('button', { name: 'Collapse sidebar' }));
    expect(localStorage.getItem(RAIL_KEY)).toBe('1');
    // icons keep their names; a group opens as a menu
    expect(within(sidebar()).getByRole('link', { name: 'Payments' }).textContent).toBe('');
    cleanup();
    renderApp('/user-profile');
    expect(screen.getByRole('button', { name: 'Expand sidebar' })).toBeTruthy();
    await userEvent.click(within(sidebar()).getByRole('button', { name: 'Transactions' }));
    await userEvent.click(screen.getByRole('menuitem', { name: 'Recent Batches' }));
    await waitFor(() => expect(pathname()).toBe('/recent-batches'));
    await userEvent.click(screen.getByRole('button', { name: 'Expand sidebar' }));
    expect(localStorage.getItem(RAIL_KEY)).toBe('0');
    expect(within(sidebar()).getByRole('link', { name: 'Recent Batches' }).getAttribute('aria-current')).toBe('page');
  }, 20_000);

  it('offers only built screens, and lands users on one', () => {
    for (const perms of Object.values(DEFAULT_ROLE_PERMISSIONS)) {
      for (const m of builtNavigation(perms)) {
        if (m.path) expect(isBuilt(m.path)).toBe(true);
        for (const i of m.items ?? []) expect(isBuilt(i.path), i.path).toBe(true);
      }
      expect(isBuilt(firstPermittedPath(perms))).toBe(true);
    }
    expect(firstPermittedPath(DEFAULT_ROLE_PERMISSIONS['2D Admin'])).toBe('/companies');
  });
});

describe('routes', () => {
  it('shows "No access" with a way back for a screen without its permission', async () => {
    signInAs(DEFAULT_ROLE_PERMISSIONS['2D Admin'], { name: 'Dee Admin', role: '2D Admin' });
    renderApp('/users');
    expect(screen.getByRole('heading', { name: 'No access' })).toBeTruthy();
    await userEvent.click(screen.getByRole('button', { name: 'Back to my start page' }));
    expect(await screen.findByRole('heading', { level: 1, name: 'Companies' })).toBeTruthy();
  });

  it('sends a visitor without a session to the sign-in page', () => {
    renderApp('/payout-transactions');
    expect(screen.getByRole('button', { name: 'Sign in' })).toBeTruthy();
  });

  it('has a built screen for every path of the route table (none answers "Page not found")', () => {
    const unbuilt = (Object.keys(ROUTE_PERMISSIONS) as GuardedPath[]).filter((p) => !isBuilt(p));
    expect(unbuilt).toEqual([]);
    expect(BUILT_PATHS.length).toBe(Object.keys(ROUTE_PERMISSIONS).length);
    for (const p of BUILT_PATHS) expect(TITLES[p], p).toBeTruthy();
  });

  it('sends /transactions-history to /batch-transactions without a current batch', async () => {
    signInAs(ALL_PERMISSIONS);
    renderApp('/transactions-history');
    expect(await screen.findByRole('heading', { name: 'Batch Transactions' })).toBeTruthy();
  });

  it('sends / to /payments and /payments/transactions to /payments without a current batch', async () => {
    signInAs(ALL_PERMISSIONS);
    renderApp('/payments/transactions');
    expect(await screen.findByRole('heading', { level: 1, name: 'Payments' })).toBeTruthy();
    cleanup();
    renderApp('/');
    expect(await screen.findByRole('heading', { level: 1, name: 'Payments' })).toBeTruthy();
  });

  it('sends unknown paths to /payments, or to the first screen of a user without Payments', async () => {
    signInAs(ALL_PERMISSIONS);
    renderApp('/no/such/page');
    expect(screen.getByRole('heading', { level: 1, name: 'Payments' })).toBeTruthy();
    cleanup();
    signInAs(DEFAULT_ROLE_PERMISSIONS['Risk Ops'], { role: 'Risk Ops' });
    renderApp('/no/such/page');
    await waitFor(() => expect(pathname()).toBe('/payout-transactions'));
  });
});

describe('keyboard and landmarks', () => {
  it('has a skip link first, to the one main landmark, in the shell and on the sign-in page', async () => {
    signInAs(ALL_PERMISSIONS);
    renderApp('/user-profile');
    expect(screen.getAllByRole('main')).toHaveLength(1);
    await userEvent.tab();
    const skip = screen.getByRole('link', { name: 'Skip to content' });
    expect(document.activeElement).toBe(skip);
    await userEvent.keyboard('{Enter}');
    expect(document.activeElement?.id).toBe(MAIN_ID);
    expect(screen.getAllByRole('heading', { level: 1 })).toHaveLength(1);
    cleanup();
    renderApp('/signin');
    expect(screen.getAllByRole('main')).toHaveLength(1);
    expect(screen.getByRole('main').id).toBe(MAIN_ID);
    await userEvent.tab();
    expect(document.activeElement).toBe(screen.getByRole('link', { name: 'Skip to content' }));
  });

  it('"/" focuses the page\'s search field, but types a slash inside a field', async () => {
    signInAs(ALL_PERMISSIONS);
    renderApp('/download-reports');
    const search = screen.getByRole('searchbox', { name: 'Search' });
    await userEvent.keyboard('/');
    expect(document.activeElement).toBe(search);
    await userEvent.keyboard('2026/');
    expect((search as HTMLInputElement).value).toBe('2026/');
  });

  it('Esc closes the account menu and the phone drawer', async () => {
    signInAs(ALL_PERMISSIONS);
    renderApp('/user-profile');
    await userEvent.click(screen.getByRole('button', { name: /^Account menu/ }));
    expect(screen.getByRole('menu')).toBeTruthy();
    await userEvent.keyboard('{Escape}');
    await waitFor(() => expect(screen.queryByRole('menu')).toBeNull());
    await userEvent.click(screen.getByRole('button', { name: 'Open menu' }));
    const drawer = await screen.findByRole('presentation');
    expect(within(drawer).getByRole('navigation', { name: 'Main menu' })).toBeTruthy();
    await userEvent.keyboard('{Escape}');
    await waitFor(() => expect(screen.queryByRole('presentation')).toBeNull());
  });
});
