import {
  ALL_PERMISSIONS,
  DEFAULT_ROLE_PERMISSIONS,
  MERCHANT_MSG,
  MSG,
  type HolderRow,
  type MerchantsListResponse,
} from '@obol/contract';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { callsTo, description, mockApi, renderApp, rowMenuItem, signInAs, type Handler } from '../../test-utils.tsx';

vi.setConfig({ testTimeout: 30_000 });

const holder = (id: number, over: Partial<HolderRow> = {}): HolderRow => ({
  id,
  name: `Merchant ${id}`,
  email: `m${id}@shop.test`,
  role: 'Merchant',
  parent_id: null,
  payin_name: `DESC ${id}`,
  descriptor_name: `DESC ${id}`,
  descriptor_code: `DC000000${id}`,
  brand_name: null,
  obol_id: '100000001',
  mid: `MID-${id}`,
  fee: 1.5,
  registration_number: null,
  street: null,
  city: 'Berlin',
  zip_code: null,
  account_reference: `OBL000000${id}`,
  total_brands: 1,
  is_active: '1',
  remember_token_status: 'Verified',
  resend_mail: 0,
  direct_merchant: 0,
  created_at: '2026-11-01T10:00:00.000Z',
  ...over,
});

const ROWS = [holder(1), holder(2, { remember_token_status: 'Not verified', resend_mail: 1, total_brands: 0 })];
const BRAND = holder(5, { name: 'Outlet Five', role: 'Brand', parent_id: 1, total_brands: 0 });

function server(extra: Record<string, Handler> = {}) {
  return mockApi({
    '/api/merchants': () => {
      const body: MerchantsListResponse = { merchants: { data: ROWS, total: 2 }, count: 2, active: 2, inactive: 0 };
      return { body };
    },
    '/api/brands-list': () => ({ body: { data: [BRAND] } }),
    '/api/search-brand': () => ({ body: { data: [] } }),
    ...extra,
  });
}

describe('the Merchants screen', () => {
  it('shows counters and merchants; a viewer gets no actions, switch or Add New Merchant', async () => {
    server();
    signInAs(DEFAULT_ROLE_PERMISSIONS['Supervisor A'], { role: 'Supervisor A' });
    renderApp('/merchants');
    expect(await screen.findByRole('heading', { name: 'Merchants', level: 1 })).toBeTruthy();
    expect((await screen.findAllByText('Merchant 1')).length).toBeGreaterThan(0);
    expect(screen.getByText('Total Merchants').nextSibling?.textContent).toBe('2');
    // the descriptor is one click away in Columns: the default columns fit a 1366 px screen
    expect(screen.queryByText('DC0000001')).toBeNull();
    expect(screen.queryByRole('button', { name: 'Add New Merchant' })).toBeNull();
    expect(screen.queryByRole('switch', { name: 'Active: Merchant 1' })).toBeNull();
    expect(screen.queryByRole('checkbox', { name: 'Direct merchant: Merchant 1' })).toBeNull();
    expect(screen.queryByRole('button', { name: 'Actions for Merchant 1' })).toBeNull();
  });

  it('creates a merchant: the spec messages before sending, then the server answer as a toast', async () => {
    const fetch = server({
      '/api/create-user': () => ({ status: 201, body: { message: [MERCHANT_MSG.created], ids: [9] } }),
    });
    signInAs(ALL_PERMISSIONS);
    renderApp('/merchants');
    await userEvent.click(await screen.findByRole('button', { name: 'Add New Merchant' }));
    const dialog = await screen.findByRole('dialog', { name: 'Add New Merchant' });
    const d = within(dialog);
    await userEvent.click(d.getByRole('button', { name: 'Create merchant' }));
    expect(d.getAllByText(MSG.required).length).toBe(6);
    await userEvent.type(d.getByRole('textbox', { name: 'Name' }), 'Nova');
    await userEvent.type(d.getByRole('textbox', { name: 'Email' }), 'nova@');
    await userEvent.type(d.getByRole('textbox', { name: 'Descriptor' }), 'NOVA');
    await userEvent.type(d.getByRole('textbox', { name: 'Obol Id' }), '100000042');
    await userEvent.type(d.getByRole('textbox', { name: 'MID' }), 'MID-1');
    await userEvent.type(d.getByRole('textbox', { name: 'Fee' }), '101');
    await userEvent.click(d.getByRole('button', { name: 'Create merchant' }));
    expect(d.getByText(MSG.emailInvalid)).toBeTruthy();
    expect(d.getByText('Amount must be from 0 to 100')).toBeTruthy();
    expect(callsTo(fetch, '/api/create-user')).toEqual([]);
    await userEvent.type(d.getByRole('textbox', { name: 'Email' }), 'shop.test');
    await userEvent.clear(d.getByRole('textbox', { name: 'Fee' }));
    await userEvent.type(d.getByRole('textbox', { name: 'Fee' }), '1.25');
    await userEvent.click(d.getByRole('button', { name: 'Create merchant' }));
    expect(await screen.findByText(MERCHANT_MSG.created)).toBeTruthy();
    expect(callsTo(fetch, '/api/create-user')).toEqual([
      expect.objectContaining({ rolename: 'Merchant', name: 'Nova', email: 'nova@shop.test', fee: '1.25' }),
    ]);
  });

  it('shows an unknown wallet on its field', async () => {
    server({
      '/api/create-user': () => ({
        status: 404,
        body: { error: ['Invalid Obol Id'], fields: { obol_id: ['Invalid Obol Id'] } },
      }),
    });
    signInAs(ALL_PERMISSIONS);
    renderApp('/merchants');
    await userEvent.click(await screen.findByRole('button', { name: 'Add New Merchant' }));
    const d = within(await screen.findByRole('dialog', { name: 'Add New Merchant' }));
    for (const [label, value] of [
      ['Name', 'Nova'],
      ['Email', 'nova@shop.test'],
      ['Descriptor', 'NOVA'],
      ['Obol Id', '900000001'],
      ['MID', 'M1'],
      ['Fee', '2'],
    ])
      await userEvent.type(d.getByRole('textbox', { name: label }), value);
    await userEvent.click(d.getByRole('button', { name: 'Create merchant' }));
    await waitFor(() => expect(d.getAllByText('Invalid Obol Id').length).toBeGreaterThan(0));
  });

  it('edits with read-only identity fields and Save only after a valid change', async () => {
    const fetch = server({
      '/api/update-merchant-details': () => ({ body: { message: [MERCHANT_MSG.updated] } }),
    });
    signInAs(ALL_PERMISSIONS);
    renderApp('/merchants');
    await userEvent.click(await rowMenuItem('Merchant 1', 'Edit'));
    const d = within(await screen.findByRole('dialog', { name: /Edit merchant/ }));
    expect(d.getByRole('textbox', { name: 'Name' }).hasAttribute('readonly')).toBe(true);
    expect(d.getByRole('textbox', { name: 'MID' }).hasAttribute('readonly')).toBe(true);
    const save = d.getByRole('button', { name: 'Save' });
    expect(save.hasAttribute('disabled')).toBe(true);
    await userEvent.clear(d.getByRole('textbox', { name: 'Descriptor' }));
    expect(save.hasAttribute('disabled')).toBe(true);
    await userEvent.type(d.getByRole('textbox', { name: 'Descriptor' }), 'NEW DESC');
    expect(save.hasAttribute('disabled')).toBe(false);
    await userEvent.click(save);
    expect(await screen.findByText(MERCHANT_MSG.updated)).toBeTruthy();
    expect(callsTo(fetch, '/api/update-merchant-details')).toEqual([
      expect.objectContaining({ id: 1, payin_name: 'NEW DESC', fee: '1.5' }),
    ]);
  });

  it('refuses to add brands to an unverified merchant and checks each brand before sending', async () => {
    const fetch = server({
      '/api/create-user': () => ({ status: 201, body: { message: [MERCHANT_MSG.brandsCreated], ids: [8] } }),
    });
    signInAs(ALL_PERMISSIONS);
    renderApp('/merchants');
    await userEvent.click(await rowMenuItem('Merchant 2', 'Add brands'));
    expect(await screen.findByText(MERCHANT_MSG.notVerified)).toBeTruthy();

    await userEvent.click(await rowMenuItem('Merchant 1', 'Add brands'));
    const d = within(await screen.findByRole('dialog', { name: 'Add brands to Merchant 1' }));
    await userEvent.click(d.getByRole('button', { name: 'Remove brand 1' }));
    await userEvent.click(d.getByRole('button', { name: 'Create brands' }));
    expect(d.getByText(MERCHANT_MSG.oneBrand)).toBeTruthy();
    await userEvent.click(d.getByRole('button', { name: 'Add another brand' }));
    await userEvent.type(d.getByRole('textbox', { name: 'Brand name of brand 1' }), 'abc');
    await userEvent.click(d.getByRole('button', { name: 'Create brands' }));
    expect(d.getByText(MERCHANT_MSG.brandMin)).toBeTruthy();
    await userEvent.type(d.getByRole('textbox', { name: 'Brand name of brand 1' }), 'd Outlet');
    await userEvent.type(d.getByRole('textbox', { name: 'Email of brand 1' }), 'b@shop.test');
    await userEvent.type(d.getByRole('textbox', { name: 'Obol Id of brand 1' }), '200000001');
    await userEvent.type(d.getByRole('textbox', { name: 'MID of brand 1' }), 'MID-B');
    await userEvent.click(d.getByRole('button', { name: 'Create brands' }));
    expect(await screen.findByText(MERCHANT_MSG.brandsCreated)).toBeTruthy();
    expect(callsTo(fetch, '/api/create-user')).toEqual([
      {
        rolename: 'Brand',
        parent_id: 1,
        brands: [{ name: 'abcd Outlet', email: 'b@shop.test', obol_id: '200000001', mId: 'MID-B' }],
      },
    ]);
  });

  it("opens a merchant's brands in the side panel and deactivates one after confirming", async () => {
    const fetch = server({
      '/api/change-merchant-status': () => ({ body: { message: [MERCHANT_MSG.statusUpdated] } }),
    });
    signInAs(ALL_PERMISSIONS);
    renderApp('/merchants');
    await userEvent.click((await screen.findAllByRole('button', { name: 'View brands of Merchant 1' }))[0]);
    const panel = within(await screen.findByRole('dialog', { name: 'Brands of Merchant 1' }));
    expect(await panel.findByText('Outlet Five')).toBeTruthy();
    // every action says what it does, and a disabled one why
    expect(panel.getByRole('button', { name: 'Details of Outlet Five' }).textContent).toBe('Details');
    expect(panel.getByRole('button', { name: 'Edit Outlet Five' }).textContent).toBe('Edit');
    const activate = panel.getByRole('button', { name: 'Activate Outlet Five' });
    expect(activate.textContent).toBe('Activate');
    expect(activate.hasAttribute('disabled')).toBe(true);
    expect(description(activate)).toBe('The brand is already active');
    const resend = panel.getByRole('button', { name: 'Resend mail to Outlet Five' });
    expect(resend.textContent).toBe('Resend mail');
    expect(description(resend)).toBe('The brand has already signed up');
    expect(panel.getByRole('button', { name: 'Deactivate Outlet Five' }).getAttribute('aria-describedby')).toBeNull();
    await userEvent.click(panel.getByRole('button', { name: 'Deactivate Outlet Five' }));
    await userEvent.click(await screen.findByRole('button', { name: 'Deactivate' }));
    expect(await screen.findByText(MERCHANT_MSG.statusUpdated)).toBeTruthy();
    expect(callsTo(fetch, '/api/change-merchant-status')).toEqual([
      { id: 5, status: 0, level_type: 'Brand', parent_id: 1 },
    ]);
    expect(callsTo(fetch, '/api/brands-list')).toContainEqual({ id: 1 });
  });

  it('lets an Admin mark a direct merchant', async () => {
    const fetch = server({
      '/api/update-direct-merchant': () => ({ body: { message: [MERCHANT_MSG.directUpdated] } }),
    });
    signInAs(ALL_PERMISSIONS, { role: 'Admin' });
    renderApp('/merchants');
    await userEvent.click((await screen.findAllByRole('checkbox', { name: 'Direct merchant: Merchant 1' }))[0]);
    expect(await screen.findByText(MERCHANT_MSG.directUpdated)).toBeTruthy();
    expect(callsTo(fetch, '/api/update-direct-merchant')).toEqual([{ user_id: 1, direct_merchant: 1 }]);
  });
});
