import { and, eq, isNull, sql } from 'drizzle-orm';
import type { Deps } from '../../platform/deps.ts';
import type { Executor, Tx } from '../../platform/db.ts';
import { ProviderRejected, type ProviderClient } from '../../platform/provider.ts';
import { platformAccountId } from '../ledger/accounts.ts';
import { entryIdByKey, postEntry, reverseEntry } from '../ledger/service.ts';
import { accountingTransactions } from './tables.ts';

/* 2D transfers at the provider: sent under their own key, settled once by webhook or recovery. */

/** Sends a PENDING external 2D transaction to the provider under its own key. Safe to run again. */
export async function submitAccountingTransaction(deps: Deps, provider: ProviderClient, id: number): Promise<void> {
  const [t] = await deps.db.select().from(accountingTransactions).where(eq(accountingTransactions.id, id));
  if (!t || t.status !== 'PENDING' || t.providerId) return;
  try {
    const r = await provider.createTransfer({
      idempotency_key: t.idempotencyKey,
      iban: t.iban,
      bic: t.bic,
      amount: t.amount,
      beneficiary_name: t.beneficiaryName,
      reference: `2D${t.id}`,
    });
    await deps.db
      .update(accountingTransactions)
      .set({ providerId: r.id, submittedAt: new Date(), updatedAt: new Date() })
      .where(and(eq(accountingTransactions.id, t.id), isNull(accountingTransactions.providerId)));
  } catch (err) {
    if (err instanceof ProviderRejected) {
      await settleAccountingTransaction(deps, {
        idempotencyKey: t.idempotencyKey,
        status: 'Failed',
        message: err.messages[0],
      });
      return;
    }
    throw err;
  }
}

/**
 * Settles a PENDING 2D transaction exactly once: COMPLETED (in flight -> provider) or FAILED (the reserve is
 * reversed: the money returns to the company account). Late or repeated events change nothing.
 */
export async function settleAccountingTransaction(
  deps: Pick<Deps, 'db'>,
  ev: { idempotencyKey: string; providerId?: string; status: 'Completed' | 'Failed'; message?: string },
  tx?: Tx,
): Promise<'applied' | 'ignored'> {
  const run = async (t: Tx) => {
    const [row] = await t
      .update(accountingTransactions)
      .set({
        status: ev.status === 'Completed' ? 'COMPLETED' : 'FAILED',
        reason: ev.status === 'Failed' ? (ev.message ?? 'Declined by the bank') : null,
        settledAt: new Date(),
        updatedAt: new Date(),
        ...(ev.providerId ? { providerId: sql`COALESCE(${accountingTransactions.providerId}, ${ev.providerId})` } : {}),
      })
      .where(
        and(eq(accountingTransactions.idempotencyKey, ev.idempotencyKey), eq(accountingTransactions.status, 'PENDING')),
      )
      .returning();
    if (!row) return 'ignored' as const;
    if (ev.status === 'Completed') {
      await postEntry(t, {
        idempotencyKey: `2d:${row.id}:complete`,
        kind: 'accounting.complete',
        businessType: 'accounting_transaction',
        businessId: row.id,
        postings: [
          { accountId: await platformAccountId(t, 'accounting_clearing'), amount: -row.amount },
          { accountId: await platformAccountId(t, 'provider'), amount: row.amount },
        ],
      });
    } else {
      const reserve = await entryIdByKey(t, `2d:${row.id}:reserve`);
      if (reserve === undefined) throw new Error(`2D transaction ${row.id} has no reserve entry`);
      await reverseEntry(t, reserve, { kind: 'accounting.reversal', memo: row.reason ?? undefined });
    }
    return 'applied' as const;
  };
  return tx ? run(tx) : deps.db.transaction(run);
}

export async function accountingStatusByKey(db: Executor, key: string): Promise<string | undefined> {
  const [row] = await db
    .select({ status: accountingTransactions.status })
    .from(accountingTransactions)
    .where(eq(accountingTransactions.idempotencyKey, key));
  return row?.status;
}

/**
 * 2D transactions a dead process, a lost answer or a lost webhook left PENDING: one never sent is sent again
 * (same key), one the provider settled is settled from the provider's own answer.
 */
export async function recoverAccountingTransactions(deps: Deps, olderThanMs = 30_000): Promise<number> {
  const pending = await deps.db
    .select()
    .from(accountingTransactions)
    .where(
      and(
        eq(accountingTransactions.status, 'PENDING'),
        sql`${accountingTransactions.createdAt} < now() - make_interval(secs => ${olderThanMs / 1000})`,
      ),
    )
    .orderBy(accountingTransactions.createdAt, accountingTransactions.id)
    .limit(200);
  let settled = 0;
  for (const t of pending) {
    const item = await deps.provider.transferByKey(t.idempotencyKey);
    if (!item) {
      await submitAccountingTransaction(deps, deps.provider, t.id);
      continue;
    }
    if (item.status !== 'Completed' && item.status !== 'Failed') continue;
    if (item.amount !== t.amount) {
      deps.log.error({ transaction: t.id, ours: t.amount, theirs: item.amount }, '2D amount differs at provider');
      continue;
    }
    const r = await settleAccountingTransaction(deps, {
      idempotencyKey: t.idempotencyKey,
      providerId: item.id,
      status: item.status,
      message: item.message,
    });
    if (r === 'applied') settled += 1;
  }
  return settled;
}
