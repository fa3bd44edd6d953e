import { accountingOps } from '@obol/contract';
import { queryOptions } from '@tanstack/react-query';
import { call } from '../../../lib/api.ts';

/** The active companies for the selectors. */
export const companyListQuery = () =>
  queryOptions({ queryKey: ['company-list'], queryFn: () => call(accountingOps.companyList) });

/** An active company's bank accounts with the balances the ledger holds. */
export const companyAccountsQuery = (companyId: number | null) =>
  queryOptions({
    queryKey: ['company-accounts', companyId],
    queryFn: () => call(accountingOps.companyAccounts, { companyId: companyId! }),
    enabled: companyId !== null,
  });

/** An active company's saved beneficiaries (external transfers) and its accounts (internal ones). */
export const companyBeneficiariesQuery = (companyId: number | null) =>
  queryOptions({
    queryKey: ['company-beneficiaries', companyId],
    queryFn: () => call(accountingOps.companyBeneficiaries, { companyId: companyId! }),
    enabled: companyId !== null,
  });
