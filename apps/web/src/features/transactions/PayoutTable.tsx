import { KeysetTable } from '../../ui/PagedTable.tsx';
import { useLinkAction } from '../../ui/EmptyState.tsx';
import { useTransactionDetails } from './DetailsDialog.tsx';

type Props<T extends { id: number }> = Omit<Parameters<typeof KeysetTable<T>>[0], 'action' | 'empty'> & {
  /** the Clear filters of an empty list, while filters narrow it (clearFilters) */
  clear: (() => void) | undefined;
};

/**
 * A list of payouts on its sheet (payout and completed transactions): a row's View Details opens its details; an
 * empty list offers to clear its filters, else to create a payment.
 */
export function PayoutTable<T extends { id: number }>({ clear, ...table }: Props<T>) {
  const createPayment = useLinkAction('/payments', 'Create Payment');
  const details = useTransactionDetails();
  return (
    <>
      <KeysetTable {...table} action={details.action} empty={{ clear, create: createPayment }} />
      {details.dialog}
    </>
  );
}
