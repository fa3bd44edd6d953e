import { REFUND_STATUS_LABELS } from '@obol/contract';
import { sql, type SQL } from 'drizzle-orm';
import { centsCell, columns, intCell, isoSql, labelSql, plainCell, textCell } from '../downloads/cells.ts';
import { createdList, defineListExport } from '../downloads/lists.ts';
import { refundWhere, type RefundFilters } from './refund-list.ts';
import { rewardWhere, type RewardFilters } from './rewards.ts';
import { payinWhere, type PayinFilters } from './list.ts';
import { wordSql } from '../engine/status.ts';

const orEmpty = (e: SQL) => textCell(sql`coalesce(${e}, '')`);
const refundLabel = labelSql(sql`p.refund_status`, REFUND_STATUS_LABELS, sql`NULL`);

/** The pay-in list's export: the list's own filters, query and order. */
export const PAYINS_EXPORT = defineListExport({
  kind: 'payins',
  fileName: 'payin-transactions',
  ...createdList('p'),
  where: (scope, params) => payinWhere(scope, params as unknown as PayinFilters),
  from: sql`payins p`,
  ...columns([
    ['ID', intCell(sql`p.id`)],
    ['Pay-in Reference', textCell(sql`p.reference`)],
    ['Merchant', textCell(sql`p.merchant_name`)],
    ['Brand', orEmpty(sql`p.brand_name`)],
    ['Currency', textCell(sql`p.currency`)],
    ['Amount (EUR)', centsCell(sql`p.amount`)],
    ['Request ID', textCell(sql`p.provider_id`)],
    ['Channel', textCell(sql`p.channel`)],
    ['Requested By', orEmpty(sql`p.requested_by`)],
    ['Transaction Status', textCell(wordSql('payin', sql`p.status`))],
    ['Link Status', textCell(sql`p.link_status`)],
    ['Reason', orEmpty(sql`p.reason`)],
    ['First Name', textCell(sql`p.first_name`)],
    ['Last Name', textCell(sql`p.last_name`)],
    ['Date of Birth', textCell(sql`p.date_of_birth::text`)],
    ['Refund Status', textCell(sql`CASE WHEN p.refund_status IS NULL THEN 'Not Allowed' ELSE ${refundLabel} END`)],
    ['Account ID', textCell(sql`p.account_code`)],
    ['Created At (UTC)', plainCell(isoSql(sql`p.created_at`))],
  ]),
});

/** The refund list's export: the list's own filters, query and order. */
export const REFUNDS_EXPORT = defineListExport({
  kind: 'refunds',
  fileName: 'refund-transactions',
  ...createdList('r'),
  where: (scope, params) => refundWhere(scope, params as unknown as RefundFilters),
  from: sql`refunds r JOIN payins p ON p.id = r.payin_id`,
  ...columns([
    ['ID', intCell(sql`r.id`)],
    ['Refund ID', orEmpty(sql`r.provider_id`)],
    ['Pay-in Reference', textCell(sql`p.reference`)],
    ['Merchant', textCell(sql`p.merchant_name`)],
    ['Brand', orEmpty(sql`p.brand_name`)],
    ['Currency', textCell(sql`p.currency`)],
    ['Amount (EUR)', centsCell(sql`r.amount`)],
    ['Request ID', textCell(sql`p.provider_id`)],
    ['Type', textCell(sql`p.channel`)],
    ['Status', textCell(wordSql('refund', sql`r.status`))],
    ['Reason', orEmpty(sql`r.reason`)],
    ['First Name', textCell(sql`p.first_name`)],
    ['Last Name', textCell(sql`p.last_name`)],
    ['Date of Birth', textCell(sql`p.date_of_birth::text`)],
    ['Account ID', textCell(sql`p.account_code`)],
    ['Created At (UTC)', plainCell(isoSql(sql`r.created_at`))],
  ]),
});

/** The reward list's export: the list's own search, filter, query and order. */
export const REWARDS_EXPORT = defineListExport({
  kind: 'rewards',
  fileName: 'payin-rewards',
  ...createdList('r'),
  where: (scope, params) => rewardWhere(scope, params as unknown as RewardFilters),
  from: sql`payin_rewards r JOIN payins p ON p.id = r.payin_id`,
  ...columns([
    ['ID', intCell(sql`r.id`)],
    ['Pay-in Reference', textCell(sql`p.reference`)],
    ['User Obol ID', textCell(sql`r.wallet_id`)],
    ['Merchant', textCell(sql`p.merchant_name`)],
    ['Brand', orEmpty(sql`p.brand_name`)],
    ['Currency', textCell(sql`p.currency`)],
    ['Amount (EUR)', centsCell(sql`r.amount`)],
    ['Transaction Status', textCell(wordSql('payin', sql`p.status`))],
    ['Reward Status', textCell(sql`CASE WHEN r.status = 'NotRewarded' THEN 'Not Rewarded' ELSE r.status END`)],
    ['Payment Status', orEmpty(wordSql('reward', sql`r.payout_status`))],
    ['Reason', orEmpty(sql`r.reason`)],
    ['Created At (UTC)', plainCell(isoSql(sql`r.created_at`))],
    ['Rewarded At (UTC)', plainCell(sql`coalesce(${isoSql(sql`r.rewarded_at`)}, '')`)],
  ]),
});
