import { z } from 'zod';
import { exportResponse } from './downloads.ts';
import { operation } from './operation.ts';
import {
  createPayinLinkRequest,
  MERCHANT_TOKEN_SECONDS,
  merchantTestResponse,
  merchantTokenResponse,
  payinLinkResponse,
} from './payin-links.ts';
import { payinExportRequest, payinListRequest, payinListResponse } from './payin-list.ts';
import {
  payinRefundRequest,
  payinRefundResponse,
  refundCodeRequest,
  refundExportRequest,
  refundListRequest,
  refundListResponse,
} from './payin-refunds.ts';
import { rewardExportRequest, rewardListRequest, rewardListResponse } from './payin-rewards.ts';

// The merchant API and pay-in operations; their schemas are in payin-links.ts (the merchant API: messages,
// channels, statuses, tokens, links), payin-list.ts, payin-refunds.ts and payin-rewards.ts.

const TAG = 'Merchant API';

/**
 * The merchant API: what a merchant's own system calls with its API key (Administration, API Keys), not the
 * back-office's session. Both answer 401 without valid credentials and are rate limited per key.
 */
export const payinOps = {
  merchantToken: operation({
    id: 'merchantToken',
    method: 'POST',
    path: '/api/token',
    tag: TAG,
    summary:
      'A short-lived bearer token for the merchant API, for the API key sent as `X-API-Key: <public key>:<private key>` ' +
      `(401 for a wrong, revoked or expired key; the token lives ${MERCHANT_TOKEN_SECONDS / 60} minutes)`,
    access: 'public',
    security: 'api-key',
    output: merchantTokenResponse,
    examples: {
      response: {
        access_token: 'mt_eyJrIjoxLCJ1Ijo3LCJlIjoxNzk1NjI2NDE3fQ.3q2…',
        token_type: 'Bearer',
        expires_in: 900,
      },
    },
  }),
  merchantTest: operation({
    id: 'merchantTest',
    method: 'POST',
    path: '/api/test',
    tag: TAG,
    summary:
      "The demo provider's test call: checks a token (`Authorization: Bearer <token from /api/token>`) and answers " +
      'whose it is, the pay-in account its links credit, and when it ends; 401 otherwise. Changes nothing.',
    access: 'public',
    security: 'merchant-token',
    output: merchantTestResponse,
    examples: {
      response: {
        ok: true,
        merchant_name: 'Acme Payouts',
        brand_name: null,
        account_id: 'PI00000007',
        token_expires_at: '2026-11-25T18:15:00.000Z',
      },
    },
  }),
  createPayinLink: operation({
    id: 'createPayinLink',
    method: 'POST',
    path: '/api/create-payin-link',
    tag: TAG,
    summary:
      'A pay-in link at the provider for a payer, with `Authorization: Bearer <token from /api/token>`: the amount in ' +
      'cents, a reference unique per merchant, the payer. An `Idempotency-Key` header makes a retry answer the same ' +
      'link. The pay-in is Pending until the provider reports it Completed (credited to the pay-in account), ' +
      'Declined or Expired.',
    access: 'public',
    security: 'merchant-token',
    audit: 'payin.create-link',
    input: createPayinLinkRequest,
    output: payinLinkResponse,
    status: 201,
    examples: {
      request: {
        amount: 2599,
        reference: 'order-10042',
        first_name: 'Ana',
        last_name: 'Novak',
        date_of_birth: '1990-04-12',
        return_url: 'https://shop.example/orders/10042',
      },
      response: {
        request_id: 'pl_000001',
        reference: 'order-10042',
        amount: 2599,
        currency: 'EUR',
        url: 'http://127.0.0.1:3100/pay/pl_000001',
        channel: 'Payin',
        transaction_status: 'Pending',
        link_status: 'Initiated',
        expires_at: '2026-11-25T18:15:00.000Z',
        created_at: '2026-11-25T18:00:00.000Z',
      },
    },
  }),
  payinList: operation({
    id: 'payinList',
    method: 'POST',
    path: '/api/pay-in-order-details',
    tag: 'Pay-ins',
    summary:
      "The pay-ins (channel Payin, with 'User can view pay in panel') or CardEye payments (channel CardEye, with " +
      "'User can view cardeye transactions') of the caller's scope, 20 a page by date, with the status codes " +
      '(1 Completed, 2 Declined, 3 Expired, 4 Pending) and the filter panel (reference, merchant, request id, payer, ' +
      'account, requested by (CardEye), dates)',
    access: ['User can view pay in panel', 'User can view cardeye transactions'],
    form: true,
    input: payinListRequest,
    output: payinListResponse,
  }),
  exportPayins: operation({
    id: 'exportPayins',
    method: 'POST',
    path: '/api/export-payin-record',
    tag: 'Pay-ins',
    summary:
      'Exports the pay-in or CardEye list (its filters, no paging) as a background job into the transactions ' +
      "download list; needs the list's own permission too",
    access: 'User can export transactions',
    audit: 'payin.export',
    form: true,
    input: payinExportRequest,
    output: exportResponse,
  }),
  generateRefundCode: operation({
    id: 'generateRefundCode',
    method: 'POST',
    path: '/api/generate-refund-code',
    tag: 'Pay-ins',
    summary:
      'A one-time code (e-mailed, valid 24 hours, or the authenticator when the user chose it) bound to refunding ' +
      'this pay-in (`reference` is its request id); only a Completed pay-in with refund status 0 or 3',
    access: 'User can view cardeye transactions',
    audit: 'payin.refund-code',
    input: refundCodeRequest,
    output: z.object({ message: z.array(z.string()) }),
  }),
  payinRefund: operation({
    id: 'payinRefund',
    method: 'POST',
    path: '/api/payin-refund',
    tag: 'Pay-ins',
    summary:
      "Refunds a pay-in with its code: the amount leaves the holder's pay-in account at once (refund status 2) and " +
      'goes to the provider; Completed makes it 1, a decline returns the money and makes it 0. Once per pay-in.',
    access: 'User can view cardeye transactions',
    audit: 'payin.refund',
    input: payinRefundRequest,
    output: payinRefundResponse,
  }),
  payinRewards: operation({
    id: 'payinRewards',
    method: 'POST',
    path: '/api/payin-rewards',
    tag: 'Pay-ins',
    summary:
      "The rewards promised to payers in the caller's scope, 20 a page by date, with search and the reward filter " +
      '(1 Rewarded, 2 Not Rewarded). With `id`, first pays that reward: once its pay-in is Completed, the amount ' +
      "leaves the holder's pay-in account for the payer's wallet, exactly once (Rewarded); a wallet the provider " +
      'refuses gets the money back and the reward is Not Rewarded again, with the reason.',
    access: 'User can view pay in reward',
    audit: 'payin.reward',
    input: rewardListRequest,
    output: rewardListResponse,
  }),
  exportPayinRewards: operation({
    id: 'exportPayinRewards',
    method: 'POST',
    path: '/api/export-payin-rewards',
    tag: 'Pay-ins',
    summary:
      'Exports the reward list (its search and filter, no paging) as a background job into the transactions ' +
      "download list; needs 'User can view pay in reward' too",
    access: 'User can export transactions',
    audit: 'reward.export',
    input: rewardExportRequest,
    output: exportResponse,
  }),
  refundList: operation({
    id: 'refundList',
    method: 'POST',
    path: '/api/refunds-detail',
    tag: 'Pay-ins',
    summary:
      "The refunds of the caller's scope, 20 a page by date: status (1 Completed, 2 Declined, 4 Pending), type " +
      '(1 CardEye, 2 Payin), provider refund id, pay-in reference, account, request id and dates',
    access: 'User can view cardeye transactions',
    input: refundListRequest,
    output: refundListResponse,
  }),
  exportRefunds: operation({
    id: 'exportRefunds',
    method: 'POST',
    path: '/api/export-refunds-detail',
    tag: 'Pay-ins',
    summary:
      'Exports the refund list (its filters, no paging) as a background job into the transactions download list; ' +
      "needs 'User can view cardeye transactions' too",
    access: 'User can export transactions',
    audit: 'refund.export',
    input: refundExportRequest,
    output: exportResponse,
  }),
} as const;
