import { Paper } from '@mui/material';
import type { ReactNode } from 'react';
import type { KeysetAnswer, KeysetPaging, PagedList, Paging } from '../lib/paging.ts';
import { ListTable, type ListTableProps } from './ListTable.tsx';
import { KeysetPager, ListPager } from './Pager.tsx';

type Row = { id: string | number };

/**
 * A paged list's table props: its rows are keyed by their id, and a row that changed a moment ago is marked (the
 * list's `fresh`, when it is live).
 */
type TableProps<T> = Omit<ListTableProps<T>, 'rows' | 'loading' | 'rowKey' | 'rowFresh'>;

/** The rows of the page on screen on their sheet, then what goes under them (totals, the pager). */
function Sheet<T extends Row>({
  rows,
  loading,
  fresh,
  children,
  ...table
}: TableProps<T> & {
  rows: readonly T[];
  loading: boolean;
  fresh: ((id: string | number) => boolean) | undefined;
  children: ReactNode;
}) {
  return (
    <Paper>
      <ListTable<T>
        {...table}
        rows={rows}
        rowKey={(r) => r.id}
        rowFresh={fresh && ((r) => fresh(r.id))}
        loading={loading}
      />
      {children}
    </Paper>
  );
}

/** A list paged by number (usePagedList) on its sheet: the table of the page on screen, then its pager. */
export function PagedTable<T extends Row>({ list, ...table }: TableProps<T> & { list: PagedList<T> }) {
  return (
    <Sheet {...table} rows={list.rows} loading={list.q.isLoading} fresh={list.fresh}>
      <ListPager paging={list.paging} total={list.total} />
    </Sheet>
  );
}

/** What a table of a list paged by keyset takes of it (useKeysetList). */
interface KeysetList<T> {
  q: { isLoading: boolean; data?: KeysetAnswer };
  paging: Paging;
  keyset: KeysetPaging;
  settled: boolean;
  rows: readonly T[];
  fresh: ((id: string | number) => boolean) | undefined;
}

/**
 * A list paged by keyset (useKeysetList) on its sheet: the table, what goes under it (`children`: totals), then
 * its pager.
 */
export function KeysetTable<T extends Row>({
  list,
  children,
  ...table
}: TableProps<T> & { list: KeysetList<T>; children?: ReactNode }) {
  return (
    <Sheet {...table} rows={list.rows} loading={list.q.isLoading} fresh={list.fresh}>
      {children}
      <KeysetPager paging={list.paging} list={list} />
    </Sheet>
  );
}
