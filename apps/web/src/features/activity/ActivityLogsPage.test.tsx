import { ALL_PERMISSIONS, FILTER_MSG, type ActivityRow, type GetLogsResponse } from '@obol/contract';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { callsTo, mockApi, renderApp, signInAs } from '../../test-utils.tsx';
import { fieldChanges } from './diff.ts';

vi.setConfig({ testTimeout: 20_000 });

const hash = (i: number) => String(i % 10).repeat(64);
const record = (i: number, over: Partial<ActivityRow> = {}): ActivityRow => ({
  id: i,
  seq: i,
  user_name: `User ${i}`,
  user_email: `user${i}@obol.example`,
  activity: 'Signed in',
  action: 'auth.verify-code',
  outcome: 'success',
  status_code: 200,
  target: null,
  before: null,
  after: null,
  detail: null,
  ip: '10.0.0.1',
  request_id: `req-${i}`,
  created_at: '2026-01-02T10:00:00Z',
  prev_hash: hash(i - 1),
  hash: hash(i),
  ...over,
});

function logsServer(total: number, first: Partial<ActivityRow> = {}) {
  return mockApi({
    '/api/get-logs': (b) => {
      const { page, per_page, date } = b as { page: number; per_page: number; date: string };
      const all = Array.from({ length: date === '2026-01-01' ? 0 : total }, (_, i) =>
        record(total - i, i === 0 ? first : {}),
      );
      const body: GetLogsResponse = { data: [{ data: all.slice((page - 1) * per_page, page * per_page), total }] };
      return { body };
    },
  });
}

describe('activity logs', () => {
  it('lists 20 a page from the server with user, e-mail, action and date and time', async () => {
    const fetch = logsServer(45);
    signInAs(ALL_PERMISSIONS);
    renderApp('/activity-logs');
    expect(screen.getByRole('heading', { name: 'Activity Logs' })).toBeTruthy();
    await screen.findByText('User 45');
    const sent = callsTo(fetch, '/api/get-logs')[0] as Record<string, unknown>;
    expect(sent).toMatchObject({ per_page: 20, page: 1, date: '' });
    expect(typeof sent.tz).toBe('string');
    const table = screen.getByRole('table');
    expect(
      within(table)
        .getAllByRole('columnheader')
        .map((h) => h.textContent),
    ).toEqual(['User Name', 'User Email', 'Action', 'Date and Time', 'Details']);
    expect(within(table).getAllByRole('row')).toHaveLength(21);
    const row = within(table).getByText('User 45').closest('tr')!;
    expect(within(row).getByText('user45@obol.example')).toBeTruthy();
    expect(within(row).getByText('Signed in')).toBeTruthy();
    await userEvent.click(screen.getByRole('button', { name: 'Go to page 3' }));
    await screen.findByText('User 5');
    expect(callsTo(fetch, '/api/get-logs').at(-1)).toMatchObject({ page: 3, per_page: 20 });
  });

  it('filters a day up to today, and refuses a future day without asking the server', async () => {
    const fetch = logsServer(3);
    signInAs(ALL_PERMISSIONS);
    renderApp('/activity-logs');
    await screen.findByText('User 3');
    const input = screen.getByLabelText('Date') as HTMLInputElement;
    expect(input.getAttribute('placeholder')).toBe('YYYY-MM-DD');
    fireEvent.change(input, { target: { value: '2026-01-01' } });
    await waitFor(() => expect(callsTo(fetch, '/api/get-logs').at(-1)).toMatchObject({ date: '2026-01-01', page: 1 }));
    expect(await screen.findByText('No Record Found')).toBeTruthy();
    const calls = callsTo(fetch, '/api/get-logs').length;
    fireEvent.change(input, { target: { value: '2999-01-01' } });
    expect(await screen.findByText(FILTER_MSG.dateFuture)).toBeTruthy();
    expect(callsTo(fetch, '/api/get-logs')).toHaveLength(calls);
    // typed as the list shows dates; a half-typed day asks nothing and the URL keeps the last whole one
    await userEvent.clear(input);
    await userEvent.type(input, '202601');
    expect(input.value).toBe('2026-01');
    expect(callsTo(fetch, '/api/get-logs').at(-1)).not.toMatchObject({ date: '2026-01' });
    await userEvent.type(input, '02');
    await waitFor(() => expect(callsTo(fetch, '/api/get-logs').at(-1)).toMatchObject({ date: '2026-01-02', page: 1 }));
  });

  it('opens a record with its before and after field by field', async () => {
    logsServer(2, {
      activity: 'Changed the role of a user',
      action: 'user.update-role',
      target: { type: 'user', id: '7' },
      before: { role: 'Reviewer', name: 'Bob' },
      after: { role: 'Finance', name: 'Bob' },
      detail: 'role changed',
    });
    signInAs(ALL_PERMISSIONS);
    renderApp('/activity-logs');
    await screen.findByText('User 2');
    await userEvent.click(
      screen.getByRole('button', { name: /^View details of Changed the role of a user by User 2/ }),
    );
    const dialog = await screen.findByRole('dialog', { name: 'Activity Details' });
    expect(within(dialog).getByText('user 7')).toBeTruthy();
    expect(within(dialog).getByText('role changed')).toBeTruthy();
    const changes = within(dialog).getByRole('table', { name: 'Changes' });
    const role = within(changes).getByText('role').closest('tr')!;
    expect(
      within(role)
        .getAllByRole('cell')
        .map((c) => c.textContent),
    ).toEqual(['role', 'Reviewer', 'Finance']);
    expect(role.getAttribute('data-changed')).toBe('true');
    expect(within(changes).getByText('name').closest('tr')!.getAttribute('data-changed')).toBeNull();
    await userEvent.click(within(dialog).getByRole('button', { name: 'Close' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
  });

  it('verifies the chain and shows where it breaks, or that it is intact', async () => {
    let intact = false;
    const fetch = logsServer(3);
    const base = fetch.getMockImplementation()!;
    fetch.mockImplementation(async (input, init) => {
      if (String(input) !== '/api/verify-logs') return base(input, init);
      const body = intact
        ? {
            message: ['The activity log is intact: 4 records checked'],
            intact,
            checked: 4,
            head: { seq: 4, hash: hash(4) },
          }
        : {
            message: ['The activity log is broken at record 2: a record was changed'],
            intact,
            checked: 1,
            head: { seq: 4, hash: hash(4) },
            first_break: { seq: 2, reason: 'edited' },
          };
      return new Response(JSON.stringify(body), { status: 200, headers: { 'content-type': 'application/json' } });
    });
    signInAs(ALL_PERMISSIONS);
    renderApp('/activity-logs');
    await screen.findByText('User 3');
    const listed = callsTo(fetch, '/api/get-logs').length;
    await userEvent.click(screen.getByRole('button', { name: 'Verify chain' }));
    const alert = await screen.findByTestId('verify-result');
    expect(alert.textContent).toContain('The activity log is broken at record 2: a record was changed');
    expect(alert.className).toMatch(/Error/);
    // the check is recorded: the list is asked again
    await waitFor(() => expect(callsTo(fetch, '/api/get-logs').length).toBeGreaterThan(listed));
    intact = true;
    await userEvent.click(screen.getByRole('button', { name: 'Verify chain' }));
    await waitFor(() =>
      expect(screen.getByTestId('verify-result').textContent).toContain(
        'The activity log is intact: 4 records checked',
      ),
    );
    expect(screen.getByTestId('verify-result').className).toMatch(/Success/);
  });

  it('offers no chain check to a merchant given the permission', async () => {
    logsServer(1);
    signInAs(ALL_PERMISSIONS, { role: 'Merchant', name: 'Acme Payouts' });
    renderApp('/activity-logs');
    await screen.findByText('User 1');
    expect(screen.queryByRole('button', { name: 'Verify chain' })).toBeNull();
  });
});

describe('fieldChanges', () => {
  it('pairs fields of before and after, nested ones by path, and marks the changed', () => {
    expect(fieldChanges({ a: 1, b: { c: 'x' } }, { a: 1, b: { c: 'y' }, d: true })).toEqual([
      { field: 'a', before: '1', after: '1', changed: false },
      { field: 'b.c', before: 'x', after: 'y', changed: true },
      { field: 'd', before: '-', after: 'true', changed: true },
    ]);
    expect(fieldChanges(null, null)).toEqual([]);
    expect(fieldChanges(null, 'on')).toEqual([{ field: 'value', before: '-', after: 'on', changed: true }]);
    expect(fieldChanges({ list: [1, 2] }, null)).toEqual([
      { field: 'list', before: '[1,2]', after: '-', changed: true },
    ]);
  });
});
