import { DEFAULT_ROLE_PERMISSIONS, ALL_PERMISSIONS } from '@obol/contract';
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { callsTo, mockApi, renderApp, signInAs } from '../../test-utils.tsx';

afterEach(() => vi.restoreAllMocks());

const brand = (id: number, over: Record<string, unknown> = {}) => ({
  id,
  name: `Brand ${id}`,
  email: `brand${id}@x.test`,
  parent: { id: 1, name: 'Acme Payouts' },
  account_reference: `REF-${id}`,
  remember_token_status: 'Verified',
  is_active: '1',
  created_at: '2026-11-01T10:00:00.000Z',
  ...over,
});

describe('the Brands screen', () => {
  it('shows the counters and the brands with merchant, account reference and verification, paging on the server', async () => {
    const fetch = mockApi({
      '/api/brands': (b) => {
        const page = (b as { page: number }).page;
        return {
          body: {
            brands: {
              data:
                page === 1
                  ? [brand(1), brand(2, { remember_token_status: 'Not verified', is_active: '0' })]
                  : [brand(11)],
              total: 11,
            },
            count: 11,
            active: 10,
            inactive: 1,
          },
        };
      },
    });
    signInAs(ALL_PERMISSIONS);
    renderApp('/brands');
    expect(await screen.findByRole('heading', { name: 'Brands', level: 1 })).toBeTruthy();
    expect(await screen.findAllByText('Brand 1')).toBeTruthy();
    expect(screen.getByText('Total Brands').nextSibling?.textContent).toBe('11');
    expect(screen.getByText('Inactive Brands').nextSibling?.textContent).toBe('1');
    expect(screen.getAllByText('REF-1').length).toBeGreaterThan(0);
    expect(screen.getAllByText('Not verified').length).toBeGreaterThan(0);
    expect(screen.getAllByText('Acme Payouts').length).toBeGreaterThan(0);
    await userEvent.click(screen.getByRole('button', { name: /go to page 2/i }));
    expect(await screen.findAllByText('Brand 11')).toBeTruthy();
    expect(callsTo(fetch, '/api/brands')).toEqual([
      { per_page: 10, page: 1, name: '' },
      { per_page: 10, page: 2, name: '' },
    ]);
  });

  it('searches by brand name on the server, from the first page', async () => {
    const fetch = mockApi({
      '/api/brands': () => ({ body: { brands: { data: [brand(3)], total: 1 }, count: 5, active: 5, inactive: 0 } }),
    });
    signInAs(DEFAULT_ROLE_PERMISSIONS.Merchant, { role: 'Merchant' });
    renderApp('/brands');
    await userEvent.type(await screen.findByRole('searchbox', { name: 'Search' }), 'Acm');
    await waitFor(() => expect(callsTo(fetch, '/api/brands')).toContainEqual({ per_page: 10, page: 1, name: 'Acm' }), {
      timeout: 3000,
    });
  });

  it('is not offered to a brand', async () => {
    mockApi();
    signInAs(DEFAULT_ROLE_PERMISSIONS.Brand, { role: 'Brand' });
    renderApp('/brands');
    expect(await screen.findByRole('heading', { name: 'No access' })).toBeTruthy();
  });
});
