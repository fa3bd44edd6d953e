import { MSG, PENDING_APPROVAL, type CurrentBatch } from '@obol/contract';
import { useQuery } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { useNavigate } from 'react-router';
import { ApiError } from '../../../lib/api.ts';
import { accountBalance } from '../api/accountBalance.ts';
import { sessionStore } from '../../../lib/session.ts';
import { useNotify } from '../../../ui/notifications.tsx';
import { useReceipt } from '../../../ui/receipts.tsx';
import { batchAmountQuery } from '../api/batchAmount.ts';
import { clearBatch } from '../api/clearBatch.ts';
import { confirmBatch } from '../api/confirmBatch.ts';
import { useDeleteTransaction } from '../api/deleteTransaction.ts';
import { useDeleteTransactions } from '../api/deleteTransactions.ts';
import { executeBatch } from '../api/executeBatch.ts';
import { renameBatch } from '../api/renameBatch.ts';
import { stagedTransactionsQuery } from '../api/stagedTransactions.ts';
import { useUpdateTransaction } from '../api/updateTransaction.ts';
import { firstRowError, type Editing } from './RowEditor.tsx';

export const PER_PAGE = 10;

/** The staged rows of the current batch (a page), its total and the paying account's balance. */
export function useReviewData(batch: CurrentBatch, page: number) {
  const rows = useQuery({ ...stagedTransactionsQuery(batch.batch_id, page, PER_PAGE), enabled: !!batch.batch_id });
  const totals = useQuery({ ...batchAmountQuery(batch.batch_id, batch.account_reference), enabled: !!batch.batch_id });
  const balance = useQuery({
    queryKey: ['balance', batch.account_reference],
    queryFn: () => accountBalance({ account_reference: batch.account_reference }),
    enabled: !!batch.account_reference,
  });
  return { rows, totals, balance };
}

/**
 * A current batch the server no longer holds as staged: executed (the page was left, or reloaded, before Recent
 * Batches took it as done, or another tab executed it) or cleared in another tab. It stops being the current
 * batch and the page goes where the batch now is, instead of offering rows that can no longer change.
 * `status` is the batch's status as the staged page answered it; nothing is done while the page is `leaving`.
 */
export function useLeaveSettledBatch(
  batch: CurrentBatch,
  status: CurrentBatch['batch_status'] | undefined,
  leaving: boolean,
  onLeave: () => void,
) {
  const navigate = useNavigate();
  const { notify } = useNotify();
  const settled = batch.batch_status === 'Pending' && !!status && status !== 'Pending' && !leaving;
  useEffect(() => {
    if (!settled) return;
    if (status === 'Declined') {
      notify('info', `Batch ${batch.batch_id} was cleared`);
      sessionStore.setBatch(null); // the review page then goes back to Payments
      return;
    }
    // executing or done: Recent Batches shows it, and clears it as the current batch once it is shown
    notify('info', `Batch ${batch.batch_id} has been executed`);
    onLeave();
    navigate('/recent-batches', { replace: true, state: { clearBatch: batch.batch_id } });
    // eslint-disable-next-line react-hooks/exhaustive-deps -- once, when the answer says the batch is settled
  }, [settled]);
}

/**
 * What the review page does to the current batch: rename it, edit and delete rows, clear it, ask for the code
 * and execute it. Each says what went right or wrong; `onLeave` is told once the batch is executed.
 */
export function useReviewActions(
  batch: CurrentBatch,
  amount: number | undefined,
  balance: number | undefined,
  onLeave: () => void,
) {
  const navigate = useNavigate();
  const { notify } = useNotify();
  const { showReceipt } = useReceipt();
  const update = useUpdateTransaction();
  const deleteOne = useDeleteTransaction();
  const deleteMany = useDeleteTransactions();
  const [selected, setSelected] = useState<number[]>([]);
  const [editing, setEditing] = useState<Editing | null>(null);
  const [fileName, setFileName] = useState<string | null>(null);
  const [codeOpen, setCodeOpen] = useState(false);
  const [busy, setBusy] = useState(false);
  const batchId = batch.batch_id;
  const merchant = batch.merchant_name;
  const fail = (err: unknown) => notify('error', err instanceof ApiError ? err.display : MSG.somethingWrong);

  const rename = async () => {
    if (fileName === null) return;
    const clean = fileName.replace(/\W+/g, '');
    try {
      const r = await renameBatch({ batch_id: batchId, file_name: clean, merchant_name: merchant });
      sessionStore.setBatch({ ...batch, file_name: r.file_name });
      notify('success', r.message[0]);
    } catch (err) {
      fail(err);
    }
    setFileName(null);
  };
  const saveRow = async () => {
    if (!editing) return;
    const error = firstRowError(editing.values, balance);
    if (error) return notify('error', error);
    try {
      const r = await update.mutateAsync({ id: editing.id, batch_id: batchId, ...editing.values });
      notify('success', r.message[0]);
      setEditing(null);
    } catch (err) {
      fail(err);
    }
  };
  const remove = async (ids: number[]) => {
    try {
      if (ids.length === 1) await deleteOne.mutateAsync({ id: ids[0], batch_id: batchId, merchant_name: merchant });
      else await deleteMany.mutateAsync({ id: ids, batch_id: batchId, merchant_name: merchant });
      notify('success', ids.length === 1 ? 'Transaction deleted' : `${ids.length} transactions deleted`);
      setSelected([]);
    } catch (err) {
      fail(err);
    }
  };
  const clear = async () => {
    try {
      await clearBatch({ batch_id: batchId, merchant_name: merchant });
      sessionStore.setBatch(null);
      navigate('/payments');
    } catch (err) {
      fail(err);
    }
  };
  const execute = async () => {
    setBusy(true);
    try {
      const r = await executeBatch({ batch_id: batchId, amount, merchant_name: merchant });
      notify('success', r.message[0]);
      setCodeOpen(true);
    } catch (err) {
      if (err instanceof ApiError && [400, 404].includes(err.status))
        notify('error', err.body?.error?.[0] ?? MSG.somethingWrong);
      else fail(err);
    } finally {
      setBusy(false);
    }
  };
  const confirm = async (code: string) => {
    try {
      const r = await confirmBatch({ batch_id: batchId, code, merchant_name: merchant });
      notify('success', r.message[0]);
      showReceipt({
        title: r.approval_id ? 'Batch waiting for approval' : 'Batch executed',
        amount: r.amount,
        fee: r.fee,
        from: `${merchant}, account ${batch.account_reference || 'Fee Account'}`,
        to: `The beneficiaries of ${batch.file_name}`,
        reference: r.batch_id,
        // the batch's payouts are with the provider (Recent Batches counts how many completed and failed), or it
        // waits for a second person, reserved
        status: r.approval_id ? PENDING_APPROVAL : 'Completed',
        link: { to: `/recent-batches?q=${encodeURIComponent(r.batch_id)}`, label: 'See it in Recent Batches' },
      });
      setCodeOpen(false);
      onLeave();
      // Recent Batches clears the current batch once it is shown: clearing it here would let this route's
      // guard send the user back to /payments before the navigation lands
      navigate('/recent-batches', { state: { clearBatch: batchId } });
      return null;
    } catch (err) {
      if (err instanceof ApiError && err.fieldError('code')) return err.fieldError('code')!;
      fail(err);
      setCodeOpen(false);
      return null;
    }
  };

  return {
    selected,
    setSelected,
    editing,
    setEditing,
    fileName,
    setFileName,
    codeOpen,
    setCodeOpen,
    busy,
    rename,
    saveRow,
    remove,
    clear,
    execute,
    confirm,
  };
}
