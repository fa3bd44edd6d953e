import { PAGE_SIZES } from '@obol/contract';
import { useState } from 'react';

/** How many numbered page links the pager shows at most. */
export const PAGE_LINKS = 6;

export const pageCount = (total: number | undefined, perPage: number) => Math.max(1, Math.ceil((total ?? 0) / perPage));

/** The numbered pages shown: a window of up to six pages around the current one. */
export function pageWindow(page: number, pages: number, links = PAGE_LINKS): number[] {
  const start = Math.max(1, Math.min(page - Math.floor((links - 1) / 2), pages - links + 1));
  const end = Math.min(pages, start + links - 1);
  return Array.from({ length: end - start + 1 }, (_, i) => start + i);
}

/**
 * Page and page size of a list. A change of page size goes back to page 1; other resets (status, sort, filters)
 * call `reset`. `clamp` drops to the last page when the total shrinks so the current page vanishes.
 */
export function usePaging(initialSize: number = PAGE_SIZES[0]) {
  const [page, setPage] = useState(1);
  const [perPage, setPerPageState] = useState(initialSize);
  return {
    page,
    perPage,
    setPage,
    setPerPage(n: number) {
      setPerPageState(n);
      setPage(1);
    },
    reset() {
      setPage(1);
    },
    /** call during render once the answer for the current page is in */
    clamp(total: number | undefined, settled: boolean) {
      const pages = pageCount(total, perPage);
      if (settled && total !== undefined && page > pages) setPage(pages);
    },
  };
}
