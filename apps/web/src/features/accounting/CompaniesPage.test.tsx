import { ACCOUNTING_MSG, DEFAULT_ROLE_PERMISSIONS, MSG, type CompaniesResponse } from '@obol/contract';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { callsTo, mockApi, pathname, renderApp, signInAs, type Handler } from '../../test-utils.tsx';
import { company } from './testFixtures.ts';

vi.setConfig({ testTimeout: 30_000 });

const ROWS = [company(1), company(2, { status: 0, consent: 'Pending' })];
const ADMIN_2D = DEFAULT_ROLE_PERMISSIONS['2D Admin'];

function server(extra: Record<string, Handler> = {}) {
  return mockApi({
    '/api/companies': () => {
      const body: CompaniesResponse = {
        companies: ROWS,
        total: 2,
        all_companies: 2,
        active_company: 1,
        in_active_company: 1,
      };
      return { body };
    },
    ...extra,
  });
}

describe('the Companies screen', () => {
  it('shows the counters and masked keys; a copy before the password is refused, after it the key copies', async () => {
    const fetch = server({
      '/api/company-api-key': (b) =>
        (b as { current_password: string }).current_password === 'right'
          ? { body: { user_verified: 1, api_key: 'ck_live_company_one', message: ['Key decrypted'] } }
          : {
              status: 400,
              body: { error: [MSG.incorrectPassword], fields: { current_password: [MSG.incorrectPassword] } },
            },
    });
    signInAs(ADMIN_2D, { role: '2D Admin' });
    renderApp('/companies');
    expect(await screen.findByRole('heading', { name: 'Companies', level: 1 })).toBeTruthy();
    expect((await screen.findAllByText('Company 1')).length).toBeGreaterThan(0);
    expect(screen.getByText('Total Companies').nextSibling?.textContent).toBe('2');
    expect(screen.getByText('Active Companies').nextSibling?.textContent).toBe('1');
    expect(screen.getByText('Inactive Companies').nextSibling?.textContent).toBe('1');
    expect(screen.getAllByText('Pending').length).toBeGreaterThan(0);
    expect(callsTo(fetch, '/api/companies')[0]).toEqual({ per_page: 10, page: 1, search: '' });

    await userEvent.click(screen.getAllByRole('button', { name: 'Copy the API key of Company 1' })[0]);
    expect(await screen.findByText(MSG.decryptKeysFirst)).toBeTruthy();

    await userEvent.click(screen.getAllByRole('button', { name: 'Show the API key of Company 1' })[0]);
    const dialog = within(await screen.findByRole('dialog', { name: 'Enter Password' }));
    await userEvent.click(dialog.getByRole('button', { name: 'Decrypt' }));
    expect(dialog.getByText(MSG.requiredShort)).toBeTruthy();
    await userEvent.type(dialog.getByLabelText(/Password/), 'wrong');
    await userEvent.click(dialog.getByRole('button', { name: 'Decrypt' }));
    expect(await dialog.findByText(MSG.incorrectPassword)).toBeTruthy();
    await userEvent.clear(dialog.getByLabelText(/Password/));
    await userEvent.type(dialog.getByLabelText(/Password/), 'right');
    await userEvent.click(dialog.getByRole('button', { name: 'Decrypt' }));
    expect((await screen.findAllByText('ck_live_company_one')).length).toBeGreaterThan(0);
    expect(callsTo(fetch, '/api/company-api-key')).toContainEqual({ id: 1, current_password: 'right' });
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    // only that row's key is shown
    expect(screen.getAllByRole('button', { name: 'Show the API key of Company 2' }).length).toBeGreaterThan(0);
    await userEvent.click(screen.getAllByRole('button', { name: 'Copy the API key of Company 1' })[0]);
    expect(await screen.findByText(MSG.copied)).toBeTruthy();

    await userEvent.type(screen.getByRole('searchbox', { name: 'Search' }), 'corp');
    await waitFor(
      () => expect(callsTo(fetch, '/api/companies')).toContainEqual({ per_page: 10, page: 1, search: 'corp' }),
      { timeout: 3000 },
    );
  });

  it('deactivates a company after the confirmation and its warning; a cancel reads the list again', async () => {
    const fetch = server({
      '/api/update-company-status': () => ({ body: { message: [ACCOUNTING_MSG.deactivated] } }),
    });
    signInAs(ADMIN_2D, { role: '2D Admin' });
    renderApp('/companies');
    // a company whose holder has not approved the access yet cannot be activated
    expect((await screen.findAllByRole('switch', { name: 'Active: Company 2' }))[0].hasAttribute('disabled')).toBe(
      true,
    );
    await userEvent.click(screen.getAllByRole('switch', { name: 'Active: Company 1' })[0]);
    let confirm = within(await screen.findByRole('alertdialog', { name: 'Deactivate Company 1?' }));
    expect(confirm.getByText(/Sure you want to deactivate this company\?/)).toBeTruthy();
    expect(confirm.getByText(ACCOUNTING_MSG.deactivateWarning)).toBeTruthy();
    const before = callsTo(fetch, '/api/companies').length;
    await userEvent.click(confirm.getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(callsTo(fetch, '/api/companies').length).toBe(before + 1));
    expect(callsTo(fetch, '/api/update-company-status')).toEqual([]);
    await waitFor(() => expect(screen.queryByRole('alertdialog')).toBeNull());

    await userEvent.click(screen.getAllByRole('switch', { name: 'Active: Company 1' })[0]);
    confirm = within(await screen.findByRole('alertdialog', { name: 'Deactivate Company 1?' }));
    await userEvent.click(confirm.getByRole('button', { name: 'Deactivate' }));
    expect(await screen.findByText(ACCOUNTING_MSG.deactivated)).toBeTruthy();
    expect(callsTo(fetch, '/api/update-company-status')).toEqual([{ id: 1, status: 0 }]);
    await waitFor(() => expect(callsTo(fetch, '/api/companies').length).toBeGreaterThan(before + 1));
  });

  it('adds a company with the spec messages; Add stays disabled while invalid; errors are the server’s', async () => {
    let tries = 0;
    const fetch = server({
      '/api/register-company': () =>
        ++tries === 1
          ? { status: 422, body: { error: [ACCOUNTING_MSG.invalidCompanyKey] } }
          : { status: 201, body: { message: [ACCOUNTING_MSG.companyRegistered] } },
    });
    signInAs(ADMIN_2D, { role: '2D Admin' });
    renderApp('/companies');
    await userEvent.click(await screen.findByRole('button', { name: 'Add New Company' }));
    const d = within(await screen.findByRole('dialog', { name: 'Add Company Details' }));
    const add = d.getByRole('button', { name: 'Add Company' });
    expect(add.hasAttribute('disabled')).toBe(true);
    await userEvent.click(d.getByRole('textbox', { name: /Company name/ }));
    await userEvent.type(d.getByRole('textbox', { name: /Email/ }), 'ops@');
    expect(d.getByText(MSG.required)).toBeTruthy();
    await userEvent.type(d.getByRole('textbox', { name: /Company name/ }), 'Initech');
    await userEvent.click(d.getByRole('textbox', { name: /API key/ }));
    expect(d.getByText(MSG.emailInvalid)).toBeTruthy();
    await userEvent.type(d.getByRole('textbox', { name: /Email/ }), 'initech.test');
    await userEvent.type(d.getByRole('textbox', { name: /API key/ }), 'ck_initech');
    expect(add.hasAttribute('disabled')).toBe(false);
    await userEvent.click(add);
    expect(await screen.findByText(ACCOUNTING_MSG.invalidCompanyKey)).toBeTruthy();
    await userEvent.click(add);
    expect(await screen.findByText(ACCOUNTING_MSG.companyRegistered)).toBeTruthy();
    expect(callsTo(fetch, '/api/register-company')[1]).toEqual({
      name: 'Initech',
      email: 'ops@initech.test',
      api_key: 'ck_initech',
    });
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
  });

  it('gives a viewer no Add New Company and no switch; View Rules goes to the rules', async () => {
    server();
    signInAs(['User can view companies', 'User can view accounting transactions rules', 'User can view profile']);
    renderApp('/companies');
    expect((await screen.findAllByText('Company 1')).length).toBeGreaterThan(0);
    expect(screen.queryByRole('button', { name: 'Add New Company' })).toBeNull();
    expect(screen.queryByRole('switch', { name: 'Active: Company 1' })).toBeNull();
    await userEvent.click(screen.getAllByRole('button', { name: 'View rules of Company 1' })[0]);
    await waitFor(() => expect(pathname()).toBe('/accounting-rules'));
  });

  it('shows each company as a card on a phone, with its key actions', async () => {
    // a phone-sized screen: every max-width query matches (jsdom has no matchMedia of its own)
    vi.stubGlobal('matchMedia', (query: string) => ({
      matches: query.includes('max-width'),
      media: query,
      onchange: null,
      addListener: () => {},
      removeListener: () => {},
      addEventListener: () => {},
      removeEventListener: () => {},
      dispatchEvent: () => false,
    }));
    server();
    signInAs(ADMIN_2D, { role: '2D Admin' });
    renderApp('/companies');
    const list = await screen.findByRole('list', { name: 'Companies' });
    expect(list.querySelectorAll('[data-row-card]').length).toBe(2);
    expect(screen.queryByRole('table')).toBeNull();
    await userEvent.click(within(list).getByRole('button', { name: 'Copy the API key of Company 2' }));
    expect(await screen.findByText(MSG.decryptKeysFirst)).toBeTruthy();
  });
});
