import { accountingOps, type InputOf } from '@obol/contract';
import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import { call } from '../../../lib/api.ts';

export type CompaniesFilters = InputOf<typeof accountingOps.companies>;

/** A page of the registered companies (10), by name or e-mail, with the counters of all of them. */
export const companiesQuery = (filters: CompaniesFilters) =>
  queryOptions({ queryKey: ['companies', filters], queryFn: () => call(accountingOps.companies, filters) });

/** A change of a company: the list and the selectors of active companies are read again. */
function useCompaniesMutation<I, R>(fn: (input: I) => Promise<R>) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: fn,
    onSuccess: async () => {
      await Promise.all(['companies', 'company-list'].map((k) => qc.invalidateQueries({ queryKey: [k] })));
    },
  });
}

export const useRegisterCompany = () =>
  useCompaniesMutation((input: InputOf<typeof accountingOps.registerCompany>) =>
    call(accountingOps.registerCompany, input),
  );
export const useUpdateCompanyStatus = () =>
  useCompaniesMutation((input: InputOf<typeof accountingOps.updateCompanyStatus>) =>
    call(accountingOps.updateCompanyStatus, input),
  );

/** After the caller's password: one company's API key in plain text; kept in the page's state only. */
export const revealCompanyKey = (input: InputOf<typeof accountingOps.companyApiKey>) =>
  call(accountingOps.companyApiKey, input);
