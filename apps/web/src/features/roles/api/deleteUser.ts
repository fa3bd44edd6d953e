import { usersOps } from '@obol/contract';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { call } from '../../../lib/api.ts';
import { queryKeys } from '../../../lib/queryKeys.ts';
import { roleKeys } from './userWithCount.ts';

/** Deletes a user (the users feature's call, used by Users by role). */
export const deleteUser = (id: number) => call(usersOps.deleteUser, { id });

/** Invalidates the role cards and lists, and the users list. */
export function useDeleteUser() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: deleteUser,
    onSuccess: () => {
      void qc.invalidateQueries({ queryKey: roleKeys.all });
      void qc.invalidateQueries({ queryKey: queryKeys.users });
    },
  });
}
