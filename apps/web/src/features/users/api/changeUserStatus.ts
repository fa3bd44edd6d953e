import { usersOps, type InputOf } from '@obol/contract';
import { call } from '../../../lib/api.ts';
import { useUsersMutation } from './useUsersMutation.ts';

/** Activates (1) or deactivates (0) a user. */
export const changeUserStatus = (input: InputOf<typeof usersOps.changeUserStatus>) =>
  call(usersOps.changeUserStatus, input);
export const useChangeUserStatus = () => useUsersMutation(changeUserStatus);
