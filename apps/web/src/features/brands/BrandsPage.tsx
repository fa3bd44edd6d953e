import type { BrandRow } from '@obol/contract';
import { Stack } from '@mui/material';
import { localDate } from '../../lib/format.ts';
import { useSearchedList } from '../../lib/useSearchedList.ts';
import { useUrlParams } from '../../lib/urlState.ts';
import { CopyButton } from '../../ui/CopyButton.tsx';
import { ActiveCounters } from '../../ui/Counter.tsx';
import type { Column } from '../../ui/ListTable.tsx';
import { PageTitle } from '../../ui/PageTitle.tsx';
import { SearchedTable } from '../../ui/SearchedTable.tsx';
import { brandsQuery } from './api/brands.ts';
import { OneLine } from '../../ui/OneLine.tsx';
import { StatusChip } from '../../ui/StatusChip.tsx';
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
  // a brand is added from its merchant
  const addBrand = useLinkAction('/merchants', 'Add a brand in Merchants');
  const list = useSearchedList(
    url,
    PER_PAGE,
    'Brand name contains',
    (page, search) => brandsQuery({ per_page: PER_PAGE, page, name: search }),
    (a) => a.brands,
  );
  const { q } = list;

  return (
    <>
      <PageTitle>Brands</PageTitle>
      <ActiveCounters noun="Brands" counts={q.data} />
      <SearchedTable id="brands" label="Brands" columns={COLUMNS} list={list} create={addBrand} />
    </>
  );
}
