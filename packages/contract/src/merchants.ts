import { z } from 'zod';
import { email } from './auth.ts';
import { feePercent } from './fees.ts';
import { MSG } from './messages.ts';
import { messageAnswer, messages, operation, pageOf, timestamp } from './operation.ts';
import { INT4_MAX, pageField, perPageField, wholeNumber } from './params.ts';
import { obolIdField } from './payments.ts';

/** What the Merchants screen says (spec section 8; spelling corrected per DECISIONS.md). */
export const MERCHANT_MSG = {
  created: 'Merchant Created Successfully.',
  brandsCreated: 'Brand Created Successfully.',
  mailFailed: 'The invitation mail could not be sent: use Resend mail.',
  updated: 'Merchant Updated Successfully.',
  /** a merchant's or brand's status (the users list says 'Status Updated.') */
  statusUpdated: 'Status updated successfully.',
  directUpdated: 'Direct merchant updated.',
  notVerified: 'Merchant is not verified.',
  oneBrand: 'Add One Brand At Least.',
  brandMin: 'Name should be above 3 characters',
  brandMax: 'Name should not be above 20 characters',
  notFound: "Merchant/Brand doesn't exist",
  brandFee: "A brand's fee is changed in the Fee Module",
  notVerifiedStatus: 'Only a verified merchant or brand can be activated or deactivated',
  inactiveMerchant: 'Activate the merchant first',
  feeReason: 'Changed in the merchant dialog',
} as const;

/** Most brands one Add Brands dialog creates. */
export const MAX_BRANDS_PER_REQUEST = 10;

const text = (field: string, max: number) =>
  z
    .string({ error: (i) => (i.input === undefined ? MSG.required : `${field} must be text`) })
    .trim()
    .min(1, MSG.required)
    .max(max, `${field} must be at most ${max} characters`);
const optionalText = (field: string, max: number) =>
  z
    .string({ error: `${field} must be text` })
    .trim()
    .max(max, `${field} must be at most ${max} characters`)
    .nullish()
    .transform((v) => (v ? v : null));

/** The card descriptor the merchant's customers see on their statement. */
const descriptor = text('Descriptor', 22);
const mid = text('MID', 40);

const address = {
  registrationNumber: optionalText('Registration number', 50),
  street: optionalText('Street', 100),
  city: optionalText('City', 60),
  zipCode: optionalText('Zip code', 20),
};

/** Add New Merchant (spec section 5): name, e-mail, descriptor, payout wallet, MID and fee required. */
export const createMerchantRequest = z.object({
  rolename: z.literal('Merchant'),
  name: text('Name', 100),
  email,
  payin_name: descriptor,
  brand_name: optionalText('Brand name', 100),
  obol_id: obolIdField,
  mId: mid,
  fee: feePercent,
  isUser: z.unknown().optional(),
  ...address,
});

/** One brand of the Add Brands dialog: name 4 to 20 characters, e-mail, payout wallet and MID. */
const brandInput = z.object({
  name: z
    .string({ error: MSG.required })
    .trim()
    .min(1, MSG.required)
    .min(4, MERCHANT_MSG.brandMin)
    .max(20, MERCHANT_MSG.brandMax),
  email,
  obol_id: obolIdField,
  mId: mid,
});

/** Add brands to a verified merchant: at least one, at most {@link MAX_BRANDS_PER_REQUEST}. */
export const createBrandsRequest = z.object({
  rolename: z.literal('Brand'),
  parent_id: wholeNumber('parent_id', 1, INT4_MAX),
  brands: z
    .array(brandInput, { error: MERCHANT_MSG.oneBrand })
    .min(1, MERCHANT_MSG.oneBrand)
    .max(MAX_BRANDS_PER_REQUEST, `At most ${MAX_BRANDS_PER_REQUEST} brands at a time`),
});

const createHolderRequest = z.discriminatedUnion('rolename', [createMerchantRequest, createBrandsRequest], {
  error: (i) => (i.input === undefined ? MSG.required : "rolename must be 'Merchant' or 'Brand'"),
});
const createHolderResponse = z.object({ message: messages, ids: z.array(z.number().int()) });

const merchantsListRequest = z.object({
  per_page: perPageField(),
  page: pageField(),
  search: z.string().trim().max(100, 'search must be at most 100 characters').optional().default(''),
});

/** A merchant or brand as the Merchants screen and its brands panel show it. */
const holderRow = z.object({
  id: z.number().int(),
  name: z.string(),
  email: z.string(),
  role: z.enum(['Merchant', 'Brand']),
  parent_id: z.number().int().nullable(),
  /** the descriptor (payin_name as the create payload names it) */
  payin_name: z.string().nullable(),
  descriptor_name: z.string().nullable(),
  /** derived from the id, read-only */
  descriptor_code: z.string(),
  brand_name: z.string().nullable(),
  obol_id: z.string().nullable(),
  mid: z.string().nullable(),
  /** percent */
  fee: z.number().nullable(),
  registration_number: z.string().nullable(),
  street: z.string().nullable(),
  city: z.string().nullable(),
  zip_code: z.string().nullable(),
  account_reference: z.string(),
  total_brands: z.number().int(),
  is_active: z.enum(['0', '1']),
  remember_token_status: z.enum(['Verified', 'Not verified']),
  /** 1: not verified yet, so the invitation may be mailed again */
  resend_mail: z.union([z.literal(0), z.literal(1)]),
  direct_merchant: z.union([z.literal(0), z.literal(1)]),
  created_at: timestamp,
});
export type HolderRow = z.output<typeof holderRow>;

const merchantsListResponse = z.object({
  merchants: pageOf(holderRow),
  count: z.number().int(),
  active: z.number().int(),
  inactive: z.number().int(),
});
export type MerchantsListResponse = z.output<typeof merchantsListResponse>;

/** The brands panel of one merchant; `name` filters (search-brand). */
const merchantBrandsRequest = z.object({
  id: wholeNumber('id', 1, INT4_MAX),
  name: z.string().trim().max(100, 'name must be at most 100 characters').optional().default(''),
});
const merchantBrandsResponse = z.object({ data: z.array(holderRow) });

/**
 * Edit a merchant or brand: descriptor required, the rest optional; name, e-mail, wallet, MID and descriptor code
 * are read-only (an e-mail sent along is ignored). The fee is a merchant's only (a brand's is the Fee Module's).
 */
export const updateMerchantDetailsRequest = z.object({
  id: wholeNumber('id', 1, INT4_MAX),
  payin_name: descriptor,
  fee: feePercent.optional(),
  email: z.unknown().optional(),
  brand_name: optionalText('Brand name', 100),
  ...address,
});

const flag = (field: string) =>
  z.union([z.literal(0), z.literal(1), z.literal('0'), z.literal('1'), z.boolean()], {
    error: (i) => (i.input === undefined ? MSG.required : `${field} must be 0 or 1`),
  });
export const isOn = (v: 0 | 1 | '0' | '1' | boolean) => v === 1 || v === '1' || v === true;

const updateDirectMerchantRequest = z.object({
  user_id: wholeNumber('user_id', 1, INT4_MAX),
  direct_merchant: flag('direct_merchant'),
});

/** Activate (1) or deactivate (0) a merchant or a brand. */
const changeHolderStatusRequest = z.object({
  id: wholeNumber('id', 1, INT4_MAX),
  status: flag('status'),
  level_type: z.enum(['Merchant', 'Brand'], {
    error: (i) => (i.input === undefined ? MSG.required : "level_type must be 'Merchant' or 'Brand'"),
  }),
  parent_id: wholeNumber('parent_id', 1, INT4_MAX).nullish(),
});

// ---- the calls ----

const TAG = 'Merchants';
const MANAGE = 'User can add merchant';
export const merchantOps = {
  merchants: operation({
    id: 'merchants',
    method: 'POST',
    path: '/api/merchants',
    tag: TAG,
    summary: 'The merchants the caller may see, newest first, by name or e-mail search, with counters',
    access: 'User can view merchants',
    input: merchantsListRequest,
    output: merchantsListResponse,
  }),
  brandsList: operation({
    id: 'brandsList',
    method: 'POST',
    path: '/api/brands-list',
    tag: TAG,
    summary: "One merchant's brands for the brands panel (404 for a merchant out of scope)",
    access: 'User can view merchants',
    input: merchantBrandsRequest,
    output: merchantBrandsResponse,
  }),
  searchBrand: operation({
    id: 'searchBrand',
    method: 'POST',
    path: '/api/search-brand',
    tag: TAG,
    summary: "One merchant's brands whose name contains `name`",
    access: 'User can view merchants',
    input: merchantBrandsRequest,
    output: merchantBrandsResponse,
  }),
  createHolder: operation({
    id: 'createHolder',
    method: 'POST',
    path: '/api/create-user',
    tag: TAG,
    summary:
      'Creates a merchant, or brands of a verified merchant: wallets checked with the provider, ledger accounts and API keys opened in the same transaction, invitations mailed',
    access: MANAGE,
    audit: 'merchants.create',
    input: createHolderRequest,
    output: createHolderResponse,
    status: 201,
  }),
  updateMerchantDetails: operation({
    id: 'updateMerchantDetails',
    method: 'POST',
    path: '/api/update-merchant-details',
    tag: TAG,
    summary: "Edits a merchant's or brand's descriptor, brand name and address, and a merchant's fee (with history)",
    access: MANAGE,
    audit: 'merchants.update',
    input: updateMerchantDetailsRequest,
    output: messageAnswer,
    // the spec's client counts a user or merchant update as done only on 201
    status: 201,
  }),
  updateDirectMerchant: operation({
    id: 'updateDirectMerchant',
    method: 'POST',
    path: '/api/update-direct-merchant',
    tag: TAG,
    summary: 'Marks a merchant as a direct merchant or not (Admin only)',
    access: { roles: ['Admin'] },
    audit: 'merchants.direct',
    input: updateDirectMerchantRequest,
    output: messageAnswer,
    // the spec's client counts a user or merchant update as done only on 201
    status: 201,
  }),
  changeHolderStatus: operation({
    id: 'changeHolderStatus',
    method: 'POST',
    path: '/api/change-merchant-status',
    tag: TAG,
    summary:
      "Activates or deactivates a merchant or brand; deactivating ends its sessions (and a merchant's team's) at once",
    access: MANAGE,
    audit: 'merchants.change-status',
    input: changeHolderStatusRequest,
    output: messageAnswer,
    // the spec's client counts a user or merchant update as done only on 201
    status: 201,
  }),
} as const;
