import { ALL_PERMISSIONS, type DownloadFile, type DownloadFilesResponse } from '@obol/contract';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { callsTo, mockApi, renderApp, signInAs, type Handler } from '../../test-utils.tsx';

// whole journeys through MUI tables in jsdom take a few seconds
vi.setConfig({ testTimeout: 20_000 });
afterEach(() => vi.restoreAllMocks());

const file = (i: number, over: Partial<DownloadFile> = {}): DownloadFile => ({
  id: i,
  file_name: `transactions-${i}.csv`,
  start_date: '2026-02-01',
  end_date: '2026-02-28',
  is_download: 1,
  is_report: 0,
  status: 'Completed',
  rows: 10,
  format: 'csv',
  created_at: '2026-03-01T10:00:00Z',
  ...over,
});

function filesServer(files: () => DownloadFile[], extra: Record<string, Handler> = {}) {
  return mockApi({
    '/api/download-files': (b) => {
      const { page, per_page } = b as { page: number; per_page: number };
      const all = files();
      const body: DownloadFilesResponse = {
        data: all.slice((page - 1) * per_page, page * per_page),
        total: all.length,
      };
      return { body };
    },
    ...extra,
  });
}

const three = () => [
  file(1),
  file(2, { is_download: 0, status: 'Initiated', start_date: null, end_date: null }),
  file(3, { is_download: 0, status: 'Failed' }),
];

describe('download lists', () => {
  it('lists transaction files 20 a page; only Completed files download', async () => {
    const fetch = filesServer(three);
    signInAs(ALL_PERMISSIONS);
    renderApp('/download-transactions');
    expect(screen.getByRole('heading', { name: 'Download Transactions' })).toBeTruthy();
    await screen.findByText('transactions-1.csv');
    expect(callsTo(fetch, '/api/download-files')[0]).toEqual({
      per_page: 20,
      page: 1,
      search: '',
      type: 0,
      accounting: false,
    });
    const table = screen.getByRole('table');
    expect(
      within(table)
        .getAllByRole('columnheader')
        .map((h) => h.textContent),
    ).toEqual(['File Name', 'Date Range', 'Status', 'Created At', 'Action']);
    const cellsOf = (name: string) =>
      within(within(table).getByText(name).closest('tr')!)
        .getAllByRole('cell')
        .map((c) => c.textContent);
    expect(cellsOf('transactions-1.csv').slice(0, 3)).toEqual([
      'transactions-1.csv',
      '2026-02-01 – 2026-02-28',
      'Completed',
    ]);
    expect(cellsOf('transactions-2.csv').slice(0, 3)).toEqual(['transactions-2.csv', '-', 'Initiated']);
    const enabled = (n: number) =>
      !screen.getByRole('button', { name: `Download transactions-${n}.csv` }).hasAttribute('disabled');
    expect([enabled(1), enabled(2), enabled(3)]).toEqual([true, false, false]);
  });

  it('reads reports and 2D transaction files with their own type', async () => {
    const fetch = filesServer(() => [file(1, { is_report: 1, file_name: 'fees-report.xlsx' })]);
    signInAs(ALL_PERMISSIONS);
    const view = renderApp('/download-reports');
    expect(screen.getByRole('heading', { name: 'Download Reports' })).toBeTruthy();
    await screen.findByText('fees-report.xlsx');
    expect(callsTo(fetch, '/api/download-files')[0]).toMatchObject({ type: 1, accounting: false });
    view.unmount();
    renderApp('/download-accounting-transactions');
    expect(screen.getByRole('heading', { name: 'Downloads' })).toBeTruthy();
    await screen.findByText('fees-report.xlsx');
    expect(callsTo(fetch, '/api/download-files').at(-1)).toMatchObject({ type: 0, accounting: true });
  });

  it('searches by file name or date after a second, from page 1', async () => {
    const fetch = filesServer(() => Array.from({ length: 45 }, (_, i) => file(i + 1)));
    signInAs(ALL_PERMISSIONS);
    renderApp('/download-transactions');
    await screen.findByText('transactions-1.csv');
    await userEvent.click(screen.getByRole('button', { name: 'Go to page 3' }));
    await screen.findByText('transactions-41.csv');
    await userEvent.type(screen.getByLabelText('Search'), '2026-02-01');
    await waitFor(
      () => expect(callsTo(fetch, '/api/download-files').at(-1)).toMatchObject({ search: '2026-02-01', page: 1 }),
      { timeout: 2500 },
    );
  });

  it('downloads a file as the server names it, then reloads the list', async () => {
    const fetch = filesServer(three, {
      '/api/download-file/1': () => ({
        text: 'a,b\n1,2\n',
        headers: { 'content-type': 'text/csv', 'content-disposition': 'attachment; filename="trx-march.csv"' },
      }),
    });
    const createObjectURL = vi.fn(() => 'blob:file');
    vi.stubGlobal('URL', Object.assign(URL, { createObjectURL, revokeObjectURL: vi.fn() }));
    const click = vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(() => undefined);
    signInAs(ALL_PERMISSIONS);
    renderApp('/download-transactions');
    await screen.findByText('transactions-1.csv');
    const before = callsTo(fetch, '/api/download-files').length;
    await userEvent.click(screen.getByRole('button', { name: 'Download transactions-1.csv' }));
    await waitFor(() => expect(click).toHaveBeenCalled());
    const get = fetch.mock.calls.find(([input]) => input === '/api/download-file/1');
    expect(get?.[1]?.method).toBe('GET');
    expect((click.mock.contexts[0] as HTMLAnchorElement).download).toBe('trx-march.csv');
    await waitFor(() => expect(callsTo(fetch, '/api/download-files')).toHaveLength(before + 1));
  });

  it('asks again every 5 seconds while a file is being generated, until it is Completed', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    let ready = false;
    const fetch = filesServer(() => [file(1, ready ? {} : { is_download: 0, status: 'Initiated' })]);
    signInAs(ALL_PERMISSIONS);
    renderApp('/download-transactions');
    await screen.findByText('Initiated');
    const button = screen.getByRole('button', { name: 'Download transactions-1.csv' });
    expect(button.hasAttribute('disabled')).toBe(true);
    const before = callsTo(fetch, '/api/download-files').length;
    await vi.advanceTimersByTimeAsync(5_000);
    await waitFor(() => expect(callsTo(fetch, '/api/download-files')).toHaveLength(before + 1));
    ready = true;
    await vi.advanceTimersByTimeAsync(5_000);
    await screen.findByText('Completed');
    expect(screen.getByRole('button', { name: 'Download transactions-1.csv' }).hasAttribute('disabled')).toBe(false);
    // a Completed list stops asking
    const settled = callsTo(fetch, '/api/download-files').length;
    await vi.advanceTimersByTimeAsync(15_000);
    expect(callsTo(fetch, '/api/download-files')).toHaveLength(settled);
  });
});
