import { DEFAULT_ROLE_PERMISSIONS, MSG } from '@obol/contract';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { callsTo, mockApi, pathname, renderApp, signInAs } from '../../test-utils.tsx';
import { transaction } from './testFixtures.ts';

vi.setConfig({ testTimeout: 60_000 });

const ROWS = [
  transaction(1),
  transaction(2, { status: 'FAILED', reason: 'Account closed', rule_name: '-', rule_type: 'Manual', currency: '' }),
  transaction(3, { status: 'REJECTED', rule_name: 'Rule 3' }),
  transaction(4, { status: 'PENDING_APPROVAL', rule_name: 'Rule 4' }),
];
const exportAnswer = {
  message: [MSG.processingBackground],
  file: {
    id: 1,
    file_name: 'accounting-transactions.csv',
    start_date: null,
    end_date: null,
    is_download: 0,
    is_report: 0,
    status: 'Initiated',
    rows: null,
    format: 'csv',
    created_at: '2026-11-20T10:00:00.000Z',
  },
};

describe('the 2D Transactions screen', () => {
  it('lists with the status tones and the reason of a failure, filters, shows the description and exports', async () => {
    const fetch = mockApi({
      '/api/accounting-transactions': () => ({ body: { transactions: ROWS, total: 4 } }),
      '/api/export-accounting-transactions': () => ({ body: exportAnswer }),
    });
    signInAs(DEFAULT_ROLE_PERMISSIONS['2D Admin'], { role: '2D Admin' });
    renderApp('/accounting-transactions');
    expect(await screen.findByRole('heading', { name: '2D Transactions', level: 1 })).toBeTruthy();
    expect((await screen.findAllByText('Rule 3')).length).toBeGreaterThan(0);
    expect(callsTo(fetch, '/api/accounting-transactions')[0]).toEqual({
      sortby: 'DESC',
      status: '',
      rule_type: '',
      page: 1,
      per_page: 20,
    });
    expect(screen.getByRole('img', { name: 'Reason: Account closed' })).toBeTruthy();
    const tone = (label: string) => screen.getAllByText(label)[0].closest('[data-tone]')?.getAttribute('data-tone');
    expect(tone('Completed')).toBe('green');
    expect(tone('Rejected')).toBe('red');
    expect(tone('Failed')).toBe('red');
    expect(tone('Pending Approval')).toBe('amber');
    expect(screen.getAllByText('€25.00').length).toBeGreaterThan(0);
    // the IBAN, with its copy button, is one click away in Columns (the default columns fit 1366 px)
    expect(screen.queryByRole('button', { name: 'Copy the IBAN DE89370400440532013000' })).toBeNull();
    await userEvent.click(screen.getByRole('button', { name: 'Columns' }));
    await userEvent.click(
      within(screen.getByRole('dialog', { name: 'Table settings' })).getByRole('checkbox', { name: 'IBAN' }),
    );
    await userEvent.keyboard('{Escape}');
    expect(screen.getAllByRole('button', { name: 'Copy the IBAN DE89370400440532013000' }).length).toBe(4);

    await userEvent.click(screen.getAllByRole('button', { name: /^Payment description of the transfer/ })[0]);
    const dialog = within(await screen.findByRole('dialog', { name: 'Payment description' }));
    expect(dialog.getByText('Rent November')).toBeTruthy();
    await userEvent.click(dialog.getByRole('button', { name: 'Close' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());

    await userEvent.click(screen.getByRole('combobox', { name: 'Status' }));
    await userEvent.click(await screen.findByRole('option', { name: 'Refunded' }));
    await waitFor(() =>
      expect(callsTo(fetch, '/api/accounting-transactions').at(-1)).toMatchObject({ status: 'Refunded', page: 1 }),
    );
    await userEvent.click(screen.getByRole('combobox', { name: 'Rule type' }));
    await userEvent.click(await screen.findByRole('option', { name: 'Amount' }));
    await waitFor(() => expect(callsTo(fetch, '/api/accounting-transactions').at(-1)).toMatchObject({ rule_type: 0 }));
    await userEvent.click(screen.getByRole('combobox', { name: 'Sort by date' }));
    await userEvent.click(await screen.findByRole('option', { name: 'Oldest first' }));
    await waitFor(() => expect(callsTo(fetch, '/api/accounting-transactions').at(-1)).toMatchObject({ sortby: 'ASC' }));

    await userEvent.click(screen.getByRole('button', { name: 'Export' }));
    await userEvent.click(await screen.findByRole('menuitem', { name: 'Export as CSV' }));
    await waitFor(() =>
      expect(callsTo(fetch, '/api/export-accounting-transactions')).toEqual([
        { sortby: 'ASC', status: 'Refunded', rule_type: 0, export_transactions: true, format: 'csv' },
      ]),
    );
    const note = await screen.findByRole('status');
    expect(within(note).getByText(MSG.processingBackground)).toBeTruthy();
    await userEvent.click(within(note).getByRole('button', { name: 'See Downloads' }));
    await waitFor(() => expect(pathname()).toBe('/download-accounting-transactions'));
  });

  it('says No Record Found and keeps Export disabled without rows', async () => {
    mockApi({ '/api/accounting-transactions': () => ({ body: { transactions: [], total: 0 } }) });
    signInAs(['User can view accounting transactions', 'User can view profile']);
    renderApp('/accounting-transactions?status=Failed');
    expect(await screen.findByText(MSG.noRecord)).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Export' }).hasAttribute('disabled')).toBe(true);
    expect(screen.getByRole('combobox', { name: 'Status' }).textContent).toBe('Failed');
  });
});
