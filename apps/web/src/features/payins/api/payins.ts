import { payinOps, type InputOf } from '@obol/contract';
import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import { call } from '../../../lib/api.ts';
import { queryKeys } from '../../../lib/queryKeys.ts';

type ListInput = InputOf<typeof payinOps.payinList>;
/** A page of the pay-ins of the caller's scope. */
export const payinsQuery = (input: ListInput) =>
  queryOptions({ queryKey: ['payins', input], queryFn: () => call(payinOps.payinList, input) });

/** Starts a file of the pay-in list; a job writes it into the transactions downloads. */
export function useExportPayins() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (input: InputOf<typeof payinOps.exportPayins>) => call(payinOps.exportPayins, input),
    onSuccess: () => client.invalidateQueries({ queryKey: queryKeys.downloadFiles }),
  });
}
