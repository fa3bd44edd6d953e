import { apiKeyOps, profileOps, type InputOf } from '@obol/contract';
import { queryOptions } from '@tanstack/react-query';
import { call } from '../../../lib/api.ts';

export type ApiKeysFilters = InputOf<typeof apiKeyOps.apiAndKeys>;

/** A page of the merchants in scope with their masked public keys. */
export const apiKeysQuery = (filters: ApiKeysFilters) =>
  queryOptions({ queryKey: ['api-and-keys', filters], queryFn: () => call(apiKeyOps.apiAndKeys, filters) });

/** One merchant's brands with their masked public keys. */
export const apiKeyBrandsQuery = (id: number) =>
  queryOptions({ queryKey: ['api-key-brands', id], queryFn: () => call(apiKeyOps.apiKeyBrands, { id }) });

/**
 * After the password: the caller's own keys (and a merchant's brands') in plain text; kept in the page's state
 * only.
 */
export const revealKeys = (input: InputOf<typeof profileOps.apiKey>) => call(profileOps.apiKey, input);
/** After the password: a new key pair; the previous one works through the grace period. */
export const rotateKeys = (input: InputOf<typeof profileOps.rotateApiKey>) => call(profileOps.rotateApiKey, input);
/** Mails a merchant's public keys and account references. */
export const emailKeys = (input: InputOf<typeof apiKeyOps.emailKeys>) => call(apiKeyOps.emailKeys, input);
