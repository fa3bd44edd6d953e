import {
  APPROVAL_MSG,
  TRANSFER_ACCOUNT_TYPES,
  TRANSFER_MSG,
  type AmountTransferResponse,
  type ParsedInputOf,
  type TransferRow,
  type transferOps,
} from '@obol/contract';
import { and, eq, sql } from 'drizzle-orm';
import { randomUUID } from 'node:crypto';
import type { Deps } from '../../platform/deps.ts';
import type { Tx } from '../../platform/db.ts';
import { notFound, unprocessable } from '../../platform/errors.ts';
import type { AuthContext } from '../../platform/http.ts';
import { withIdempotency } from '../../platform/idempotency.ts';
import { holdForApproval, needsApproval, thresholdOf } from '../approvals/service.ts';
import { consumeApprovalCode, issueApprovalCode } from '../auth/approval.ts';
import { findAccountInScope, type AccountRow } from '../ledger/accounts.ts';
import { InsufficientFunds } from '../ledger/service.ts';
import { findHolderInScope } from '../merchants/holders.ts';
import { usersUnder } from '../users/repo.ts';
import { postReserve } from '../engine/reserve.ts';
import { settleMovements } from '../engine/settle.ts';
import { listRows } from './list.ts';
import { transferMovement } from './movement.ts';
import { transfers } from './tables.ts';

type TransferDb = typeof transfers.$inferSelect;
type SendOtp = ParsedInputOf<typeof transferOps.sendOtp>;
type AmountTransfer = ParsedInputOf<typeof transferOps.amountTransfer>;

/** The approval code of a transfer is bound to where the money goes, how much, and from which account. */
export const transferBinding = (t: { amount: number; iban: string; bic: string; account_id: string }) => ({
  op: 'amount_transfer',
  amount: t.amount,
  iban: t.iban,
  bic: t.bic,
  account_id: t.account_id,
});

/**
 * The account a transfer is made from, in the caller's scope: a merchant's or brand's payout, pay-in or CLP
 * account (its holder active), or the Fee Account for the Admin. Anything else answers 404, as for none.
 */
export async function transferAccount(
  deps: Deps,
  auth: AuthContext,
  accountId: string,
): Promise<{ account: AccountRow; holderId: number | null; merchantId: number | null; holderName: string }> {
  const account = await findAccountInScope(deps.db, auth.scope, { accountId }, usersUnder);
  if (!account) throw notFound(TRANSFER_MSG.accountNotRegistered);
  if (account.kind === 'fee') {
    if (auth.user.role !== 'Admin') throw notFound(TRANSFER_MSG.accountNotRegistered);
    return { account, holderId: null, merchantId: null, holderName: 'Fee Account' };
  }
  if (!TRANSFER_ACCOUNT_TYPES.some((t) => t.kind === account.kind)) throw notFound(TRANSFER_MSG.accountNotRegistered);
  const holder = await findHolderInScope(deps.db, auth.scope, account.ownerId!);
  if (!holder || !holder.isActive) throw notFound("Merchant/Brand doesn't exist");
  return { account, holderId: holder.id, merchantId: holder.merchantId, holderName: holder.name };
}

/**
 * The spec's "request transfer code": the form is checked (the schema checked the IBAN's checksum and the BIC),
 * the account must be the caller's and hold the amount, then a code bound to this transfer is sent. The balance
 * is checked again, under the ledger's guard, when the transfer is made.
 */
export async function requestTransferCode(deps: Deps, auth: AuthContext, input: SendOtp) {
  const { account } = await transferAccount(deps, auth, input.account_id);
  if (account.balance <= 0) throw unprocessable(TRANSFER_MSG.selectAccount, 'account_id');
  if (input.amount > account.balance) throw unprocessable(TRANSFER_MSG.amountExceeds, 'amount');
  return issueApprovalCode(
    deps,
    auth.user,
    'amount_transfer',
    transferBinding(input),
    `a transfer of ${(input.amount / 100).toFixed(2)} EUR from account ${account.accountId} to IBAN ${input.iban}`,
  );
}

const accountUsedKind = (v: AmountTransfer['account_used']): string | undefined => {
  if (v === undefined) return undefined;
  const n = typeof v === 'number' ? v : /^\d$/.test(v) ? Number(v) : undefined;
  return TRANSFER_ACCOUNT_TYPES.find((t) => (n !== undefined ? t.value === n : t.label === v))?.kind;
};

export interface NewTransfer {
  merchantId: number | null;
  holderId: number | null;
  account: AccountRow;
  holderName: string;
  createdBy: number;
  createdByName: string;
  beneficiaryName: string;
  iban: string;
  bic: string;
  amount: number;
  message: string;
  idempotencyKey: string;
  /** at or above its merchant's approval threshold: reserved, 'Pending approval', nothing sent until approved */
  held?: boolean;
}

/**
 * The money part of a transfer, inside the caller's transaction: the row (Pending), the reserve entry (account
 * -amount, transfers in flight +amount; the ledger's guarded debit throws InsufficientFunds beyond the balance)
 * and the job that sends it to the provider. The approval code and the caller's scope are checked before.
 */
export async function recordTransfer(tx: Tx, deps: Pick<Deps, 'jobs'>, t: NewTransfer): Promise<TransferDb> {
  const [row] = await tx
    .insert(transfers)
    .values({
      merchantId: t.merchantId,
      holderId: t.holderId,
      accountId: t.account.id,
      accountKind: t.account.kind,
      accountCode: t.account.accountId,
      holderName: t.holderName,
      createdBy: t.createdBy,
      createdByName: t.createdByName,
      beneficiaryName: t.beneficiaryName,
      iban: t.iban,
      bic: t.bic,
      amount: t.amount,
      message: t.message,
      status: t.held ? 'held' : 'in_flight',
      idempotencyKey: t.idempotencyKey,
    })
    .returning();
  await postReserve(tx, {
    kind: 'transfer',
    id: row.id,
    clearing: 'transfer_clearing',
    source: t.account.id,
    amount: row.amount,
    createdBy: t.createdBy,
  });
  if (!t.held) await deps.jobs.send('transfer.submit', { transferId: row.id }, { tx });
  return row;
}

/**
 * A transfer decided by a second person (approvals/): released, it goes on to the provider (held -> in_flight
 * once, with its submission job); rejected, it fails through the engine's one settle path (its reserve
 * returned), moved in flight and settled in the same transaction so nobody sees it in flight.
 */
export const transferApproval = (deps: Pick<Deps, 'jobs'>) => ({
  async release(tx: Tx, objectId: string) {
    const [row] = await tx
      .update(transfers)
      .set({ status: 'in_flight', updatedAt: new Date() })
      .where(and(eq(transfers.id, Number(objectId)), eq(transfers.status, 'held')))
      .returning({ id: transfers.id });
    if (row) await deps.jobs.send('transfer.submit', { transferId: row.id }, { tx });
  },
  async reject(tx: Tx, objectId: string, reason: string) {
    const [row] = await tx
      .update(transfers)
      .set({ status: 'in_flight', updatedAt: new Date() })
      .where(and(eq(transfers.id, Number(objectId)), eq(transfers.status, 'held')))
      .returning({ key: transfers.idempotencyKey });
    if (row) await settleMovements(tx, transferMovement, [{ key: row.key, status: 'Failed', message: reason }]);
  },
});

/**
 * A transfer approved by its code: once per idempotency key, the code is used up, then recordTransfer writes the
 * row, the reserve entry and the submission job in one transaction with the stored answer and activity record.
 */
export async function createTransfer(
  deps: Deps,
  auth: AuthContext,
  input: AmountTransfer,
  record?: (tx: Tx, transfer: TransferRow) => Promise<void>,
): Promise<AmountTransferResponse> {
  const { code, idempotency_key, ...payload } = input;
  const key = idempotency_key ?? randomUUID();
  return withIdempotency(deps.db, auth.user.id, key, 'amount-transfer', payload, async (complete) => {
    const { account, holderId, merchantId, holderName } = await transferAccount(deps, auth, input.account_id);
    const kind = accountUsedKind(input.account_used);
    if (kind !== undefined && kind !== account.kind)
      throw unprocessable(TRANSFER_MSG.accountTypeMismatch, 'account_used');
    if (input.amount > account.balance) throw unprocessable(TRANSFER_MSG.amountExceeds, 'amount');
    await consumeApprovalCode(deps, auth.user, 'amount_transfer', transferBinding(input), code);
    try {
      return await deps.db.transaction(async (tx) => {
        // four eyes at or above the merchant's threshold (the Fee Account's own transfers have none)
        const held = needsApproval(await thresholdOf(tx, 'merchant', merchantId), input.amount);
        const row = await recordTransfer(tx, deps, {
          held,
          merchantId,
          holderId,
          account,
          holderName,
          createdBy: auth.user.id,
          createdByName: auth.user.name,
          beneficiaryName: input.beneficiary_name,
          iban: input.iban,
          bic: input.bic,
          amount: input.amount,
          message: input.message,
          idempotencyKey: `transfer:${auth.user.id}:${key}`,
        });
        const [shown] = await listRows(tx, sql`t.id = ${row.id}`, 'DESC', 1, 0);
        const approvalId = held
          ? await holdForApproval(tx, {
              kind: 'transfer',
              objectId: String(row.id),
              merchantId,
              holderId,
              holderName,
              amount: row.amount,
              description: `${input.beneficiary_name}, IBAN ${input.iban}, from ${account.accountId}`,
              makerId: auth.user.id,
              makerName: auth.user.name,
            })
          : undefined;
        const result: AmountTransferResponse = approvalId
          ? { message: [APPROVAL_MSG.pending], transfer: shown, approval_id: approvalId }
          : { message: [TRANSFER_MSG.transferred], transfer: shown };
        // the answer and the activity record commit with the money, or not at all
        await complete(tx, result);
        await record?.(tx, shown);
        return result;
      });
    } catch (err) {
      if (err instanceof InsufficientFunds) throw unprocessable(TRANSFER_MSG.amountExceeds, 'amount');
      throw err;
    }
  });
}
