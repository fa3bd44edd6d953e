import { usersOps, type InputOf } from '@obol/contract';
import { call } from '../../../lib/api.ts';
import { useUsersMutation } from './useUsersMutation.ts';

/** Deletes a user. */
export const deleteUser = (input: InputOf<typeof usersOps.deleteUser>) => call(usersOps.deleteUser, input);
export const useDeleteUser = () => useUsersMutation(deleteUser);
