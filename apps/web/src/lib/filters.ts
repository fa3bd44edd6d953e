import { FILTER_MSG, normaliseRange } from '@obol/contract';
import { useState } from 'react';
import { today } from './dates.ts';

export type FilterValues<K extends string> = Record<K, string>;
export type FilterErrors<K extends string> = Partial<Record<K, string>>;

/** What applying or clearing the filters did: nothing new (the caller reloads), a new search, or refused. */
export type ApplyResult = 'changed' | 'same' | 'invalid';

const same = (a: object, b: object) => JSON.stringify(a) === JSON.stringify(b);

/**
 * The filter panel's state: what is typed (draft), what the list uses (applied), per-field errors.
 * `apply` validates the draft and makes it the applied filters; `close` hides the panel and clears both.
 */
export function useFilters<K extends string>(
  empty: FilterValues<K>,
  validate?: (v: FilterValues<NoInfer<K>>) => FilterErrors<NoInfer<K>>,
) {
  const [open, setOpen] = useState(false);
  const [draft, setDraft] = useState(empty);
  const [applied, setApplied] = useState(empty);
  const [errors, setErrors] = useState<FilterErrors<K>>({});
  const set = (key: K, value: string) => {
    setDraft((d) => ({ ...d, [key]: value }));
    setErrors((e) => ({ ...e, [key]: undefined }));
  };
  const apply = (): ApplyResult => {
    const errs = validate?.(draft) ?? {};
    if (Object.values(errs).some(Boolean)) {
      setErrors(errs);
      return 'invalid';
    }
    setErrors({});
    if (same(draft, applied)) return 'same';
    setApplied(draft);
    return 'changed';
  };
  const close = (): ApplyResult => {
    setOpen(false);
    setDraft(empty);
    setErrors({});
    if (same(applied, empty)) return 'same';
    setApplied(empty);
    return 'changed';
  };
  /** props of a text field bound to one filter */
  const field = (key: K) => ({
    value: draft[key],
    onChange: (e: { target: { value: string } }) => set(key, e.target.value),
    error: !!errors[key],
    helperText: errors[key],
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

/** Dates up to today. */
export function dateErrors(v: { start_date?: string; end_date?: string }) {
  const max = today();
  const check = (d?: string) => (d && d > max ? FILTER_MSG.dateFuture : undefined);
  return { start_date: check(v.start_date), end_date: check(v.end_date) };
}
