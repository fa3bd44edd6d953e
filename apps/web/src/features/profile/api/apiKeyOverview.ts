import { profileOps } from '@obol/contract';
import { queryOptions } from '@tanstack/react-query';
import { call } from '../../../lib/api.ts';

/** The caller's account reference and masked public key (Merchant and Brand). */
export const apiKeyOverviewQuery = () =>
  queryOptions({ queryKey: ['api-key-overview'], queryFn: () => call(profileOps.apiKeyOverview) });
