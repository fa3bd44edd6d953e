import { and, eq, isNull, sql } from 'drizzle-orm';
import type { Deps } from '../../platform/deps.ts';
import type { Executor, Tx } from '../../platform/db.ts';
import { ProviderRejected, type ProviderClient } from '../../platform/provider.ts';
import { platformAccountId } from '../ledger/accounts.ts';
import { entryIdByKey, postEntry, reverseEntry } from '../ledger/service.ts';
import { transfers } from './tables.ts';

type TransferDb = typeof transfers.$inferSelect;

// ---- sending to the provider, settling, recovering ----

/** Sends a Pending transfer to the provider with its own idempotency key. Safe to run again. */
export async function submitTransfer(deps: Deps, provider: ProviderClient, transferId: number): Promise<void> {
  const [t] = await deps.db.select().from(transfers).where(eq(transfers.id, transferId));
  if (!t || t.status !== 'Pending' || t.providerId) return;
  try {
    const r = await provider.createTransfer({
      idempotency_key: t.idempotencyKey,
      iban: t.iban,
      bic: t.bic,
      amount: t.amount,
      beneficiary_name: t.beneficiaryName,
      reference: `TR${t.id}`,
    });
    await deps.db
      .update(transfers)
      .set({ providerId: r.id, submittedAt: new Date(), updatedAt: new Date() })
      .where(and(eq(transfers.id, t.id), isNull(transfers.providerId)));
  } catch (err) {
    if (err instanceof ProviderRejected) {
      await settleTransfer(deps, { idempotencyKey: t.idempotencyKey, status: 'Failed', message: err.messages[0] });
      return;
    }
    throw err; // unavailable: the job is retried with the same key
  }
}

/**
 * Settles a transfer exactly once: only a Pending transfer moves, to Completed (transfers in flight -> provider)
 * or Declined (the reserve is reversed: the amount returns to the account). Late or repeated events change nothing.
 */
export async function settleTransfer(
  deps: Pick<Deps, 'db'>,
  ev: { idempotencyKey: string; providerId?: string; status: 'Completed' | 'Failed'; message?: string },
  tx?: Tx,
): Promise<'applied' | 'ignored'> {
  const run = async (t: Tx) => {
    const [row] = await t
      .update(transfers)
      .set({
        status: ev.status === 'Completed' ? 'Completed' : 'Declined',
        detail: ev.status === 'Failed' ? (ev.message ?? 'Declined by the bank') : null,
        settledAt: new Date(),
        updatedAt: new Date(),
        ...(ev.providerId ? { providerId: sql`COALESCE(${transfers.providerId}, ${ev.providerId})` } : {}),
      })
      .where(and(eq(transfers.idempotencyKey, ev.idempotencyKey), eq(transfers.status, 'Pending')))
      .returning();
    if (!row) return 'ignored' as const;
    if (ev.status === 'Completed') {
      await postEntry(t, {
        idempotencyKey: `transfer:${row.id}:complete`,
        kind: 'transfer.complete',
        businessType: 'transfer',
        businessId: row.id,
        postings: [
          { accountId: await platformAccountId(t, 'transfer_clearing'), amount: -row.amount },
          { accountId: await platformAccountId(t, 'provider'), amount: row.amount },
        ],
      });
    } else {
      const reserve = await entryIdByKey(t, `transfer:${row.id}:reserve`);
      if (reserve === undefined) throw new Error(`transfer ${row.id} has no reserve entry`);
      await reverseEntry(t, reserve, { kind: 'transfer.reversal', memo: row.detail ?? undefined });
    }
    return 'applied' as const;
  };
  return tx ? run(tx) : deps.db.transaction(run);
}

/** Whether a transfer is still waiting for the provider (the webhook then asks the provider for its state). */
export async function transferStatusByKey(db: Executor, key: string): Promise<string | undefined> {
  const [row] = await db.select({ status: transfers.status }).from(transfers).where(eq(transfers.idempotencyKey, key));
  return row?.status;
}

/** Transfers still Pending after `olderThanMs`: the recovery asks the provider what became of them. */
export async function pendingTransfers(db: Executor, olderThanMs: number, limit = 200): Promise<TransferDb[]> {
  return db
    .select()
    .from(transfers)
    .where(
      and(
        eq(transfers.status, 'Pending'),
        sql`${transfers.createdAt} < now() - make_interval(secs => ${olderThanMs / 1000})`,
      ),
    )
    .orderBy(transfers.createdAt, transfers.id)
    .limit(limit);
}

/**
 * Transfers a dead process, a lost answer or a lost webhook left Pending: one never sent is sent again (same
 * key), one the provider settled is settled from the provider's own answer.
 */
export async function recoverTransfers(deps: Deps, olderThanMs = 30_000): Promise<number> {
  let settled = 0;
  for (const t of await pendingTransfers(deps.db, olderThanMs)) {
    const item = await deps.provider.transferByKey(t.idempotencyKey);
    if (!item) {
      await submitTransfer(deps, deps.provider, t.id);
      continue;
    }
    if (item.status === 'Completed' || item.status === 'Failed') {
      if (item.amount !== t.amount) {
        deps.log.error({ transfer: t.id, ours: t.amount, theirs: item.amount }, 'transfer amount differs at provider');
        continue;
      }
      const r = await settleTransfer(deps, {
        idempotencyKey: t.idempotencyKey,
        providerId: item.id,
        status: item.status,
        message: item.message,
      });
      if (r === 'applied') settled += 1;
    }
  }
  return settled;
}
