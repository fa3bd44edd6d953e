import { accountingOps, type InputOf } from '@obol/contract';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { call } from '../../../lib/api.ts';

/** Checks a 2D transfer and sends the one-time code bound to it. */
export const requestAccountingOtp = (input: InputOf<typeof accountingOps.accountingOtp>) =>
  call(accountingOps.accountingOtp, input);

/** A 2D transfer approved by its code: the company's balances and the 2D transactions change. */
export function useAccountingTransfer() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (input: InputOf<typeof accountingOps.accountingTransfer>) =>
      call(accountingOps.accountingTransfer, input),
    onSuccess: () => qc.invalidateQueries({ queryKey: ['accounting-transactions'] }),
  });
}
