import { z } from 'zod';
import { operation, pageOf, timestamp } from './operation.ts';
import { pageField, perPageField } from './params.ts';

/** The Brands screen: search by brand name, 10 a page. */
const brandsListRequest = z.object({
  per_page: perPageField(),
  page: pageField(),
  name: z.string().trim().max(100, 'name must be at most 100 characters').optional().default(''),
});

/** A brand as the Brands screen shows it. */
const brandRow = z.object({
  id: z.number().int(),
  name: z.string(),
  email: z.string(),
  /** the merchant the brand belongs to */
  parent: z.object({ id: z.number().int(), name: z.string() }),
  /** the reference of the brand's account set */
  account_reference: z.string(),
  remember_token_status: z.enum(['Verified', 'Not verified']),
  is_active: z.enum(['0', '1']),
  created_at: timestamp,
});
export type BrandRow = z.output<typeof brandRow>;

/** A page of brands, with the counters of every brand the caller may see (whatever the search). */
const brandsListResponse = z.object({
  brands: pageOf(brandRow),
  count: z.number().int(),
  active: z.number().int(),
  inactive: z.number().int(),
});
export type BrandsListResponse = z.output<typeof brandsListResponse>;

// ---- the calls ----

const TAG = 'Brands';
export const brandOps = {
  brands: operation({
    id: 'brands',
    method: 'POST',
    path: '/api/brands',
    tag: TAG,
    summary: "The brands in the caller's scope (staff: every brand; a merchant: its own), newest first, by name search",
    access: 'User can view brands',
    input: brandsListRequest,
    output: brandsListResponse,
  }),
} as const;
