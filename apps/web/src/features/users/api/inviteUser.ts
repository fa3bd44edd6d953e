import { usersOps, type InputOf } from '@obol/contract';
import { call } from '../../../lib/api.ts';
import { useUsersMutation } from './useUsersMutation.ts';

/** Invites a user (201); the invitee gets a set-password link by mail. */
export const inviteUser = (input: InputOf<typeof usersOps.inviteUser>) => call(usersOps.inviteUser, input);
export const useInviteUser = () => useUsersMutation(inviteUser);
