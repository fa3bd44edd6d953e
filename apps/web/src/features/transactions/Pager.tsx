import { PAGE_SIZES } from '@obol/contract';
import { Box, MenuItem, PaginationItem, Stack, TextField } from '@mui/material';
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

interface PagerProps {
  page: number;
  pages: number;
  onPage: (p: number) => void;
  /** with a page-size select (10/20/30) when given */
  perPage?: number;
  onPerPage?: (n: number) => void;
  sizes?: readonly number[];
}

/** Pagination with at most six numbered links, first/previous/next/last buttons and an optional page-size select. */
export function Pager({ page, pages, onPage, perPage, onPerPage, sizes = PAGE_SIZES }: PagerProps) {
  const links = pageWindow(page, pages);
  const go = (p: number) => {
    if (p >= 1 && p <= pages && p !== page) onPage(p);
  };
  return (
    <Stack
      direction={{ xs: 'column', sm: 'row' }}
      spacing={2}
      sx={{ alignItems: 'center', justifyContent: 'flex-end', p: 2 }}
    >
      {perPage !== undefined && onPerPage ? (
        <TextField
          select
          size="small"
          label="Rows per page"
          value={perPage}
          onChange={(e) => onPerPage(Number(e.target.value))}
          sx={{ minWidth: 130 }}
        >
          {sizes.map((s) => (
            <MenuItem key={s} value={s}>
              {s}
            </MenuItem>
          ))}
        </TextField>
      ) : null}
      <Box component="nav" aria-label="pagination navigation">
        <Box
          component="ul"
          sx={{ display: 'flex', flexWrap: 'wrap', alignItems: 'center', listStyle: 'none', p: 0, m: 0 }}
        >
          <li>
            <PaginationItem type="first" aria-label="Go to first page" disabled={page <= 1} onClick={() => go(1)} />
          </li>
          <li>
            <PaginationItem
              type="previous"
              aria-label="Go to previous page"
              disabled={page <= 1}
              onClick={() => go(page - 1)}
            />
          </li>
          {links.map((p) => (
            <li key={p}>
              <PaginationItem
                type="page"
                page={p}
                selected={p === page}
                aria-current={p === page ? 'page' : undefined}
                aria-label={p === page ? `page ${p}` : `Go to page ${p}`}
                onClick={() => go(p)}
              />
            </li>
          ))}
          <li>
            <PaginationItem
              type="next"
              aria-label="Go to next page"
              disabled={page >= pages}
              onClick={() => go(page + 1)}
            />
          </li>
          <li>
            <PaginationItem
              type="last"
              aria-label="Go to last page"
              disabled={page >= pages}
              onClick={() => go(pages)}
            />
          </li>
        </Box>
      </Box>
    </Stack>
  );
}
