import { useMutation, useQueryClient } from '@tanstack/react-query';

/** A change of users: the list (and its counters) is read again once it is done. */
export function useUsersMutation<I, R>(fn: (input: I) => Promise<R>) {
  const qc = useQueryClient();
  return useMutation({ mutationFn: fn, onSuccess: () => qc.invalidateQueries({ queryKey: ['users'] }) });
}
