import { movementColumns, sentTimes } from '../../platform/columns.ts';
import { transferRequest } from '../../platform/provider.ts';
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
  columns: movementColumns(transfers),
  clearing: 'transfer_clearing',
  events: ['transfer.completed', 'transfer.failed'],
  recoverAfterMs: 30_000,
  send: async (deps, t) => (await deps.provider.createTransfer(transferRequest(t, `TR${t.id}`))).id,
  lookup: (provider, key) => provider.transferByKey(key),
  sentColumns: sentTimes,
  settledColumns: (state, reason) => ({
    detail: state === 'failed' ? reason : null,
    settledAt: new Date(),
    updatedAt: new Date(),
  }),
  defaultReason: 'Declined by the bank',
};
