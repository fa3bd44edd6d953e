import { accountingOps, type InputOf } from '@obol/contract';
import { queryOptions } from '@tanstack/react-query';
import { call } from '../../../lib/api.ts';

/** What a consent link asks the account holder to approve (public). */
export const consentDetailsQuery = (token: string) =>
  queryOptions({
    queryKey: ['consent-details', token],
    queryFn: () => call(accountingOps.consentDetails, { token }),
    enabled: !!token,
    retry: false,
  });

/** The account holder approves the account access (public). */
export const approveConsent = (input: InputOf<typeof accountingOps.consentApprove>) =>
  call(accountingOps.consentApprove, input);
