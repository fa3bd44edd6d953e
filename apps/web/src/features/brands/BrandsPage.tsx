import type { BrandRow } from '@obol/contract';
import { Paper, Stack } from '@mui/material';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { localDate } from '../../lib/format.ts';
import { pageCount, useClampPage, usePaging } from '../../lib/paging.ts';
import { useUrlParams } from '../../lib/urlState.ts';
import { useUrlSearch } from '../../lib/useUrlSearch.ts';
import { CopyButton } from '../../ui/CopyButton.tsx';
import { ActiveCounters } from '../../ui/Counter.tsx';
import { ListTable, type Column } from '../../ui/ListTable.tsx';
import { PageTitle } from '../../ui/PageTitle.tsx';
import { Pager } from '../../ui/Pager.tsx';
import { SearchField } from '../../ui/SearchField.tsx';
import { brandsQuery } from './api/brands.ts';
import { OneLine } from '../../ui/OneLine.tsx';
import { StatusChip } from '../../ui/StatusChip.tsx';
import { clearFilters } from '../../lib/filters.ts';
import { useLinkAction } from '../../ui/EmptyState.tsx';

const PER_PAGE = 10;

const COLUMNS: Column<BrandRow>[] = [
  { id: 'name', label: 'Name', width: 130, pinned: true, card: 'title', cell: (b) => b.name },
  {
    id: 'email',
    label: 'Email',
    width: 200,
    pinned: true,
    cell: (b) => <OneLine text={b.email} />,
  },
  { id: 'merchant', label: 'Merchant', width: 140, cell: (b) => b.parent.name },
  {
    id: 'account_reference',
    label: 'Account Reference',
    width: 180,
    cell: (b) =>
      b.account_reference ? (
        <Stack direction="row" spacing={0.5} sx={{ alignItems: 'center' }}>
          <span>{b.account_reference}</span>
          <CopyButton text={b.account_reference} label={`Copy the account reference of ${b.name}`} />
        </Stack>
      ) : (
        '-'
      ),
  },
  { id: 'registered', label: 'Register Date', width: 140, nowrap: true, cell: (b) => localDate(b.created_at) },
  {
    id: 'verified',
    label: 'Verified',
    width: 100,
    pinned: true,
    card: 'status',
    cell: (b) => <StatusChip status={b.remember_token_status} />,
  },
  {
    id: 'status',
    label: 'Status',
    width: 90,
    cell: (b) => <StatusChip status={b.is_active === '1' ? 'Active' : 'Inactive'} />,
  },
];

/**
 * The brands in scope (staff: every brand; a merchant: its own): counters, a search by brand name, 10 a page,
 * all in the URL. Brands are added and edited from their merchant on the Merchants screen.
 */
export function BrandsPage() {
  const url = useUrlParams();
  const paging = usePaging(PER_PAGE, [PER_PAGE], url);
  const { text, setText, search } = useUrlSearch(url);
  // a brand is added from its merchant
  const addBrand = useLinkAction('/merchants', 'Add a brand in Merchants');
  const q = useQuery({
    ...brandsQuery({ per_page: PER_PAGE, page: paging.page, name: search }),
    placeholderData: keepPreviousData,
  });
  const total = q.data?.brands.total;
  useClampPage(paging, total, !!q.data && !q.isPlaceholderData);

  return (
    <>
      <PageTitle>Brands</PageTitle>
      <ActiveCounters noun="Brands" counts={q.data} />
      <Paper>
        <ListTable
          id="brands"
          label="Brands"
          columns={COLUMNS}
          rows={q.data?.brands.data ?? []}
          rowKey={(b) => b.id}
          toolbar={<SearchField value={text} onChange={setText} helperText="Brand name contains" />}
          loading={q.isLoading}
          empty={{ clear: clearFilters(url, ['q']), create: addBrand }}
        />
        <Pager page={paging.page} pages={pageCount(total, PER_PAGE)} onPage={paging.setPage} />
      </Paper>
    </>
  );
}
