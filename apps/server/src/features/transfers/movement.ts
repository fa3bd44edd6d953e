import type { Movement } from '../engine/movement.ts';
import { transfers } from './tables.ts';

type TransferDb = typeof transfers.$inferSelect;

/**
 * A transfer as the money engine moves it (engine/movement.ts): reserved from its account when made (Pending),
 * sent to the provider as an IBAN transfer under its own key, Completed (transfers in flight -> provider) or
 * Declined with the reason (the reserve reversed: the amount back in the account).
 */
export const transferMovement: Movement<TransferDb> = {
  kind: 'transfer',
  table: transfers,
  columns: {
    id: transfers.id,
    status: transfers.status,
    key: transfers.idempotencyKey,
    providerId: transfers.providerId,
    since: transfers.createdAt,
  },
  words: { inFlight: 'Pending', completed: 'Completed', failed: 'Declined' },
  clearing: 'transfer_clearing',
  events: ['transfer.completed', 'transfer.failed'],
  recoverAfterMs: 30_000,
  async send(deps, t) {
    const r = await deps.provider.createTransfer({
      idempotency_key: t.idempotencyKey,
      iban: t.iban,
      bic: t.bic,
      amount: t.amount,
      beneficiary_name: t.beneficiaryName,
      reference: `TR${t.id}`,
    });
    return r.id;
  },
  lookup: (provider, key) => provider.transferByKey(key),
  sentColumns: () => ({ submittedAt: new Date(), updatedAt: new Date() }),
  settledColumns: (state, reason) => ({
    detail: state === 'failed' ? reason : null,
    settledAt: new Date(),
    updatedAt: new Date(),
  }),
  defaultReason: 'Declined by the bank',
};
