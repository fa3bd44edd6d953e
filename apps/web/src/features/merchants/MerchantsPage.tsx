import { MERCHANT_MSG, type HolderRow } from '@obol/contract';
import AddBusinessIcon from '@mui/icons-material/AddBusinessOutlined';
import EditIcon from '@mui/icons-material/EditOutlined';
import ResendIcon from '@mui/icons-material/ForwardToInboxOutlined';
import AddBrandIcon from '@mui/icons-material/LibraryAddOutlined';
import { Button, Checkbox, Link, Switch } from '@mui/material';
import { useState } from 'react';
import { errorMessage } from '../../lib/api.ts';
import { useSearchedList } from '../../lib/useSearchedList.ts';
import { useSession } from '../../lib/session.ts';
import { useUrlParams } from '../../lib/urlState.ts';
import { ActiveCounters } from '../../ui/Counter.tsx';
import type { Column, RowAction } from '../../ui/ListTable.tsx';
import { TitleBar } from '../../ui/ListHeader.tsx';
import { RowActions } from '../../ui/RowActions.tsx';
import { SearchedTable } from '../../ui/SearchedTable.tsx';
import { useNotify } from '../../ui/notifications.tsx';
import { AddBrandsDialog } from './AddBrandsDialog.tsx';
import { merchantsQuery, useUpdateDirectMerchant } from './api/merchants.ts';
import { BrandsPanel } from './BrandsPanel.tsx';
import { MerchantDialog } from './MerchantDialog.tsx';
import { useHolderActions } from './useHolderActions.tsx';
import { OneLine } from '../../ui/OneLine.tsx';
import { StatusChip } from '../../ui/StatusChip.tsx';

const PER_PAGE = 10;

const verifiedChip = (m: HolderRow) => <StatusChip status={m.remember_token_status} />;

/**
 * The merchants in scope: counters, a search by name or e-mail, 10 a page, all in the URL; each merchant's brands
 * in a side panel. With 'User can add merchant': Add New Merchant, the activate/deactivate switch, edit, add brands
 * and resend mail; an Admin also marks direct merchants.
 */
export function MerchantsPage() {
  const session = useSession();
  const admin = session?.user.role === 'Admin';
  const actions = useHolderActions();
  const { notify } = useNotify();
  const direct = useUpdateDirectMerchant();
  const [creating, setCreating] = useState(false);
  const [editing, setEditing] = useState<HolderRow | null>(null);
  const [adding, setAdding] = useState<HolderRow | null>(null);
  const [panel, setPanel] = useState<HolderRow | null>(null);
  const url = useUrlParams();
  const list = useSearchedList(
    url,
    PER_PAGE,
    'Name or email contains',
    (page, search) => merchantsQuery({ per_page: PER_PAGE, page, search }),
    (a) => a.merchants,
  );
  const { q, rows } = list;
  // the panel follows the list (a brand added or switched changes the merchant's counts)
  const panelMerchant = panel ? (rows.find((r) => r.id === panel.id) ?? panel) : null;

  const toggleDirect = async (m: HolderRow) => {
    try {
      const r = await direct.mutateAsync({ user_id: m.id, direct_merchant: m.direct_merchant === 1 ? 0 : 1 });
      notify('success', r.message[0]);
    } catch (err) {
      notify('error', errorMessage(err));
    }
  };

  const columns: Column<HolderRow>[] = [
    { id: 'name', label: 'Name', width: 140, pinned: true, card: 'title', cell: (m) => m.name },
    {
      id: 'email',
      label: 'Email',
      width: 220,
      pinned: true,
      cell: (m) => <OneLine text={m.email} maxWidth={200} />,
    },
    {
      id: 'descriptor_name',
      label: 'Descriptor Name',
      width: 160,
      hidden: true,
      cell: (m) => m.descriptor_name ?? '-',
    },
    {
      id: 'descriptor_code',
      label: 'Descriptor Code',
      width: 150,
      hidden: true,
      nowrap: true,
      cell: (m) => m.descriptor_code,
    },
    {
      id: 'brands',
      label: 'Brands',
      width: 120,
      nowrap: true,
      cell: (m) => (
        <Link component="button" type="button" onClick={() => setPanel(m)} aria-label={`View brands of ${m.name}`}>
          View brands
        </Link>
      ),
    },
    { id: 'total_brands', label: 'Total Brands', width: 110, hidden: true, cell: (m) => m.total_brands },
    ...(actions.canManage
      ? [
          {
            id: 'active_switch',
            label: 'Active',
            pinned: true,
            cell: (m: HolderRow) => (
              <Switch
                checked={m.is_active === '1'}
                onChange={() => actions.setActive(m, m.is_active !== '1')}
                disabled={m.remember_token_status !== 'Verified'}
                slotProps={{ input: { 'aria-label': `Active: ${m.name}` } }}
              />
            ),
          },
        ]
      : []),
    {
      id: 'status',
      label: 'Status',
      width: 90,
      card: 'status',
      cell: (m) => <StatusChip status={m.is_active === '1' ? 'Active' : 'Inactive'} />,
    },
    { id: 'verified', label: 'Verified', width: 100, cell: verifiedChip },
    ...(admin
      ? [
          {
            id: 'direct',
            label: 'Direct Merchant',
            width: 160,
            cell: (m: HolderRow) => (
              <Checkbox
                checked={m.direct_merchant === 1}
                onChange={() => void toggleDirect(m)}
                disabled={direct.isPending}
                slotProps={{ input: { 'aria-label': `Direct merchant: ${m.name}` } }}
              />
            ),
          },
        ]
      : []),
  ];

  const action: RowAction<HolderRow> = {
    label: 'Action',
    // the labelled Actions menu
    width: 110,
    cell: (m) =>
      actions.canManage ? (
        <RowActions
          name={m.name}
          items={[
            {
              text: 'Edit',
              label: `Edit ${m.name}`,
              icon: <EditIcon fontSize="small" />,
              onClick: () => setEditing(m),
            },
            {
              text: 'Add brands',
              label: `Add brands to ${m.name}`,
              icon: <AddBrandIcon fontSize="small" />,
              onClick: () =>
                m.remember_token_status === 'Verified' ? setAdding(m) : notify('error', MERCHANT_MSG.notVerified),
            },
            {
              text: 'Resend mail',
              label: `Resend mail to ${m.name}`,
              icon: <ResendIcon fontSize="small" />,
              disabledReason: m.resend_mail !== 1 ? 'The merchant has already signed up' : null,
              onClick: () => actions.resendMail(m),
            },
          ]}
        />
      ) : (
        '-'
      ),
  };

  return (
    <>
      <TitleBar title="Merchants">
        {actions.canManage ? (
          <Button variant="contained" startIcon={<AddBusinessIcon />} onClick={() => setCreating(true)}>
            Add New Merchant
          </Button>
        ) : null}
      </TitleBar>
      <ActiveCounters noun="Merchants" counts={q.data} />
      <SearchedTable
        id="merchants"
        label="Merchants"
        columns={columns}
        action={action}
        list={list}
        create={actions.canManage ? [{ label: 'Add New Merchant', onClick: () => setCreating(true) }] : []}
      />
      {actions.dialog}
      {creating ? <MerchantDialog onClose={() => setCreating(false)} /> : null}
      {editing ? <MerchantDialog holder={editing} onClose={() => setEditing(null)} /> : null}
      {adding ? <AddBrandsDialog merchant={adding} onClose={() => setAdding(null)} /> : null}
      <BrandsPanel merchant={panelMerchant} onClose={() => setPanel(null)} />
    </>
  );
}
