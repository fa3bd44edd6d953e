import { MSG, REFUND_STATUS_LABELS, type PayinRow } from '@obol/contract';
import UndoOutlinedIcon from '@mui/icons-material/UndoOutlined';
import { useState } from 'react';
import { ApiError, errorMessage } from '../../lib/api.ts';
import { euro } from '../../lib/format.ts';
import { ActionButton } from '../../ui/ActionButton.tsx';
import { CodeDialog } from '../../ui/CodeDialog.tsx';
import { ConfirmDialog } from '../../ui/ConfirmDialog.tsx';
import { useNotify } from '../../ui/notifications.tsx';
import { useReceipt } from '../../ui/receipts.tsx';
import { requestRefundCode, usePayinRefund } from './api/payins.ts';

/** Whether a refund may start (section 4): the pay-in is Completed and its refund status is 0 or 3. */
export const refundable = (p: PayinRow) =>
  p.transaction_status === 'Completed' && (p.refund_status === 0 || p.refund_status === 3);

/** Why a pay-in cannot be refunded now, if it cannot. */
const notRefundable = (p: PayinRow) =>
  refundable(p)
    ? null
    : p.transaction_status !== 'Completed'
      ? 'The pay-in is not completed'
      : p.refund_status === 1
        ? 'The pay-in is already refunded'
        : 'A refund of the pay-in is in flight';

/**
 * The refund of one pay-in: confirm, ask for the code (e-mailed, valid 24 hours, or the authenticator), enter it,
 * submit. Success closes the dialog and the list reloads; a refusal of the code shows under the field, any other
 * as a toast (the server's first message).
 */
export function useRefundFlow() {
  const { notify } = useNotify();
  const { showReceipt } = useReceipt();
  const refund = usePayinRefund();
  const [confirming, setConfirming] = useState<PayinRow | null>(null);
  const [coding, setCoding] = useState<PayinRow | null>(null);

  const askCode = async () => {
    const p = confirming!;
    try {
      const r = await requestRefundCode(p.request_id);
      notify('success', r.message[0]);
      setConfirming(null);
      setCoding(p);
    } catch (err) {
      setConfirming(null);
      notify('error', errorMessage(err));
    }
  };

  const submit = async (code: string): Promise<string | null> => {
    try {
      const p = coding!;
      const r = await refund.mutateAsync({ reference: p.request_id, code });
      notify('success', r.message[0]);
      showReceipt({
        title: 'Refund requested',
        amount: p.amount,
        from: `${p.brand_name ?? p.merchant_name}, pay-in account ${p.account_id}`,
        to: `${p.first_name} ${p.last_name}`,
        reference: p.pay_in_reference,
        // 'Refund Pending' reads as Pending: the list's filter word
        status: (REFUND_STATUS_LABELS[r.refund_status] ?? 'Pending').replace(/^Refund /, ''),
        link: { to: '/refund', label: 'See it in Refund Transactions' },
      });
      setCoding(null);
      return null;
    } catch (err) {
      if (err instanceof ApiError && err.fieldError('code')) return err.fieldError('code')!;
      setCoding(null);
      notify('error', err instanceof ApiError ? err.display : MSG.somethingWrong);
      return null;
    }
  };

  const button = (p: PayinRow) => (
    <ActionButton
      text="Refund"
      label={`Refund the pay-in ${p.pay_in_reference}`}
      icon={<UndoOutlinedIcon fontSize="small" />}
      disabledReason={notRefundable(p)}
      onClick={() => setConfirming(p)}
    />
  );

  const dialogs = (
    <>
      <ConfirmDialog
        open={!!confirming}
        title="Refund this pay-in?"
        text={
          confirming
            ? `${euro(confirming.amount)} of ${confirming.pay_in_reference} goes back to ${confirming.first_name} ${confirming.last_name}. A code is sent to approve it.`
            : ''
        }
        confirmLabel="Send code"
        onCancel={() => setConfirming(null)}
        onConfirm={askCode}
      />
      <CodeDialog
        open={!!coding}
        validity="24 hours"
        text={coding ? `Approve the refund of ${euro(coding.amount)} for ${coding.pay_in_reference}.` : undefined}
        onClose={() => setCoding(null)}
        onSubmit={submit}
      />
    </>
  );
  return { button, dialogs };
}
