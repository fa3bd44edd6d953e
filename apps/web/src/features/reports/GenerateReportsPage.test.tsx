import { ALL_PERMISSIONS, type HolderOption } from '@obol/contract';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { callsTo, mockApi, renderApp, signInAs } from '../../test-utils.tsx';

afterEach(() => vi.restoreAllMocks());

const holder = (id: number, name: string, role: string, brands: HolderOption[] = []): HolderOption => ({
  id,
  parent_id: null,
  name,
  email: `${id}@obol.example`,
  roles: [{ name: role }],
  remember_token_status: 1,
  fee: 1.5,
  accounts: { account_reference: null, account_id: null },
  active_brands: brands,
});
const file = {
  id: 1,
  file_name: 'merchant-activity-report.csv',
  start_date: '2026-11-01',
  end_date: '2026-11-20',
  is_download: 0,
  is_report: 1,
  status: 'Initiated',
  rows: null,
  format: 'csv',
  created_at: '2026-11-20T10:00:00.000Z',
};

describe('Generate Reports', () => {
  it('shows a card per permitted report; Pull Report waits for a holder and a date, then sends the report', async () => {
    const fetch = mockApi({
      '/api/report-holders': () => ({
        body: { data: [holder(7, 'Acme Payouts', 'Merchant', [holder(9, 'Acme Brand', 'Brand')])] },
      }),
      '/api/report-schedules': () => ({ body: { data: [] } }),
      '/api/activity-report': () => ({
        body: { message: ['Process is running in the background. Please wait.'], file },
      }),
      '/api/fee-report': () => ({ body: { message: ['Process is running in the background. Please wait.'], file } }),
      '/api/fee-chart': () => ({
        body: {
          months: ['2026-10', '2026-11'],
          series: [
            { name: 'Acme Payouts', fees: [1500, 2500] },
            { name: 'Globex Trading', fees: [0, 700] },
          ],
        },
      }),
    });
    signInAs(ALL_PERMISSIONS, { role: 'Admin' });
    renderApp('/generate-reports');
    expect(await screen.findByRole('heading', { name: 'Generate the following reports', level: 1 })).toBeTruthy();
    for (const title of ['Merchant activity', 'Batch payouts', 'Failed or returned transfers', 'Fees by merchant'])
      expect(screen.getByRole('heading', { name: title })).toBeTruthy();

    // the first card is open: Select All is offered for the activity report
    const pull = () => screen.getAllByRole('button', { name: 'Pull Report' })[0] as HTMLButtonElement;
    expect(pull().disabled).toBe(true);
    await userEvent.click(screen.getAllByLabelText('Merchant or brand')[0]);
    await userEvent.click(await screen.findByRole('option', { name: 'Select All' }));
    expect(pull().disabled).toBe(true);
    fireEvent.change(screen.getAllByLabelText('Start Date')[0], { target: { value: '2026-11-01' } });
    expect(pull().disabled).toBe(false);
    await userEvent.click(pull());
    await waitFor(() =>
      expect(callsTo(fetch, '/api/activity-report')).toEqual([
        {
          name: 'Select All',
          auth_id: 0,
          start_date: '2026-11-01',
          end_date: '2026-11-01',
          tz: expect.any(String),
          format: 'csv',
        },
      ]),
    );
    expect(await screen.findByText('Process is running in the background. Please wait.')).toBeTruthy();

    // the fee card: no Select All; a brand, a range, Excel
    await userEvent.click(screen.getByRole('heading', { name: 'Fees by merchant' }));
    const region = await screen.findByRole('region', { name: /Fees by merchant/ });
    await waitFor(() => expect(callsTo(fetch, '/api/fee-chart')).toHaveLength(1));
    // the chart of fees per month, with its figures as a table for screen readers
    expect(
      await within(region).findByRole('img', { name: /Fees per month, 2026-10 to 2026-11: €47.00 in all/ }),
    ).toBeTruthy();
    const table = within(region).getByRole('table', { name: 'Fees by merchant per month (EUR)' });
    expect(within(table).getByRole('row', { name: /2026-11 €25.00 €7.00 €32.00/ })).toBeTruthy();
    await userEvent.click(within(region).getByLabelText('Merchant or brand'));
    expect(screen.queryByRole('option', { name: 'Select All' })).toBeNull();
    await userEvent.click(await screen.findByRole('option', { name: 'Acme Brand (Brand)' }));
    fireEvent.change(within(region).getByLabelText('Start Date'), { target: { value: '2026-11-20' } });
    fireEvent.change(within(region).getByLabelText('End Date'), { target: { value: '2026-11-01' } });
    await userEvent.click(within(region).getByLabelText('Format'));
    await userEvent.click(await screen.findByRole('option', { name: 'Excel (XLSX)' }));
    await userEvent.click(within(region).getByRole('button', { name: 'Pull Report' }));
    await waitFor(() =>
      expect(callsTo(fetch, '/api/fee-report')).toEqual([
        {
          name: 'Acme Brand',
          auth_id: 9,
          start_date: '2026-11-20',
          end_date: '2026-11-01',
          tz: expect.any(String),
          format: 'xlsx',
        },
      ]),
    );
  }, 60_000);

  it('issues an invoice for a merchant (no brands offered) and a month from 2022-12 to this month', async () => {
    const fetch = mockApi({
      '/api/report-holders': () => ({
        body: { data: [holder(7, 'Acme Payouts', 'Merchant', [holder(9, 'Acme Brand', 'Brand')])] },
      }),
      '/api/invoice': () => ({
        body: {
          message: ['Process is running in the background. Please wait.'],
          file: { ...file, file_name: 'invoice-OBL-2026-000004.pdf', format: 'pdf' },
          invoice: { number: 'OBL-2026-000004', total_fee: 1234 },
        },
      }),
    });
    signInAs(['User can view reports', 'User can view fee reports', 'User can generate invoices'], { role: 'Finance' });
    renderApp('/generate-reports');
    const region = await screen.findByRole('region', { name: /Invoices/ });
    const pull = within(region).getByRole('button', { name: 'Pull Report' }) as HTMLButtonElement;
    await userEvent.click(within(region).getByLabelText('Merchant'));
    expect(await screen.findByRole('option', { name: 'Acme Payouts (Merchant)' })).toBeTruthy();
    expect(screen.queryByRole('option', { name: 'Acme Brand (Brand)' })).toBeNull();
    await userEvent.click(screen.getByRole('option', { name: 'Acme Payouts (Merchant)' }));
    expect(pull.disabled).toBe(true);
    fireEvent.change(within(region).getByLabelText('Month'), { target: { value: '2022-11' } });
    expect(pull.disabled).toBe(true);
    fireEvent.change(within(region).getByLabelText('Month'), { target: { value: '2023-01' } });
    expect(pull.disabled).toBe(false);
    await userEvent.click(pull);
    await waitFor(() =>
      expect(callsTo(fetch, '/api/invoice')).toEqual([{ name: 'Acme Payouts', merchant_id: 7, date: '2023-01' }]),
    );
    expect(await screen.findByText(/Invoice OBL-2026-000004/)).toBeTruthy();
  }, 60_000);

  it('schedules a report monthly for the chosen holder, lists it in its card, and removes it', async () => {
    let schedules: unknown[] = [];
    const fetch = mockApi({
      '/api/report-holders': () => ({ body: { data: [holder(7, 'Acme Payouts', 'Merchant')] } }),
      '/api/report-schedules': () => ({ body: { data: schedules } }),
      '/api/schedule-report': (b) => {
        const body = b as { kind: string; name: string; auth_id: number; format: string };
        const schedule = {
          id: 3,
          ...body,
          last_period: '2026-10',
          next_run: '2026-12-01T00:00:00.000Z',
          created_at: '2026-11-20T10:00:00.000Z',
        };
        schedules = [schedule];
        return { status: 201, body: { message: ['Scheduled.'], schedule } };
      },
      '/api/unschedule-report': () => {
        schedules = [];
        return { body: { message: ['Schedule removed.'] } };
      },
    });
    signInAs(['User can view reports', 'User can view fee reports', 'User can pull failed transfers report'], {
      role: 'Finance',
    });
    renderApp('/generate-reports');
    const region = await screen.findByRole('region', { name: /Failed or returned transfers/ });
    const scheduleButton = within(region).getByRole('button', { name: 'Schedule monthly' }) as HTMLButtonElement;
    expect(scheduleButton.disabled).toBe(true);
    await userEvent.click(within(region).getByLabelText('Merchant or brand'));
    await userEvent.click(await screen.findByRole('option', { name: 'Acme Payouts (Merchant)' }));
    await userEvent.click(scheduleButton);
    await waitFor(() =>
      expect(callsTo(fetch, '/api/schedule-report')).toEqual([
        { kind: 'failed', name: 'Acme Payouts', auth_id: 7, format: 'csv' },
      ]),
    );
    const list = await within(region).findByRole('list', { name: 'Monthly Failed or returned transfers reports' });
    expect(list.textContent).toContain('Monthly for Acme Payouts (CSV), next on 2026-12-01');
    await userEvent.click(within(list).getByRole('button', { name: 'Remove' }));
    await waitFor(() => expect(callsTo(fetch, '/api/unschedule-report')).toEqual([{ id: 3 }]));
    await waitFor(() => expect(within(region).queryByRole('list')).toBeNull());
  }, 60_000);

  it('shows only the reports the role may pull', async () => {
    mockApi({
      '/api/report-holders': () => ({ body: { data: [] } }),
      '/api/report-schedules': () => ({ body: { data: [] } }),
    });
    signInAs(['User can view reports', 'User can view fee reports', 'User can pull failed transfers report'], {
      role: 'Reviewer',
    });
    renderApp('/generate-reports');
    expect(await screen.findByRole('heading', { name: 'Failed or returned transfers' })).toBeTruthy();
    expect(screen.queryByRole('heading', { name: 'Merchant activity' })).toBeNull();
    expect(screen.queryByRole('heading', { name: 'Fees by merchant' })).toBeNull();
    expect(screen.queryByRole('heading', { name: 'Invoices' })).toBeNull();
  }, 60_000);
});
