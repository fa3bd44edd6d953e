import { rolesOps, type InputOf } from '@obol/contract';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { call } from '../../../lib/api.ts';
import { roleKeys } from './userWithCount.ts';

/** Replaces a role's permissions with the full set given. */
export const updatePermission = (input: InputOf<typeof rolesOps.updatePermission>) =>
  call(rolesOps.updatePermission, input);

/** Invalidates the role's screens and the cards. */
export function useUpdatePermission() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: updatePermission,
    onSuccess: () => qc.invalidateQueries({ queryKey: roleKeys.all }),
  });
}
