import { paymentsOps, type InputOf } from '@obol/contract';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { call } from '../../../lib/api.ts';

/** A manual payout approved by its code; once per idempotency key. */
export const createPayout = (input: InputOf<typeof paymentsOps.createPayout>) => call(paymentsOps.createPayout, input);

/** Creates a manual payout; the paying account's balance changes, so the accounts are asked again. */
export function useCreatePayout() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: createPayout,
    onSuccess: () => qc.invalidateQueries({ queryKey: ['merchant-accounts'] }),
  });
}
