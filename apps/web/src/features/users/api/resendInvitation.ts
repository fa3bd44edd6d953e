import { usersOps, type InputOf } from '@obol/contract';
import { call } from '../../../lib/api.ts';
import { useUsersMutation } from './useUsersMutation.ts';

/** Mails a new invitation link to a user not yet verified. */
export const resendInvitation = (input: InputOf<typeof usersOps.resendInvitation>) =>
  call(usersOps.resendInvitation, input);
export const useResendInvitation = () => useUsersMutation(resendInvitation);
