import { PAYOUT_STATUS_OPTIONS, REFUND_TYPE_OPTIONS } from '@obol/contract';
import { describe, expect, it, vi } from 'vitest';
import { dateSort, urlOption } from './urlOption.ts';
import type { UrlParams } from './urlState.ts';

const urlAt = (query: string) => {
  const update = vi.fn();
  return { url: { params: new URLSearchParams(query), update, setAll: vi.fn() } as UrlParams, update };
};

describe('urlOption', () => {
  it('reads the option named in the URL, and All for none or an unknown name', () => {
    expect(urlOption(urlAt('type=CardEye').url, 'type', REFUND_TYPE_OPTIONS, 'type').select.value).toBe(1);
    expect(urlOption(urlAt('').url, 'type', REFUND_TYPE_OPTIONS, 'type').chosen.label).toBe('All Types');
    const odd = urlOption(urlAt('status=Nope').url, 'status', PAYOUT_STATUS_OPTIONS, 'status');
    expect([odd.name, odd.select.value]).toEqual(['', -1]);
  });

  it('writes the chosen name back on page 1, and no parameter for All', () => {
    const { url, update } = urlAt('status=Failed&page=3');
    const status = urlOption(url, 'status', PAYOUT_STATUS_OPTIONS, 'status');
    status.select.onChange(1);
    status.select.onChange(-1);
    expect(update.mock.calls).toEqual([[{ status: 'Completed', page: null }], [{ status: null, page: null }]]);
  });

  it('keeps the date sort as sort=oldest, newest first without it', () => {
    expect(dateSort(urlAt('').url).sort).toBe('DESC');
    expect(dateSort(urlAt('sort=newest').url).sort).toBe('DESC');
    const { url, update } = urlAt('sort=oldest');
    const sort = dateSort(url);
    expect([sort.sort, sort.select.value]).toEqual(['ASC', 1]);
    sort.select.onChange(-1);
    expect(update).toHaveBeenCalledWith({ sort: null, page: null });
  });
});
