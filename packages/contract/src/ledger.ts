import { z } from 'zod';
import { accountInfo } from './auth.ts';
import { operation } from './operation.ts';
import { INT4_MAX, wholeNumber } from './params.ts';
import { searchMerchantRequest, searchMerchantResponse } from './payments.ts';

const cents = z.number().int();

/** The books checked: every entry sums to zero, every stored balance equals its postings, totals per kind. */
const trialBalanceResponse = z.object({
  balanced: z.boolean(),
  entries_balanced: z.boolean(),
  balances_match_postings: z.boolean(),
  no_overdrawn_accounts: z.boolean(),
  entry_count: z.number().int(),
  posting_count: z.number().int(),
  totals_by_kind: z.array(z.object({ kind: z.string(), accounts: z.number().int(), balance: cents })),
  total: cents,
  unbalanced_entries: z.array(z.object({ entry_id: z.number().int(), sum: cents })),
  mismatched_accounts: z.array(
    z.object({ account_id: z.string(), kind: z.string(), balance: cents, postings_sum: cents }),
  ),
  overdrawn_accounts: z.array(z.object({ account_id: z.string(), kind: z.string(), balance: cents })),
});
export type TrialBalance = z.output<typeof trialBalanceResponse>;

/** The caller's own accounts (as in the sign-in answer), `id` repeating the payout account's id. */
const loginUserAccountResponse = accountInfo.extend({ id: z.string().nullable() });
export type LoginUserAccountResponse = z.output<typeof loginUserAccountResponse>;

const accountBalanceRequest = z
  .object({
    account_reference: z.string().trim().max(100).optional().default(''),
    account_id: z.union([z.string().trim().max(100), z.number()]).optional(),
  })
  .refine((v) => v.account_reference || v.account_id, {
    message: 'This field is required',
    path: ['account_reference'],
  });

const accountBalanceResponse = z.object({
  balance: cents,
  /** the holder's fee, in percent */
  fee: z.number(),
  account_id: z.string(),
  account_reference: z.string(),
  currency: z.string(),
});
export type AccountBalanceResponse = z.output<typeof accountBalanceResponse>;

/** The balance screen's look-up: `id` 0 is the Fee Account (Admin only). */
const holderBalancesRequest = z.object({ id: wholeNumber('id', 0, INT4_MAX) });

/** One account of a holder as the balance screen shows it. */
const holderBalance = z.object({
  /** payout, payin, clp, or fee for the Fee Account */
  kind: z.string(),
  account_id: z.string(),
  account_reference: z.string(),
  balance: cents,
  currency: z.string(),
});
export type HolderBalance = z.output<typeof holderBalance>;

const holderBalancesResponse = z.object({
  name: z.string(),
  /** the holder's fee in percent; null for the Fee Account */
  fee: z.number().nullable(),
  account_reference: z.string(),
  data: z.array(holderBalance),
});
export type HolderBalancesResponse = z.output<typeof holderBalancesResponse>;

// ---- the calls ----

const TAG = 'Ledger';
export const ledgerOps = {
  trialBalance: operation({
    id: 'trialBalance',
    method: 'POST',
    path: '/api/trial-balance',
    tag: TAG,
    summary: 'Checks the books: balanced entries, balances equal to their postings, no overdrawn account',
    access: { roles: ['Admin', 'Accountant'] },
    output: trialBalanceResponse,
  }),
  loginUserAccount: operation({
    id: 'loginUserAccount',
    method: 'POST',
    path: '/api/login-user-account',
    tag: TAG,
    summary:
      "The caller's own accounts: a merchant's or brand's payout, pay-in and CLP accounts, staff the Fee Account",
    access: 'authenticated',
    output: loginUserAccountResponse,
  }),
  accountBalance: operation({
    id: 'accountBalance',
    method: 'POST',
    path: '/api/account-balance',
    tag: TAG,
    summary: "The balance and fee of an account in the caller's scope (404 for another tenant's, as for none)",
    access: [
      'User can view payments',
      'User can view balance screen',
      'User can view balance',
      'User can view merchant balance',
      // the transfer screens' balance card
      'User can view transfer amount screen',
    ],
    input: accountBalanceRequest,
    output: accountBalanceResponse,
  }),
  balanceHolders: operation({
    id: 'balanceHolders',
    method: 'POST',
    path: '/api/balance-holders',
    tag: TAG,
    summary: "The balance screen's chooser: merchants (with their brands) and brands in the caller's scope",
    access: 'User can view balance screen',
    input: searchMerchantRequest,
    output: searchMerchantResponse,
  }),
  holderBalances: operation({
    id: 'holderBalances',
    method: 'POST',
    path: '/api/holder-balances',
    tag: TAG,
    summary:
      "A merchant's or brand's payout, pay-in and CLP balances and account reference (id 0: the Fee Account, Admin only); 404 outside the scope",
    access: 'User can view balance screen',
    input: holderBalancesRequest,
    output: holderBalancesResponse,
  }),
} as const;
