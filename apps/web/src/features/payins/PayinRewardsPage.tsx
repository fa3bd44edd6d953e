import { MSG, REWARD_STATUS_OPTIONS, type RewardRow } from '@obol/contract';
import RedeemOutlinedIcon from '@mui/icons-material/RedeemOutlined';
import { useState } from 'react';
import { ApiError } from '../../lib/api.ts';
import { euro, localDateTime } from '../../lib/format.ts';
import { usePaging, usePagedList } from '../../lib/paging.ts';
import { hasPermission, useSession } from '../../lib/session.ts';
import { dateSort, urlOption } from '../../lib/urlOption.ts';
import { useUrlParams } from '../../lib/urlState.ts';
import { useUrlSearch } from '../../lib/useUrlSearch.ts';
import { ActionButton } from '../../ui/ActionButton.tsx';
import { ConfirmDialog } from '../../ui/ConfirmDialog.tsx';
import { ExportButton } from '../../ui/ExportButton.tsx';
import { ListHeader } from '../../ui/ListHeader.tsx';
import type { Column } from '../../ui/ListTable.tsx';
import { useNotify } from '../../ui/notifications.tsx';
import { useReceipt } from '../../ui/receipts.tsx';
import { OptionSelect } from '../../ui/OptionSelect.tsx';
import { PagedTable } from '../../ui/PagedTable.tsx';
import { SearchField } from '../../ui/SearchField.tsx';
import { StatusChip, StatusWithReason } from '../../ui/StatusChip.tsx';
import { rewardsQuery, useExportRewards, useUpdateReward } from './api/payins.ts';
import { clearFilters } from '../../lib/filters.ts';

/** The payment to the wallet, in words: on its way, paid, or refused by the provider. */
const PAYMENT_LABELS = { Pending: 'Sending', Completed: 'Paid', Declined: 'Refused' } as const;

const rewardLabel = (r: RewardRow) => (r.reward_status === 'NotRewarded' ? 'Not Rewarded' : 'Rewarded');

const COLUMNS: Column<RewardRow>[] = [
  {
    id: 'reference',
    label: 'Pay-in Reference',
    width: 175,
    pinned: true,
    card: 'title',
    nowrap: true,
    cell: (r) => r.pay_in_reference,
  },
  { id: 'wallet', label: 'User Obol ID', width: 130, hidden: true, nowrap: true, cell: (r) => r.user_obol_id },
  { id: 'merchant', label: 'Merchant', width: 130, nowrap: true, cell: (r) => r.brand_name ?? r.merchant_name },
  { id: 'amount', label: 'Amount', width: 100, pinned: true, nowrap: true, cell: (r) => euro(r.amount) },
  // the pay-in's status starts hidden when the list would not fit 1366 px (98 px too wide with rows): the reward's
  // own status and its payment are what this list is about
  {
    id: 'transaction_status',
    label: 'Transaction Status',
    width: 180,
    priority: 3,
    cell: (r) => <StatusChip status={r.transaction_status} />,
  },
  {
    id: 'reward_status',
    label: 'Reward Status',
    width: 150,
    pinned: true,
    card: 'status',
    // a refused payment to the wallet leaves the reward Not Rewarded, with the provider's reason
    cell: (r) => (
      <StatusWithReason
        status={rewardLabel(r)}
        reason={r.payout_status === 'Declined' ? `Payment refused: ${r.reason ?? 'declined'}` : null}
      />
    ),
  },
  {
    id: 'payout_status',
    label: 'Payment',
    width: 110,
    nowrap: true,
    cell: (r) => (r.payout_status ? PAYMENT_LABELS[r.payout_status] : '–'),
  },
  { id: 'created_at', label: 'Date', width: 180, nowrap: true, cell: (r) => localDateTime(r.created_at) },
  {
    id: 'rewarded_at',
    label: 'Rewarded At',
    width: 180,
    hidden: true,
    nowrap: true,
    cell: (r) => (r.rewarded_at ? localDateTime(r.rewarded_at) : '–'),
  },
];

/** Why a reward cannot be updated now, or null when it can. */
const blocked = (r: RewardRow) =>
  r.reward_status === 'Rewarded'
    ? 'Already rewarded'
    : r.transaction_status !== 'Completed'
      ? 'The pay-in is not completed'
      : r.refund_status === 1
        ? 'The pay-in is refunded'
        : r.refund_status === 2
          ? 'A refund of the pay-in is in flight'
          : null;

/**
 * Payin Rewards: the rewards merchants promised their payers (cashback to the payer's Obol wallet), 20 a page by
 * date, search (reference, wallet, merchant; debounced 1 s), the reward filter, export, and the update-reward action
 * with a confirmation: disabled once Rewarded (and while the pay-in is not Completed, or is refunded or being
 * refunded). Updating pays the wallet from the merchant's pay-in account.
 */
export function PayinRewardsPage() {
  const session = useSession();
  const canExport = hasPermission(session, 'User can export transactions');
  const { notify } = useNotify();
  const { showReceipt } = useReceipt();
  const url = useUrlParams();
  const paging = usePaging(20, [20, 50, 100], url);
  const { text, setText, search } = useUrlSearch(url);
  const status = urlOption(url, 'status', REWARD_STATUS_OPTIONS, 'status');
  const sort = dateSort(url);
  const selection = { search, reward_status: status.chosen.value, sortby: sort.sort };
  const list = usePagedList(
    paging,
    rewardsQuery({ ...selection, page: paging.page, per_page: paging.perPage }),
    (a) => a,
  );
  const { total } = list;
  const exporting = useExportRewards();
  const update = useUpdateReward();
  const [confirming, setConfirming] = useState<RewardRow | null>(null);

  const pay = async () => {
    const r = confirming!;
    try {
      const answer = await update.mutateAsync({ ...selection, page: paging.page, per_page: paging.perPage, id: r.id });
      notify('success', answer.message?.[0] ?? 'Reward updated successfully.');
      showReceipt({
        title: 'Reward paid',
        amount: r.amount,
        from: `${r.brand_name ?? r.merchant_name}, pay-in account`,
        to: `Obol wallet ${r.user_obol_id}`,
        reference: r.pay_in_reference,
        // the payment to the wallet is with the provider until it answers
        status: 'Pending',
        link: { to: `/payin-rewards?q=${encodeURIComponent(r.pay_in_reference)}`, label: 'See it in Payin Rewards' },
      });
    } catch (err) {
      notify('error', err instanceof ApiError ? err.display : MSG.somethingWrong);
    } finally {
      setConfirming(null);
    }
  };

  const action = (r: RewardRow) => (
    <ActionButton
      text="Update"
      label={`Update the reward of ${r.pay_in_reference}`}
      icon={<RedeemOutlinedIcon fontSize="small" />}
      disabledReason={blocked(r)}
      onClick={() => setConfirming(r)}
    />
  );

  return (
    <>
      <ListHeader title="Payin Rewards">
        <OptionSelect label="Sort by date" {...sort.select} minWidth={160} />
        <OptionSelect label="Reward Status" {...status.select} minWidth={160} />
        {canExport ? (
          <ExportButton disabled={!total} onExport={(format) => exporting.mutateAsync({ ...selection, format })} />
        ) : null}
      </ListHeader>
      <PagedTable
        id="payin-rewards"
        label="Payin rewards"
        columns={COLUMNS}
        list={list}
        toolbar={
          <SearchField value={text} onChange={setText} helperText="Pay-in reference, Obol ID, merchant or brand" />
        }
        empty={{ clear: clearFilters(url, ['q', 'status']) }}
        sx={{ maxHeight: '65vh' }}
        action={{ label: 'Update Reward', cell: action, width: 155 }}
      />
      <ConfirmDialog
        open={!!confirming}
        title="Update this reward?"
        text={
          confirming
            ? `${euro(confirming.amount)} goes from the pay-in account to the Obol wallet ${confirming.user_obol_id} for ${confirming.pay_in_reference}. This cannot be undone.`
            : ''
        }
        confirmLabel="Update reward"
        onCancel={() => setConfirming(null)}
        onConfirm={pay}
      />
    </>
  );
}
