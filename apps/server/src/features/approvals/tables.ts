import { sql } from 'drizzle-orm';
import { check, index, integer, pgTable, primaryKey, text, uniqueIndex } from 'drizzle-orm/pg-core';
import { bigId, bigNumber, moment, createdAt, updatedAt, money } from '../../platform/columns.ts';

/**
 * A merchant's or a 2D company's approval threshold (issue 50): a manual payout, a batch total or a transfer at or
 * above it waits for a second person. No row, or 0: off.
 */
export const approvalPolicies = pgTable(
  'approval_policies',
  {
    holderType: text('holder_type').notNull(),
    holderId: integer('holder_id').notNull(),
    threshold: bigNumber('threshold').notNull(),
    updatedBy: text('updated_by'),
    updatedAt: updatedAt(),
  },
  (t) => [
    primaryKey({ columns: [t.holderType, t.holderId] }),
    check('approval_policies_holder_type_known', sql`${t.holderType} IN ('merchant', 'company')`),
    check('approval_policies_threshold_positive', sql`${t.threshold} >= 0`),
  ],
);

/**
 * One movement waiting for (or decided by) a second person. Its money is reserved when it is made; deciding is one
 * conditional UPDATE of this row (Pending -> Approved or Rejected, never by its maker), in the transaction that
 * releases the movement to the provider or returns its reserve, so of two deciders exactly one wins.
 */
export const approvals = pgTable(
  'approvals',
  {
    id: bigId(),
    /** payout, batch, transfer or 2d */
    kind: text('kind').notNull(),
    /** the payout's or transfer's id, the batch's batch id, the 2D transaction's id */
    objectId: text('object_id').notNull(),
    /** whose tenant: null for the platform's own money and for 2D companies */
    merchantId: integer('merchant_id'),
    /** the merchant or brand, or the company */
    holderId: integer('holder_id'),
    holderName: text('holder_name').notNull(),
    ...money(),
    description: text('description').notNull(),
    status: text('status').notNull().default('Pending'),
    makerId: integer('maker_id').notNull(),
    makerName: text('maker_name').notNull(),
    decidedBy: integer('decided_by'),
    decidedByName: text('decided_by_name'),
    decidedAt: moment('decided_at'),
    reason: text('reason'),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex('approvals_kind_object_key').on(t.kind, t.objectId),
    index('approvals_status_idx').on(t.status, t.id.desc()),
    index('approvals_merchant_idx').on(t.merchantId, t.status, t.id.desc()),
    check('approvals_kind_known', sql`${t.kind} IN ('payout', 'batch', 'transfer', '2d')`),
    check('approvals_status_known', sql`${t.status} IN ('Pending', 'Approved', 'Rejected')`),
    check('approvals_maker_not_decider', sql`${t.decidedBy} IS NULL OR ${t.decidedBy} <> ${t.makerId}`),
  ],
);
