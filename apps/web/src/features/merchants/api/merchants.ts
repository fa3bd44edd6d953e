import { merchantOps, usersOps, type InputOf } from '@obol/contract';
import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import { call } from '../../../lib/api.ts';

export type MerchantsFilters = InputOf<typeof merchantOps.merchants>;

/** A page of the merchants the caller may see, by name or e-mail, with the counters of all of them. */
export const merchantsQuery = (filters: MerchantsFilters) =>
  queryOptions({ queryKey: ['merchants', filters], queryFn: () => call(merchantOps.merchants, filters) });

/** One merchant's brands (the brands panel); `name` filters through /search-brand. */
export const merchantBrandsQuery = (id: number, name: string) =>
  queryOptions({
    queryKey: ['merchant-brands', id, name],
    queryFn: () => (name ? call(merchantOps.searchBrand, { id, name }) : call(merchantOps.brandsList, { id })),
  });

/** A change of merchants or brands: their lists, the Brands screen and the fees are read again once it is done. */
function useMerchantsMutation<I, R>(fn: (input: I) => Promise<R>) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: fn,
    onSuccess: async () => {
      await Promise.all(
        ['merchants', 'merchant-brands', 'brands', 'fee-list'].map((k) => qc.invalidateQueries({ queryKey: [k] })),
      );
    },
  });
}

export const useCreateHolder = () =>
  useMerchantsMutation((input: InputOf<typeof merchantOps.createHolder>) => call(merchantOps.createHolder, input));
export const useUpdateMerchantDetails = () =>
  useMerchantsMutation((input: InputOf<typeof merchantOps.updateMerchantDetails>) =>
    call(merchantOps.updateMerchantDetails, input),
  );
export const useUpdateDirectMerchant = () =>
  useMerchantsMutation((input: InputOf<typeof merchantOps.updateDirectMerchant>) =>
    call(merchantOps.updateDirectMerchant, input),
  );
export const useChangeHolderStatus = () =>
  useMerchantsMutation((input: InputOf<typeof merchantOps.changeHolderStatus>) =>
    call(merchantOps.changeHolderStatus, input),
  );
export const useResendHolderInvitation = () =>
  useMerchantsMutation((input: InputOf<typeof usersOps.resendInvitation>) => call(usersOps.resendInvitation, input));
