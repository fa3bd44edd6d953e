import { z } from 'zod';
import { MAX_AMOUNT_CENTS } from './money.ts';
import { messages, operation, timestamp } from './operation.ts';
import { INT4_MAX, pageField, perPageField, wholeNumber } from './params.ts';
import type { Permission } from './permissions.ts';

/**
 * Four eyes on large amounts (issue 50): a manual payout, a batch (its total) or a transfer at or above its merchant's
 * threshold, and a 2D transfer at or above its company's, is reserved and waits for a second person.
 */
export const APPROVAL_KINDS = ['payout', 'batch', 'transfer', '2d'] as const;
export type ApprovalKind = (typeof APPROVAL_KINDS)[number];
export const APPROVAL_STATUSES = ['Pending', 'Approved', 'Rejected'] as const;
export type ApprovalStatus = (typeof APPROVAL_STATUSES)[number];

/** The status word of what waits (a payout, a batch, a transfer); a 2D transfer says PENDING_APPROVAL. */
export const PENDING_APPROVAL = 'Pending approval';

/** Who approves: payouts, batches and transfers by this permission; a 2D transfer by a second 2D admin. */
const APPROVE_PAYOUTS: Permission = 'User can approve payouts';
const APPROVE_2D: Permission = 'User can perform accounting transactions';
export const approverPermissionOf = (kind: ApprovalKind): Permission => (kind === '2d' ? APPROVE_2D : APPROVE_PAYOUTS);

export const APPROVAL_MSG = {
  pending: 'Waiting for approval: a second person must approve it before it is sent. The amount is reserved.',
  approved: 'Approved. It is on its way to the provider.',
  rejected: 'Rejected. The reserved money is back in its account.',
  ownApproval: 'You cannot approve or reject what you made yourself',
  decided: 'This approval has already been decided',
  notFound: 'No record found',
  policySaved: 'Approval threshold saved.',
  reason: 'Enter a reason',
} as const;

const HOLDER_TYPES = ['merchant', 'company'] as const;

const approvalPolicyRequest = z.object({
  /** a merchant (its brands follow it) or a 2D company */
  holder_type: z.enum(HOLDER_TYPES).default('merchant'),
  holder_id: wholeNumber('holder_id', 1, INT4_MAX),
  /** cents; 0 turns approvals off */
  threshold: wholeNumber('threshold', 0, MAX_AMOUNT_CENTS, 'Threshold must be a whole number of cents, 0 or more'),
});

const approvalPolicyQuery = z.object({
  holder_type: z.enum(HOLDER_TYPES).default('merchant'),
  holder_id: wholeNumber('holder_id', 1, INT4_MAX),
});

export const approvalPolicy = z.object({
  holder_type: z.enum(HOLDER_TYPES),
  holder_id: z.number().int(),
  threshold: z.number().int(),
  updated_at: timestamp.nullable(),
  updated_by: z.string().nullable(),
});
export type ApprovalPolicy = z.output<typeof approvalPolicy>;

/** The payments' approvals (payouts, batches, transfers) or the 2D transfers': one screen each. */
export const APPROVAL_GROUPS = { payments: ['payout', 'batch', 'transfer'], '2d': ['2d'] } as const;

const approvalsRequest = z.object({
  per_page: perPageField(),
  page: pageField(),
  status: z.enum(APPROVAL_STATUSES).optional(),
  group: z.enum(['payments', '2d']).optional(),
});

const approvalRow = z.object({
  id: z.number().int(),
  kind: z.enum(APPROVAL_KINDS),
  /** the payout's or transfer's id, the batch's batch id */
  object_id: z.string(),
  /** whose money: the merchant or brand, or the 2D company */
  holder_name: z.string(),
  amount: z.number().int(),
  currency: z.string(),
  /** what it is, in a line: beneficiary, wallet or IBAN, reference */
  description: z.string(),
  status: z.enum(APPROVAL_STATUSES),
  made_by: z.string(),
  made_at: timestamp,
  /** the caller made it: they may not decide it */
  own: z.boolean(),
  decided_by: z.string().nullable(),
  decided_at: timestamp.nullable(),
  reason: z.string().nullable(),
});
export type ApprovalRow = z.output<typeof approvalRow>;

const approvalId = z.object({ id: wholeNumber('id', 1, Number.MAX_SAFE_INTEGER) });

const TAG = 'Approvals';
const approver: readonly Permission[] = [APPROVE_PAYOUTS, APPROVE_2D];

export const approvalOps = {
  setApprovalPolicy: operation({
    id: 'setApprovalPolicy',
    method: 'POST',
    path: '/api/approval-policy',
    tag: TAG,
    summary:
      "Sets a merchant's (or a 2D company's) approval threshold in cents; 0 turns it off. A manual payout, a batch " +
      'total or a transfer at or above it answers 202 "Pending approval" and waits, reserved, for a second person',
    access: { roles: ['Admin'] },
    audit: 'approval.policy',
    input: approvalPolicyRequest,
    output: z.object({ message: messages, policy: approvalPolicy }),
  }),
  approvalPolicy: operation({
    id: 'approvalPolicy',
    method: 'GET',
    path: '/api/approval-policy',
    tag: TAG,
    summary: "A merchant's (or a 2D company's) approval threshold (0: off)",
    access: { roles: ['Admin'] },
    input: approvalPolicyQuery,
    output: z.object({ policy: approvalPolicy }),
  }),
  approvals: operation({
    id: 'approvals',
    method: 'POST',
    path: '/api/approvals',
    tag: TAG,
    summary:
      'What waits for a second person (or was decided), newest first, in the caller\u2019s scope: payouts, batches ' +
      "and transfers for 'User can approve payouts', 2D transfers for 2D admins",
    access: approver,
    input: approvalsRequest,
    output: z.object({ data: z.array(approvalRow), total: z.number().int(), pending: z.number().int() }),
  }),
  requestApprovalCode: operation({
    id: 'requestApprovalCode',
    method: 'POST',
    path: '/api/request-approval-code',
    tag: TAG,
    summary: 'Sends the approver their own code for this approval (or asks their authenticator)',
    access: approver,
    audit: 'approval.request-code',
    input: approvalId,
    output: z.object({ message: messages }),
  }),
  approve: operation({
    id: 'approve',
    method: 'POST',
    path: '/api/approve',
    tag: TAG,
    summary:
      'Approves with the approver\u2019s code: the reserved payout, batch or transfer goes to the provider. Never ' +
      'the maker\u2019s own; of an approve and a reject at the same moment exactly one wins',
    access: approver,
    audit: 'approval.approve',
    input: approvalId.extend({ code: z.string().trim().min(1, 'Enter the code') }),
    output: z.object({ message: messages, approval: approvalRow }),
  }),
  reject: operation({
    id: 'reject',
    method: 'POST',
    path: '/api/reject',
    tag: TAG,
    summary:
      'Rejects: the reserved money returns to its account and the payout, batch or transfer fails with the reason',
    access: approver,
    audit: 'approval.reject',
    input: approvalId.extend({
      reason: z.string({ error: APPROVAL_MSG.reason }).trim().min(1, APPROVAL_MSG.reason).max(500),
    }),
    output: z.object({ message: messages, approval: approvalRow }),
  }),
} as const;
