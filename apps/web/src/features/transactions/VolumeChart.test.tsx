import type { PayoutVolume, VolumeDay } from '@obol/contract';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { callsTo, mockApi, renderWithProviders, signInAs } from '../../test-utils.tsx';
import { barTitle, niceCeil, shortValue } from './VolumeBars.tsx';
import { VolumeChart, volumeSummary } from './VolumeChart.tsx';

const f = (count: number, amount: number) => ({ count, amount });
const day = (d: string, c: number[], p: number[], x: number[]): VolumeDay => ({
  day: d,
  completed: f(c[0], c[1]),
  pending: f(p[0], p[1]),
  failed: f(x[0], x[1]),
});
const VOLUME: PayoutVolume = {
  start_date: '2026-11-01',
  end_date: '2026-11-03',
  tz: 'UTC',
  days: [
    day('2026-11-01', [2, 1500], [0, 0], [1, 500]),
    day('2026-11-02', [0, 0], [0, 0], [0, 0]),
    day('2026-11-03', [1, 10_000], [3, 3000], [0, 0]),
  ],
  totals: { completed: f(3, 11_500), pending: f(3, 3000), failed: f(1, 500) },
};

describe('the payout volume chart', () => {
  it('asks for the figures of the filters it is given', async () => {
    signInAs();
    const fetch = mockApi({ '/api/payout-volume': () => ({ body: VOLUME }) });
    renderWithProviders(<VolumeChart filters={{ status: 'Failed', brand: 'Acme Brand', tz: 'UTC' }} />);
    await screen.findByRole('img');
    expect(callsTo(fetch, '/api/payout-volume')).toEqual([{ status: 'Failed', brand: 'Acme Brand', tz: 'UTC' }]);
  });

  it('draws a stacked bar per day in the status colours, a title per bar, a legend and the totals', async () => {
    signInAs();
    mockApi({ '/api/payout-volume': () => ({ body: VOLUME }) });
    renderWithProviders(<VolumeChart filters={{ tz: 'UTC' }} />);
    const img = await screen.findByRole('img');
    expect(img.getAttribute('aria-label')).toBe(volumeSummary(VOLUME));
    expect(img.getAttribute('aria-label')).toBe(
      'Payout volume per day from Nov 1 to Nov 3: 7 payouts, €150.00. Completed 3 (€115.00), Pending or processing 3 (€30.00), Failed 1 (€5.00).',
    );
    const days = img.querySelectorAll('g.day');
    expect(days).toHaveLength(3);
    // the first day: completed below failed; an empty day has no bar; the third day: completed below pending
    const groups = (g: Element) => [...g.querySelectorAll('rect[data-group]')].map((r) => r.getAttribute('data-group'));
    expect(groups(days[0])).toEqual(['completed', 'failed']);
    expect(groups(days[1])).toEqual([]);
    expect(groups(days[2])).toEqual(['completed', 'pending']);
    const [done, pending] = days[2].querySelectorAll('rect[data-group]');
    // amounts by default: 10 000 of 13 000 cents is the completed part, drawn lower (a larger y) than pending
    expect(Number(done.getAttribute('height'))).toBeGreaterThan(Number(pending.getAttribute('height')) * 3);
    expect(Number(done.getAttribute('y'))).toBeGreaterThan(Number(pending.getAttribute('y')));
    expect(days[0].querySelector('title')?.textContent).toBe(
      'Nov 1: 3 payouts, €20.00. Completed 2 (€15.00), Pending or processing 0 (€0.00), Failed 1 (€5.00)',
    );
    expect(screen.getByText('Nov 1 – Nov 3 · 7 payouts · €150.00')).toBeTruthy();
    const legend = screen.getByRole('list');
    expect(
      within(legend)
        .getAllByRole('listitem')
        .map((li) => li.textContent),
    ).toEqual(['Completed 3', 'Pending or processing 3', 'Failed 1']);
    // the colours are the theme's status colours, one per group
    const fills = new Set([...img.querySelectorAll('rect[data-group]')].map((r) => r.getAttribute('fill')));
    expect(fills.size).toBe(3);
  });

  it('switches between amounts and counts', async () => {
    signInAs();
    mockApi({ '/api/payout-volume': () => ({ body: VOLUME }) });
    renderWithProviders(<VolumeChart filters={{ tz: 'UTC' }} />);
    const img = await screen.findByRole('img');
    const bar = () => img.querySelectorAll('g.day')[2].querySelectorAll('rect[data-group]');
    expect(Number(bar()[0].getAttribute('height'))).toBeGreaterThan(Number(bar()[1].getAttribute('height')));
    await userEvent.click(screen.getByRole('button', { name: 'Count' }));
    // by count the third day is 1 completed under 3 pending
    await waitFor(() =>
      expect(Number(bar()[0].getAttribute('height'))).toBeLessThan(Number(bar()[1].getAttribute('height'))),
    );
    // the axis counts whole payouts now: the day's 4 rounded up to 5, no tick at 2.5
    const axis = () => [...img.querySelectorAll('g:not(.day) > text')].map((t) => t.textContent);
    expect(axis()).toEqual(['0', '5']);
    expect(screen.getByRole('button', { name: 'Count' }).getAttribute('aria-pressed')).toBe('true');
  });

  it('gives screen readers the figures as a table', async () => {
    signInAs();
    mockApi({ '/api/payout-volume': () => ({ body: VOLUME }) });
    renderWithProviders(<VolumeChart filters={{ tz: 'UTC' }} />);
    const table = await screen.findByRole('table', { name: 'Payout volume by day and status' });
    const rows = within(table).getAllByRole('row');
    expect(rows).toHaveLength(4);
    expect(rows[1].textContent).toBe('2026-11-012 payouts, €15.000 payouts, €0.001 payout, €5.00');
  });

  it('says so when the figures cannot be loaded', async () => {
    signInAs();
    mockApi({ '/api/payout-volume': () => ({ status: 400, body: { error: ['bad'] } }) });
    renderWithProviders(<VolumeChart filters={{ tz: 'UTC' }} />);
    await screen.findByText('The chart could not be loaded.');
    expect(screen.queryByRole('img')).toBeNull();
  });

  it('scales its axis to round values and writes them short', () => {
    expect([0, 7, 13, 240, 3001, 9_999].map(niceCeil)).toEqual([1, 10, 20, 250, 5000, 10_000]);
    expect(shortValue(250_000, 'amount')).toBe('€2.5k');
    expect(shortValue(1200, 'count')).toBe('1.2k');
    expect(shortValue(50, 'amount')).toBe('€0.5');
    expect(shortValue(2500, 'amount')).toBe('€25');
    expect(barTitle(VOLUME.days[1])).toBe(
      'Nov 2: 0 payouts, €0.00. Completed 0 (€0.00), Pending or processing 0 (€0.00), Failed 0 (€0.00)',
    );
  });
});
