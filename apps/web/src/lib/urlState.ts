import { useSearchParams } from 'react-router';

/** A change of the query string: a value sets the parameter, null, undefined or '' removes it. */
export type UrlPatch = Record<string, string | number | null | undefined>;

/**
 * The list state kept in the URL (filters, status, sort, search, page, page size), so a list can be shared,
 * reloaded and stepped back through. `update` applies one patch: pass every change of one action in a single
 * patch (a filter change and the page going back to 1), as two calls in one event do not compose.
 * Committed changes push a history entry; keystroke-level ones (a debounced search) replace it.
 */
export function useUrlParams() {
  const [params, setParams] = useSearchParams();
  const update = (patch: UrlPatch, opts: { replace?: boolean } = {}) => {
    const next = new URLSearchParams(params);
    for (const [k, v] of Object.entries(patch)) {
      if (v === null || v === undefined || v === '') next.delete(k);
      else next.set(k, String(v));
    }
    if (next.toString() === params.toString()) return;
    setParams(next, { replace: opts.replace, preventScrollReset: true });
  };
  /** the whole query string at once: `values` only (a new view of the page, such as another tab) */
  const setAll = (values: Record<string, string>) => setParams(values, { preventScrollReset: true });
  return { params, update, setAll };
}
export type UrlParams = ReturnType<typeof useUrlParams>;

/** A whole number from 1 up in the URL, or the fallback for anything else. */
export function positiveInt(raw: string | null, fallback: number): number {
  if (raw === null || !/^\d{1,9}$/.test(raw)) return fallback;
  const n = Number(raw);
  return n >= 1 ? n : fallback;
}

/** One of the allowed values, or the fallback. */
export function oneOf<T extends string | number>(raw: string | null, allowed: readonly T[], fallback: T): T {
  if (raw === null) return fallback;
  return allowed.find((a) => String(a) === raw) ?? fallback;
}
