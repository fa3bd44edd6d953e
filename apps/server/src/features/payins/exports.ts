import { REFUND_STATUS_LABELS } from '@obol/contract';
import { sql, type SQL } from 'drizzle-orm';
import { centsCell, intCell, isoSql, labelSql, plainCell, textCell } from '../downloads/cells.ts';
import { createdList, defineListExport } from '../downloads/lists.ts';
import { refundWhere, type RefundFilters } from './refund-list.ts';
import { rewardWhere, type RewardFilters } from './rewards.ts';
import { payinWhere, type PayinFilters } from './list.ts';
import { wordSql } from '../engine/status.ts';

const orEmpty = (e: SQL) => textCell(sql`coalesce(${e}, '')`);

/** The pay-in list's export: the list's own filters, query and order. */
export const PAYINS_EXPORT = defineListExport({
  kind: 'payins',
  fileName: 'payin-transactions',
  header: [
    'ID',
    'Pay-in Reference',
    'Merchant',
    'Brand',
    'Currency',
    'Amount (EUR)',
    'Request ID',
    'Channel',
    'Requested By',
    'Transaction Status',
    'Link Status',
    'Reason',
    'First Name',
    'Last Name',
    'Date of Birth',
    'Refund Status',
    'Account ID',
    'Created At (UTC)',
  ],
  ...createdList('p'),
  where: (scope, params) => payinWhere(scope, params as unknown as PayinFilters),
  from: sql`payins p`,
  cells: [
    intCell(sql`p.id`),
    textCell(sql`p.reference`),
    textCell(sql`p.merchant_name`),
    orEmpty(sql`p.brand_name`),
    textCell(sql`p.currency`),
    centsCell(sql`p.amount`),
    textCell(sql`p.provider_id`),
    textCell(sql`p.channel`),
    orEmpty(sql`p.requested_by`),
    textCell(wordSql('payin', sql`p.status`)),
    textCell(sql`p.link_status`),
    orEmpty(sql`p.reason`),
    textCell(sql`p.first_name`),
    textCell(sql`p.last_name`),
    textCell(sql`p.date_of_birth::text`),
    textCell(
      sql`CASE WHEN p.refund_status IS NULL THEN 'Not Allowed' ELSE ${labelSql(sql`p.refund_status`, REFUND_STATUS_LABELS, sql`NULL`)} END`,
    ),
    textCell(sql`p.account_code`),
    plainCell(isoSql(sql`p.created_at`)),
  ],
});

/** The refund list's export: the list's own filters, query and order. */
export const REFUNDS_EXPORT = defineListExport({
  kind: 'refunds',
  fileName: 'refund-transactions',
  header: [
    'ID',
    'Refund ID',
    'Pay-in Reference',
    'Merchant',
    'Brand',
    'Currency',
    'Amount (EUR)',
    'Request ID',
    'Type',
    'Status',
    'Reason',
    'First Name',
    'Last Name',
    'Date of Birth',
    'Account ID',
    'Created At (UTC)',
  ],
  ...createdList('r'),
  where: (scope, params) => refundWhere(scope, params as unknown as RefundFilters),
  from: sql`refunds r JOIN payins p ON p.id = r.payin_id`,
  cells: [
    intCell(sql`r.id`),
    orEmpty(sql`r.provider_id`),
    textCell(sql`p.reference`),
    textCell(sql`p.merchant_name`),
    orEmpty(sql`p.brand_name`),
    textCell(sql`p.currency`),
    centsCell(sql`r.amount`),
    textCell(sql`p.provider_id`),
    textCell(sql`p.channel`),
    textCell(wordSql('refund', sql`r.status`)),
    orEmpty(sql`r.reason`),
    textCell(sql`p.first_name`),
    textCell(sql`p.last_name`),
    textCell(sql`p.date_of_birth::text`),
    textCell(sql`p.account_code`),
    plainCell(isoSql(sql`r.created_at`)),
  ],
});

/** The reward list's export: the list's own search, filter, query and order. */
export const REWARDS_EXPORT = defineListExport({
  kind: 'rewards',
  fileName: 'payin-rewards',
  header: [
    'ID',
    'Pay-in Reference',
    'User Obol ID',
    'Merchant',
    'Brand',
    'Currency',
    'Amount (EUR)',
    'Transaction Status',
    'Reward Status',
    'Payment Status',
    'Reason',
    'Created At (UTC)',
    'Rewarded At (UTC)',
  ],
  ...createdList('r'),
  where: (scope, params) => rewardWhere(scope, params as unknown as RewardFilters),
  from: sql`payin_rewards r JOIN payins p ON p.id = r.payin_id`,
  cells: [
    intCell(sql`r.id`),
    textCell(sql`p.reference`),
    textCell(sql`r.wallet_id`),
    textCell(sql`p.merchant_name`),
    orEmpty(sql`p.brand_name`),
    textCell(sql`p.currency`),
    centsCell(sql`r.amount`),
    textCell(wordSql('payin', sql`p.status`)),
    textCell(sql`CASE WHEN r.status = 'NotRewarded' THEN 'Not Rewarded' ELSE r.status END`),
    orEmpty(wordSql('reward', sql`r.payout_status`)),
    orEmpty(sql`r.reason`),
    plainCell(isoSql(sql`r.created_at`)),
    plainCell(sql`coalesce(${isoSql(sql`r.rewarded_at`)}, '')`),
  ],
});
