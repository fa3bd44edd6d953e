import { PAGE_SIZES } from '@obol/contract';
import { useEffect } from 'react';
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
