import { usersOps } from '@obol/contract';
import { queryOptions } from '@tanstack/react-query';
import { call } from '../../../lib/api.ts';

/** The merchants the caller may choose from: id and name. */
export const allMerchants = () => call(usersOps.allMerchants);
export const allMerchantsQuery = () => queryOptions({ queryKey: ['all-merchants'], queryFn: allMerchants });
