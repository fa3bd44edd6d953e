import { clearFilters } from '../lib/filters.ts';
import type { SearchedList } from '../lib/useSearchedList.ts';
import type { NextAction } from './columns.ts';
import { PagedTable } from './PagedTable.tsx';
import { SearchField } from './SearchField.tsx';

type Row = { id: string | number };
type TableProps<T extends Row> = Omit<Parameters<typeof PagedTable<T>>[0], 'list' | 'toolbar' | 'empty'>;

/**
 * A list searched by one box (useSearchedList) on its sheet: the SearchField in the table's toolbar, after the
 * list's own selects (`filters`). An empty list offers to clear the search and the other URL keys that narrow it
 * (`narrowedBy`), or, when nothing narrows it, the page's `create` actions.
 */
export function SearchedTable<T extends Row>({
  list,
  filters,
  narrowedBy = [],
  create,
  ...table
}: TableProps<T> & {
  list: SearchedList<T>;
  filters?: React.ReactNode;
  narrowedBy?: readonly string[];
  create?: readonly NextAction[];
}) {
  const { search } = list;
  return (
    <PagedTable<T>
      {...table}
      list={list}
      toolbar={
        <>
          {filters}
          <SearchField value={search.text} onChange={search.setText} helperText={search.matches} />
        </>
      }
      empty={{ clear: clearFilters(list.url, ['q', ...narrowedBy]), create }}
    />
  );
}
