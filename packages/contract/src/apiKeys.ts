import { z } from 'zod';
import { email } from './auth.ts';
import { messageAnswer, operation, timestamp } from './operation.ts';
import { INT4_MAX, pageField, perPageField, wholeNumber } from './params.ts';

/** The API Keys screen: search by merchant name, 10 a page. */
const apiAndKeysRequest = z.object({
  per_page: perPageField(),
  page: pageField(),
  name: z.string().trim().max(100, 'name must be at most 100 characters').optional().default(''),
});

/** A merchant or brand with its current key, masked: no answer of a list ever carries a private key. */
const apiKeyHolderRow = z.object({
  id: z.number().int(),
  name: z.string(),
  email: z.string(),
  account_reference: z.string(),
  /** e.g. `pk_3fA9…x2Qe`; null when the holder has no current key */
  public_key_masked: z.string().nullable(),
  key_created_at: timestamp.nullable(),
  total_brands: z.number().int(),
});
export type ApiKeyHolderRow = z.output<typeof apiKeyHolderRow>;
const apiAndKeysResponse = z.object({ data: z.array(apiKeyHolderRow), total: z.number().int() });
export type ApiAndKeysResponse = z.output<typeof apiAndKeysResponse>;

const apiKeyBrandsRequest = z.object({ id: wholeNumber('id', 1, INT4_MAX) });
const apiKeyBrandsResponse = z.object({ data: z.array(apiKeyHolderRow) });

/** Share a merchant's public keys and account reference by e-mail (never a private key). */
const emailKeysRequest = z.object({ id: wholeNumber('id', 1, INT4_MAX), email });

export const API_KEYS_MSG = {
  shared: 'Keys shared by e-mail.',
  notFound: "Merchant/Brand doesn't exist",
} as const;

// ---- the calls ----

const TAG = 'API Keys';
const VIEW = 'User can view api&keys';
export const apiKeyOps = {
  apiAndKeys: operation({
    id: 'apiAndKeys',
    method: 'POST',
    path: '/api/api-and-keys',
    tag: TAG,
    summary: 'The merchants in scope with their masked public keys and account references, by merchant name',
    access: VIEW,
    input: apiAndKeysRequest,
    output: apiAndKeysResponse,
  }),
  apiKeyBrands: operation({
    id: 'apiKeyBrands',
    method: 'POST',
    path: '/api/api-key-brands',
    tag: TAG,
    summary: "One merchant's brands with their masked public keys (404 for a merchant out of scope)",
    access: VIEW,
    input: apiKeyBrandsRequest,
    output: apiKeyBrandsResponse,
  }),
  emailKeys: operation({
    id: 'emailKeys',
    method: 'POST',
    path: '/api/email-keys',
    tag: TAG,
    summary: "Mails a merchant's and its brands' public keys and account references (never a private key)",
    access: VIEW,
    audit: 'api-key.share',
    input: emailKeysRequest,
    output: messageAnswer,
  }),
} as const;
