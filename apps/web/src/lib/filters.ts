import { FILTER_MSG, isCalendarDate, normaliseRange } from '@obol/contract';
import { useState } from 'react';
import { today } from './dates.ts';
import { FIRST_PAGE, type Paging } from './paging.ts';
import { useUrlParams, type UrlParams, type UrlPatch } from './urlState.ts';

export type FilterValues<K extends string> = Record<K, string>;
export type FilterErrors<K extends string> = Partial<Record<K, string>>;

/** What applying or clearing the filters did: nothing new (the caller reloads), a new search, or refused. */
export type ApplyResult = 'changed' | 'same' | 'invalid';

const same = (a: object, b: object) => JSON.stringify(a) === JSON.stringify(b);
const DAY = /^\d{4}-\d{2}-\d{2}$/;

/**
 * The filters a URL holds: each key of `empty` read from its parameter; a value its check refuses (or a date that
 * is not YYYY-MM-DD) falls back to empty, so a hand-edited link never breaks the list.
 */
export function filtersFromUrl<K extends string>(
  params: URLSearchParams,
  empty: FilterValues<K>,
  validate?: (v: FilterValues<K>) => FilterErrors<K>,
): FilterValues<K> {
  const read = { ...empty };
  for (const k of Object.keys(empty) as K[]) {
    const v = (params.get(k) ?? '').slice(0, 200);
    read[k] = k.endsWith('_date') && v && !DAY.test(v) ? '' : v;
  }
  const errs: FilterErrors<K> = validate?.(read) ?? {};
  for (const k of Object.keys(errs) as K[]) if (errs[k]) read[k] = empty[k];
  return read;
}

/**
 * The filter panel's state: what is typed (draft), what the list uses (applied, kept in the URL), per-field
 * errors. `apply` validates the draft and puts it in the URL (a new history entry, back to page 1); `close`
 * hides the panel and clears both. The panel starts open when the URL holds filters (a shared link).
 */
export function useFilters<K extends string>(
  empty: FilterValues<K>,
  validate?: (v: FilterValues<NoInfer<K>>) => FilterErrors<NoInfer<K>>,
  url?: UrlParams,
) {
  const own = useUrlParams();
  const { params, update } = url ?? own;
  const applied = filtersFromUrl(params, empty, validate);
  const appliedKey = JSON.stringify(applied);
  const anyApplied = !same(applied, empty);
  const [open, setOpen] = useState(anyApplied);
  const [draft, setDraft] = useState(applied);
  const [errors, setErrors] = useState<FilterErrors<K>>({});
  // the URL changed under the form (back, forward, a link): the form follows it
  const [seen, setSeen] = useState(appliedKey);
  if (seen !== appliedKey) {
    setSeen(appliedKey);
    setDraft(applied);
    setErrors({});
    if (anyApplied) setOpen(true);
  }
  const set = (key: K, value: string) => {
    setDraft((d) => ({ ...d, [key]: value }));
    setErrors((e) => ({ ...e, [key]: undefined }));
  };
  const write = (values: FilterValues<K>) => {
    const patch: UrlPatch = { ...FIRST_PAGE };
    for (const k of Object.keys(values) as K[]) patch[k] = values[k].trim();
    update(patch);
  };
  const apply = (): ApplyResult => {
    const errs = validate?.(draft) ?? {};
    if (Object.values(errs).some(Boolean)) {
      setErrors(errs);
      return 'invalid';
    }
    setErrors({});
    if (same(draft, applied)) return 'same';
    write(draft);
    return 'changed';
  };
  const close = (): ApplyResult => {
    setOpen(false);
    setDraft(empty);
    setErrors({});
    if (!anyApplied) return 'same';
    write(empty);
    return 'changed';
  };
  /** props of a text field bound to one filter; `hint` (how it matches) shows under it unless there is an error */
  const field = (key: K, hint?: string) => ({
    value: draft[key],
    onChange: (e: { target: { value: string } }) => set(key, e.target.value),
    error: !!errors[key],
    helperText: errors[key] ?? hint,
  });
  return { open, draft, applied, errors, setOpen, set, apply, close, field };
}

/** The request fields of a set of filters: empty ones left out, a date range normalised (one date: start = end). */
export function filterBody(values: Record<string, string>): Record<string, string | number> {
  const out: Record<string, string | number> = {};
  for (const [k, v] of Object.entries(values)) {
    if (k === 'start_date' || k === 'end_date') continue;
    const t = v.trim();
    if (!t) continue;
    out[k] = k === 'amount' ? Number(t) : t;
  }
  return { ...out, ...normaliseRange(values.start_date?.trim(), values.end_date?.trim()) };
}

/** What a filter field says about how it matches (the server's own rule). */
export const MATCH = {
  exact: 'Exact match',
  contains: 'Contains',
} as const;

/** An amount filter in cents: whole and 0 or more. */
export function centsError(v: string): string | undefined {
  const t = v.trim();
  if (!t) return undefined;
  if (!/^-?\d+(\.\d+)?$/.test(t)) return FILTER_MSG.amountWhole;
  const n = Number(t);
  if (n < 0) return FILTER_MSG.amountMin;
  if (!Number.isInteger(n)) return FILTER_MSG.amountWhole;
  return undefined;
}

/** Real dates written YYYY-MM-DD (they are typed), up to today. */
export function dateErrors(v: { start_date?: string; end_date?: string }) {
  const max = today();
  const check = (d?: string) =>
    !d ? undefined : !isCalendarDate(d) ? FILTER_MSG.dateInvalid : d > max ? FILTER_MSG.dateFuture : undefined;
  return { start_date: check(v.start_date), end_date: check(v.end_date) };
}

/**
 * Clearing what narrows a list (its filters, search, status or type kept in the URL under `keys`) in one patch,
 * back to page 1; undefined when none is set, so an empty list offers its create action instead.
 */
export function clearFilters(url: UrlParams, keys: readonly string[]): (() => void) | undefined {
  if (!keys.some((k) => url.params.get(k))) return undefined;
  return () => url.update({ ...Object.fromEntries(keys.map((k) => [k, null])), ...FIRST_PAGE });
}

/**
 * What a list does with a search's result (useFilters' apply and close): a changed search already went to page 1
 * with the URL; the same one reloads the list, back on page 1.
 */
export const searchAgain = (paging: Paging, refetch: () => unknown) => (r: ApplyResult) => {
  if (r !== 'same') return;
  if (paging.page === 1) void refetch();
  else paging.reset();
};
