import { ledgerOps } from '@obol/contract';
import { queryOptions } from '@tanstack/react-query';
import { call } from '../../../lib/api.ts';

/** The caller's own accounts and balances (staff: the Fee Account), read afresh for the profile. */
export const ownAccountsQuery = () =>
  queryOptions({ queryKey: ['login-user-account'], queryFn: () => call(ledgerOps.loginUserAccount) });
