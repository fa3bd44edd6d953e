import { PAGE_SIZES, type LiveKind } from '@obol/contract';
import { keepPreviousData, useQuery, type QueryKey, type UseQueryOptions } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { useFallbackPoll, useFresh } from './live.tsx';
import { positiveInt, useUrlParams, type UrlParams } from './urlState.ts';

/** How many numbered page links the pager shows at most. */
export const PAGE_LINKS = 6;

export const pageCount = (total: number | undefined, perPage: number) => Math.max(1, Math.ceil((total ?? 0) / perPage));

/** The numbered pages shown: a window of up to six pages around the current one. */
export function pageWindow(page: number, pages: number, links = PAGE_LINKS): number[] {
  const start = Math.max(1, Math.min(page - Math.floor((links - 1) / 2), pages - links + 1));
  const end = Math.min(pages, start + links - 1);
  return Array.from({ length: end - start + 1 }, (_, i) => start + i);
}

/** The URL patch that sends a list back to its first page (with a change of its filters). */
export const FIRST_PAGE = { page: null } as const;

/**
 * Page and page size of a list, kept in the URL (`page`, `per_page`; absent when the default). A page size that
 * is not one of `sizes` (or a page that is not a whole number from 1) falls back to the default. A change of
 * page size goes back to page 1; other resets (status, sort, filters) add FIRST_PAGE to their own URL patch.
 */
export function usePaging(initialSize: number = PAGE_SIZES[0], sizes: readonly number[] = PAGE_SIZES, url?: UrlParams) {
  const own = useUrlParams();
  const { params, update } = url ?? own;
  const page = positiveInt(params.get('page'), 1);
  const raw = positiveInt(params.get('per_page'), initialSize);
  const perPage = sizes.includes(raw) ? raw : initialSize;
  return {
    page,
    perPage,
    sizes,
    setPage(p: number) {
      update({ page: p === 1 ? null : p });
    },
    setPerPage(n: number) {
      update({ per_page: n === initialSize ? null : n, page: null });
    },
    reset() {
      update(FIRST_PAGE);
    },
    /** drops to the last page (replacing the URL) once an answer says the current page no longer exists */
    fix(total: number | undefined, settled: boolean) {
      const pages = pageCount(total, perPage);
      if (settled && total !== undefined && page > pages)
        update({ page: pages === 1 ? null : pages }, { replace: true });
    },
  };
}
export type Paging = ReturnType<typeof usePaging>;

/** Call once the answer for the current page is in: a page beyond the last drops to the last one. */
export function useClampPage(paging: Paging, total: number | undefined, settled: boolean) {
  const { fix } = paging;
  useEffect(() => {
    fix(total, settled);
  });
}

/** One page of a list paged by number: its rows and the list's total. */
export interface PageOf<T> {
  data: readonly T[];
  total: number;
}

/**
 * How a list follows the live stream (lib/live.tsx, docs/decisions/036-live-events.md): `kind`, the events that
 * change its rows (the changed ones are marked, `fresh`); `poll`, the spec's refresh, kept only while the stream
 * is down (useFallbackPoll).
 */
export interface LiveList {
  kind: LiveKind;
  poll?: number;
}

/** A live list's refetch interval and the mark of its changed rows; neither for a list that is not live. */
function useLive(live: LiveList | undefined): {
  refetchInterval: number | false;
  fresh: ((id: string | number) => boolean) | undefined;
} {
  const poll = useFallbackPoll(live?.poll ?? 0);
  const fresh = useFresh(live?.kind);
  return { refetchInterval: live?.poll ? poll : false, fresh: live ? fresh : undefined };
}

/**
 * A list paged by number, read from the server: `query` is the query of the page on screen (its request has the
 * page and page size), `page` picks the rows and the total from the answer. The page on screen stays while the
 * next one loads, and a page beyond the last drops to the last one. `live`: how it follows the live stream.
 */
export function usePagedList<A, T, K extends QueryKey>(
  paging: Paging,
  query: UseQueryOptions<A, Error, A, K>,
  page: (answer: A) => PageOf<T>,
  live?: LiveList,
) {
  const { refetchInterval, fresh } = useLive(live);
  const q = useQuery({ ...query, placeholderData: keepPreviousData, refetchInterval });
  const shown = q.data === undefined ? undefined : page(q.data);
  const total = shown?.total;
  useClampPage(paging, total, !!q.data && !q.isPlaceholderData);
  const list: PagedList<T> & { q: typeof q } = { q, paging, total, rows: shown?.data ?? [], fresh };
  return list;
}
/** What a table of a list paged by number takes of it (usePagedList). */
export interface PagedList<T> {
  q: { isLoading: boolean };
  paging: Paging;
  total: number | undefined;
  rows: readonly T[];
  /** whether the row of this id changed a moment ago (a live list's) */
  fresh?: (id: string | number) => boolean;
}

/** What a list paged by keyset answers beside its rows (payout and completed transactions). */
export interface KeysetAnswer {
  transactions: { data: unknown[]; total: number; total_estimated: boolean };
  next_cursor: string | null;
  prev_cursor: string | null;
}

/** The cursor a step sends: `cursor` one page forward, `prev_cursor` one page back. */
export type CursorStep = { cursor: string } | { prev_cursor: string };

interface Step {
  /** the list (filters, sort, page size) the cursor belongs to */
  list: string;
  page: number;
  send: CursorStep;
}

/**
 * Next and previous by keyset, for a list whose API answers cursors: a step of one page sends the cursor of
 * the page shown (its last row forwards, its first row backwards), which the server reads by index at any
 * depth; page 1, a page link further away, a reload and the browser's back and forward read by page number
 * (OFFSET), as before. The page number stays in the URL; a cursor is only used for the page it leads to and
 * the list it came from (`list`: filters, sort and page size), so a change of any of them reads by number.
 */
export function useKeysetPaging(paging: Paging, list: unknown) {
  const key = JSON.stringify(list);
  // the step that led to the page on screen, and the one just taken: until the URL shows the new page, the page
  // on screen keeps its own request (else it would be asked again by number for a render)
  const [steps, setSteps] = useState<{ shown: Step | null; taken: Step | null }>({ shown: null, taken: null });
  const current = [steps.taken, steps.shown].find((s) => s && s.list === key && s.page === paging.page) ?? null;
  return {
    /** the cursor field of this page's request, if it is read by a step ({} when by page number) */
    cursor: (current?.send ?? {}) as CursorStep | Record<string, never>,
    /** goes to page `p`; `shown` is the answer of the page on screen (not a placeholder of an earlier one) */
    setPage(p: number, shown: KeysetAnswer | undefined) {
      const next = shown && p === paging.page + 1 ? shown.next_cursor : null;
      const prev = shown && p === paging.page - 1 && p > 1 ? shown.prev_cursor : null;
      const taken: Step | null = next
        ? { list: key, page: p, send: { cursor: next } }
        : prev
          ? { list: key, page: p, send: { prev_cursor: prev } }
          : null;
      setSteps({ shown: current, taken });
      paging.setPage(p);
    },
  };
}
export type KeysetPaging = ReturnType<typeof useKeysetPaging>;

/**
 * A list paged by keyset, read from the server: `listed` is its request but the page (filters, sort, page size),
 * `query` the query of one page's request. The page on screen stays while the next one loads, and a page beyond
 * the last (when the total is exact) drops to the last one. `settled`: the answer is this page's own. `live`: how
 * it follows the live stream.
 */
export function useKeysetList<A extends KeysetAnswer, L extends object, K extends QueryKey>(
  paging: Paging,
  listed: L,
  query: (
    body: NoInfer<L> & { page: number; cursor?: string; prev_cursor?: string },
  ) => UseQueryOptions<A, Error, A, K>,
  live: LiveList,
) {
  const { refetchInterval, fresh } = useLive(live);
  const keyset = useKeysetPaging(paging, listed);
  const q = useQuery({
    ...query({ ...listed, page: paging.page, ...keyset.cursor }),
    placeholderData: keepPreviousData,
    refetchInterval,
  });
  const settled = !!q.data && !q.isPlaceholderData;
  const total = q.data?.transactions.total;
  useClampPage(paging, q.data?.transactions.total_estimated ? undefined : total, settled);
  const rows: A['transactions']['data'] = q.data?.transactions.data ?? [];
  return { q, paging, keyset, settled, total, rows, fresh };
}

/**
 * The pages a keyset list has, for the pager: from its total when exact; when the total is an estimate, at
 * least one more than the current page while it is full, and exactly the current page once it is not (the end).
 */
export function keysetPages(answer: KeysetAnswer | undefined, page: number, perPage: number): number {
  const pages = pageCount(answer?.transactions.total, perPage);
  if (!answer?.transactions.total_estimated) return pages;
  return answer.transactions.data.length < perPage ? page : Math.max(pages, page + 1);
}

const compact = new Intl.NumberFormat('en', { notation: 'compact', maximumFractionDigits: 1 });
/** An estimated count as people say it: "about 1.2M", "about 12K". */
export const aboutCount = (n: number) => `about ${compact.format(n)}`;
