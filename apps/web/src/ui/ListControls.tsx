import type { Permission } from '@obol/contract';
import { Stack } from '@mui/material';
import type { ComponentProps, ReactNode } from 'react';
import { searchAgain } from '../lib/filters.ts';
import type { Paging } from '../lib/paging.ts';
import { hasPermission, useSession } from '../lib/session.ts';
import { ExportButton, type ExportFormat } from './ExportButton.tsx';
import { FilterPanel, FilterToggle } from './FilterPanel.tsx';
import { ListHeader } from './ListHeader.tsx';

/** What the controls use of their list (usePagedList, useKeysetList): its reload, page and total. */
interface SearchedList {
  q: { refetch: () => unknown };
  paging: Paging;
  total: number | undefined;
}

/**
 * The controls of a transaction list, above its table: the title (none on a tab of a page: the controls alone, at
 * the right); the filter toggle and the panel of `fields` (useFilters' `filters`), for a user who 'can search';
 * the list's selects (`children`: sort, type, status); the export, for a user with `exportRight`, off while the
 * list is empty. A search's result reloads the list (searchAgain).
 */
export function ListControls({
  title,
  list,
  filters,
  fields,
  onExport,
  exportRight = 'User can export transactions',
  children,
}: {
  title?: string;
  list: SearchedList;
  filters?: ComponentProps<typeof FilterPanel>['filters'];
  fields?: ReactNode;
  onExport: (format: ExportFormat) => Promise<unknown>;
  exportRight?: Permission;
  children?: ReactNode;
}) {
  const session = useSession();
  const search = filters && hasPermission(session, 'User can search') ? filters : null;
  const reload = searchAgain(list.paging, list.q.refetch);
  const controls = (
    <>
      {search ? <FilterToggle filters={search} onResult={reload} /> : null}
      {children}
      {hasPermission(session, exportRight) ? <ExportButton disabled={!list.total} onExport={onExport} /> : null}
    </>
  );
  return (
    <>
      {title ? (
        <ListHeader title={title}>{controls}</ListHeader>
      ) : (
        <Stack direction="row" spacing={2} sx={{ alignItems: 'center', justifyContent: 'flex-end', mb: 2 }}>
          {controls}
        </Stack>
      )}
      {search ? (
        <FilterPanel filters={search} onResult={reload}>
          {fields}
        </FilterPanel>
      ) : null}
    </>
  );
}
