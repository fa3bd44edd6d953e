import { usersOps, type InputOf } from '@obol/contract';
import { call } from '../../../lib/api.ts';
import { useUsersMutation } from './useUsersMutation.ts';

/** Moves a user to another role of its set. */
export const updateRole = (input: InputOf<typeof usersOps.updateRole>) => call(usersOps.updateRole, input);
export const useUpdateRole = () => useUsersMutation(updateRole);
