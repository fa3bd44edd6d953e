import {
  APPROVAL_MSG,
  feeCents,
  PAYMENT_MSG,
  PENDING_APPROVAL,
  type CreatePayoutRequest,
  type CreatePayoutResponse,
} from '@obol/contract';
import type { Deps } from '../../platform/deps.ts';
import { isUniqueViolation, type Tx } from '../../platform/db.ts';
import { ApiError, badRequest, conflict, unprocessable } from '../../platform/errors.ts';
import type { AuthContext } from '../../platform/http.ts';
import { withIdempotency } from '../../platform/idempotency.ts';
import { ProviderUnavailable } from '../../platform/provider.ts';
import { holdForApproval, needsApproval, thresholdOf } from '../approvals/service.ts';
import { consumeApprovalCode } from '../auth/approval.ts';
import { newBatchId } from '../batches/batch-id.ts';
import { payoutMovement } from '../batches/payout-movement.ts';
import { insertManualBatch, settleManualBatch } from '../batches/manual.ts';
import { InsufficientFunds } from '../ledger/service.ts';
import { brandNamesOf, payingAccount } from '../merchants/holders.ts';
import { createPayout, rejectHeldPayout, releaseHeldPayout } from '../payouts/service.ts';
import { paidMtids } from '../payouts/find.ts';
import { wordOf } from '../engine/status.ts';

export const manualPayoutBinding = (amount: number, obolId: string) => ({
  op: 'manual_payout',
  amount,
  obol_id: obolId,
});

type ParsedCreate = Omit<CreatePayoutRequest, 'amount' | 'behalf_of_id'> & {
  amount: number;
  behalf_of_id?: number;
  idempotency_key: string;
  code: string;
};

/** A manual payout approved by its one-time code: a batch of one, its payout reserved and queued. */
export async function createManualPayout(
  deps: Deps,
  auth: AuthContext,
  input: ParsedCreate,
  record?: (tx: Tx, payout: CreatePayoutResponse['payout']) => Promise<void>,
): Promise<CreatePayoutResponse> {
  const { code, ...payload } = input;
  return withIdempotency(deps.db, auth.user.id, input.idempotency_key, 'create-payout', payload, async (complete) => {
    const { account, holder, merchantId, feeBps } = await payingAccount(
      deps,
      auth,
      input.account_reference,
      input.behalf_of_id,
    );
    const brands = await brandNamesOf(deps.db, merchantId, holder);
    if (!brands.has(input.brand.trim().toLowerCase())) throw unprocessable(PAYMENT_MSG.brandMissing, 'brand');
    // an early answer for the common case; the unique index on payouts decides when two race
    if ((await paidMtids(deps.db, merchantId, [input.merchant_transaction_id])).size)
      throw unprocessable(PAYMENT_MSG.duplicateMtid, 'merchant_transaction_id');
    const fee = feeCents(input.amount, feeBps);
    if (input.total_payable !== undefined && Number(input.total_payable) !== input.amount + fee) {
      throw conflict(`The total payable is ${input.amount + fee} cents; review the fee and try again`);
    }
    if (account.balance < input.amount + fee) throw unprocessable(PAYMENT_MSG.amountExceeds, 'amount');
    let wallet;
    try {
      wallet = await deps.provider.lookupWallet(input.obol_id);
    } catch (err) {
      if (err instanceof ProviderUnavailable)
        throw new ApiError(503, ['The payment provider is not reachable; try again shortly']);
      throw err;
    }
    if (!wallet) throw badRequest(PAYMENT_MSG.invalidObolId, 'obol_id');
    await consumeApprovalCode(deps, auth.user, 'manual_payout', manualPayoutBinding(input.amount, input.obol_id), code);
    const batchId = newBatchId();
    try {
      return await deps.db.transaction(async (tx) => {
        // four eyes at or above the merchant's threshold (read where the money moves)
        const held = needsApproval(await thresholdOf(tx, 'merchant', holder ? merchantId : null), input.amount);
        await insertManualBatch(tx, {
          batchId,
          merchantId,
          behalfOfId: holder?.id ?? auth.user.id,
          accountId: account.id,
          uploadedBy: auth.user.id,
          fileName: `manual-${input.merchant_transaction_id}`.replace(/\W+/g, '_'),
          status: held ? PENDING_APPROVAL : 'Completed',
          amount: input.amount,
          fee,
          feeBps,
          savedAt: new Date(),
          executedAt: new Date(),
        });
        const payout = await createPayout(tx, deps.jobs, {
          merchantId,
          behalfOfId: holder?.id ?? auth.user.id,
          account,
          createdBy: auth.user.id,
          feeBps,
          batchId,
          payoutType: 'manual',
          merchantTransactionId: input.merchant_transaction_id,
          beneficiaryName: input.beneficiary_name,
          brand: input.brand.trim(),
          obolId: input.obol_id,
          reference: input.reference,
          amount: input.amount,
          idempotencyKey: `manual:${auth.user.id}:${input.idempotency_key}`,
          held,
        });
        const approvalId = held
          ? await holdForApproval(tx, {
              kind: 'payout',
              objectId: String(payout.id),
              merchantId,
              holderId: holder!.id,
              holderName: holder!.name,
              amount: payout.amount,
              description: `${input.beneficiary_name}, wallet ${input.obol_id}, ${input.reference}`,
              makerId: auth.user.id,
              makerName: auth.user.name,
            })
          : undefined;
        const result: CreatePayoutResponse = {
          message: [held ? APPROVAL_MSG.pending : PAYMENT_MSG.payoutCreated],
          batch_id: batchId,
          payout: { id: payout.id, status: wordOf('payout', payout.status), amount: payout.amount, fee: payout.fee },
          ...(approvalId ? { approval_id: approvalId } : {}),
        };
        // the answer and the activity record commit with the money, or not at all
        await complete(tx, result);
        await record?.(tx, result.payout);
        return result;
      });
    } catch (err) {
      if (err instanceof InsufficientFunds) throw unprocessable(PAYMENT_MSG.amountExceeds, 'amount');
      if (isUniqueViolation(err, 'payouts_merchant_mtid_key'))
        throw unprocessable(PAYMENT_MSG.duplicateMtid, 'merchant_transaction_id');
      throw err;
    }
  });
}

/**
 * A manual payout decided by a second person (approvals/): released to the provider, or failed with its reserve
 * returned; its batch of one follows (Completed, or Declined).
 */
export const manualPayoutApproval = (deps: Pick<Deps, 'jobs'>) => ({
  async release(tx: Tx, objectId: string) {
    const row = await releaseHeldPayout(tx, deps.jobs, Number(objectId));
    if (row?.batchId) await settleManualBatch(tx, row.batchId, 'Completed');
  },
  async reject(tx: Tx, objectId: string, reason: string) {
    const row = await rejectHeldPayout(tx, payoutMovement, Number(objectId), reason);
    if (row?.batchId) await settleManualBatch(tx, row.batchId, 'Declined');
  },
});
