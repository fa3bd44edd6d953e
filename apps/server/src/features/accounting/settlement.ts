import { movementColumns, sentTimes } from '../../platform/columns.ts';
import { transferRequest } from '../../platform/provider.ts';
import type { Movement } from '../engine/movement.ts';
import { accountingTransactions } from './tables.ts';
import { ACCOUNTING_KEY_PREFIX } from './transfers.ts';

/**
 * An external 2D transfer as the money engine moves it (engine/movement.ts): reserved from the company account
 * when made (in_flight), sent to the provider as an IBAN transfer under its own key, then completed (2D in flight ->
 * provider) or failed with the reason (the reserve reversed: the money back in the company account).
 */
export const accountingMovement: Movement<typeof accountingTransactions.$inferSelect> = {
  kind: '2d',
  ledger: { businessType: 'accounting_transaction', entryKind: 'accounting' },
  table: accountingTransactions,
  columns: movementColumns(accountingTransactions),
  clearing: 'accounting_clearing',
  // a provider transfer under a 2D key
  events: ['transfer.completed', 'transfer.failed'],
  ownsKey: (key) => key.startsWith(ACCOUNTING_KEY_PREFIX),
  recoverAfterMs: 30_000,
  send: async (deps, t) => (await deps.provider.createTransfer(transferRequest(t, `2D${t.id}`))).id,
  lookup: (provider, key) => provider.transferByKey(key),
  sentColumns: sentTimes,
  settledColumns: (state, reason) => ({
    reason: state === 'failed' ? reason : null,
    settledAt: new Date(),
    updatedAt: new Date(),
  }),
  defaultReason: 'Declined by the bank',
};
