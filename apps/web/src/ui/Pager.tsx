import { PAGE_SIZES } from '@obol/contract';
import { Box, MenuItem, PaginationItem, Stack, TextField, Typography, useMediaQuery, type Theme } from '@mui/material';
import {
  aboutCount,
  keysetPages,
  pageCount,
  pageWindow,
  type KeysetAnswer,
  type KeysetPaging,
  type Paging,
} from '../lib/paging.ts';

interface PagerProps {
  page: number;
  pages: number;
  onPage: (p: number) => void;
  /** with a page-size select (10/20/30) when given */
  perPage?: number;
  onPerPage?: (n: number) => void;
  sizes?: readonly number[];
  /**
   * The list's total when the server could only estimate it (a long list): shown as "about 1.2M rows", and
   * the last page, which is not known, cannot be jumped to.
   */
  estimatedTotal?: number;
}

/**
 * Pagination with at most six numbered links (three on a phone), first/previous/next/last buttons and an optional
 * page-size select.
 */
export function Pager({ page, pages, onPage, perPage, onPerPage, sizes = PAGE_SIZES, estimatedTotal }: PagerProps) {
  const estimated = estimatedTotal !== undefined;
  // on a phone three numbers: with first, previous, next and last the row fits 390 px without wrapping
  const phone = useMediaQuery((t: Theme) => t.breakpoints.down('sm'), { noSsr: true });
  const links = pageWindow(page, pages, phone ? 3 : undefined);
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
      {estimated ? (
        <Typography
          variant="body2"
          sx={{ color: 'text.secondary' }}
          title="An estimate: a list this long is not counted"
        >
          {aboutCount(estimatedTotal)} rows
        </Typography>
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
              disabled={page >= pages || estimated}
              onClick={() => go(pages)}
            />
          </li>
        </Box>
      </Box>
    </Stack>
  );
}

/**
 * The pager of a list paged by number (usePaging): its pages from the list's total, with its page sizes when it
 * has a choice of them (a list of one size has no select).
 */
export function ListPager({ paging, total }: { paging: Paging; total: number | undefined }) {
  const sized = paging.sizes.length > 1;
  return (
    <Pager
      page={paging.page}
      pages={pageCount(total, paging.perPage)}
      onPage={paging.setPage}
      perPage={sized ? paging.perPage : undefined}
      onPerPage={paging.setPerPage}
      sizes={paging.sizes}
    />
  );
}

/**
 * The pager of a list paged by keyset (useKeysetList): a step from the page on screen goes by its cursor, when
 * the answer is that page's own (`settled`, not a placeholder of an earlier one); an estimated total shows as one.
 */
export function KeysetPager({
  paging,
  list,
}: {
  paging: Paging;
  list: { keyset: KeysetPaging; q: { data?: KeysetAnswer }; settled: boolean };
}) {
  const { keyset, settled } = list;
  const answer = list.q.data;
  return (
    <Pager
      page={paging.page}
      pages={keysetPages(answer, paging.page, paging.perPage)}
      onPage={(p) => keyset.setPage(p, settled ? answer : undefined)}
      perPage={paging.perPage}
      onPerPage={paging.setPerPage}
      sizes={paging.sizes}
      estimatedTotal={answer?.transactions.total_estimated ? answer.transactions.total : undefined}
    />
  );
}
