import { feeCents, MAX_AMOUNT_CENTS } from '@obol/contract';
import { and, eq, inArray, isNull, sql } from 'drizzle-orm';
import type { Deps } from '../../platform/deps.ts';
import { rowsOf, type Tx } from '../../platform/db.ts';
import { unprocessable } from '../../platform/errors.ts';
import { ProviderRejected, type ProviderClient } from '../../platform/provider.ts';
import type { Jobs } from '../../platform/jobs.ts';
import { platformAccountId, type AccountRow } from '../ledger/accounts.ts';
import { entryIdByKey, postEntry, reverseEntry } from '../ledger/service.ts';
import { lockAccounts, postEntries } from '../ledger/batch.ts';
import { returnFromBatch } from '../batches/returns.ts';
import { payouts } from './tables.ts';

export type PayoutRow = typeof payouts.$inferSelect;

export interface NewPayout {
  merchantId: number;
  behalfOfId: number;
  account: Pick<AccountRow, 'id' | 'kind'>;
  createdBy: number;
  feeBps: number;
  batchId?: string;
  payoutType?: 'manual' | 'batch';
  merchantTransactionId: string;
  beneficiaryName: string;
  brand: string;
  obolId: string;
  reference: string;
  amount: number;
  /** one per payout; the provider sees it too, so a retry never pays twice */
  idempotencyKey: string;
}

/**
 * Creates a payout in Processing and reserves amount + fee from the payout account in one ledger entry, in
 * the caller's transaction, and enqueues its submission to the provider in the same transaction.
 */
export async function createPayout(tx: Tx, jobs: Pick<Jobs, 'send'>, p: NewPayout): Promise<PayoutRow> {
  if (!Number.isSafeInteger(p.amount) || p.amount <= 0 || p.amount > MAX_AMOUNT_CENTS) {
    throw unprocessable('Amount must be a whole number of cents above 0', 'amount');
  }
  if (p.account.kind !== 'payout' && p.account.kind !== 'fee')
    throw unprocessable('Payouts are made from a payout account', 'account_reference');
  const fee = feeCents(p.amount, p.feeBps);
  const [row] = await tx
    .insert(payouts)
    .values({
      merchantId: p.merchantId,
      behalfOfId: p.behalfOfId,
      accountId: p.account.id,
      createdBy: p.createdBy,
      batchId: p.batchId,
      payoutType: p.payoutType ?? 'manual',
      merchantTransactionId: p.merchantTransactionId,
      beneficiaryName: p.beneficiaryName,
      brand: p.brand,
      obolId: p.obolId,
      reference: p.reference,
      amount: p.amount,
      fee,
      feeBps: p.feeBps,
      status: 'Processing',
      idempotencyKey: p.idempotencyKey,
    })
    .returning();
  await reservePayout(tx, row);
  await jobs.send('payout.submit', { payoutId: row.id }, { tx });
  return row;
}

/** The reserve entry: payout account -(amount+fee), payouts in flight +amount, Fee Account +fee. */
export async function reservePayout(tx: Tx, row: PayoutRow) {
  const clearing = await platformAccountId(tx, 'payout_clearing');
  const feeAccount = await platformAccountId(tx, 'fee');
  const lines = [
    { accountId: row.accountId, amount: -(row.amount + row.fee) },
    { accountId: clearing, amount: row.amount },
  ];
  if (row.fee > 0) lines.push({ accountId: feeAccount, amount: row.fee });
  return postEntry(tx, {
    idempotencyKey: `payout:${row.id}:reserve`,
    kind: 'payout.reserve',
    businessType: 'payout',
    businessId: row.id,
    createdBy: row.createdBy,
    postings: lines,
  });
}

/** Sends a Processing payout to the provider with its own idempotency key. Safe to run again. */
export async function submitPayout(deps: Deps, provider: ProviderClient, payoutId: number): Promise<void> {
  const [p] = await deps.db.select().from(payouts).where(eq(payouts.id, payoutId));
  if (!p || p.status !== 'Processing' || p.providerId) return;
  try {
    const r = await provider.createPayout(providerBody(p));
    await deps.db
      .update(payouts)
      .set({ providerId: r.id, submittedAt: new Date(), updatedAt: new Date() })
      .where(and(eq(payouts.id, p.id), isNull(payouts.providerId)));
  } catch (err) {
    if (err instanceof ProviderRejected) {
      await settlePayout(deps, { idempotencyKey: p.idempotencyKey, status: 'Failed', message: err.messages[0] });
      return;
    }
    throw err; // unavailable: the job is retried with the same key
  }
}

/** What the provider said became of a payout, by its idempotency key. */
export interface PayoutSettlement {
  idempotencyKey: string;
  providerId?: string;
  status: 'Completed' | 'Failed';
  message?: string;
}

const providerBody = (p: PayoutRow) => ({
  idempotency_key: p.idempotencyKey,
  reference: p.reference,
  obol_id: p.obolId,
  amount: p.amount,
  currency: 'EUR' as const,
  beneficiary_name: p.beneficiaryName,
  brand: p.brand,
});

/**
 * Sends these payouts (those still Processing and unsent) to the provider in batch calls, each under its own
 * idempotency key: the accepted ones get their provider id in one UPDATE, the rejected ones are settled Failed
 * with the provider's message in one transaction, as submitPayout does one at a time. Safe to run again: a
 * payout sent before is answered as the provider first took it.
 */
export async function submitPayouts(deps: Deps, ids: number[]): Promise<void> {
  if (!ids.length) return;
  const rows = await deps.db
    .select()
    .from(payouts)
    .where(and(inArray(payouts.id, ids), eq(payouts.status, 'Processing'), isNull(payouts.providerId)))
    .orderBy(payouts.id);
  if (!rows.length) return;
  // unavailable: thrown, and the job is retried with the same keys
  const results = await deps.provider.createPayouts(rows.map(providerBody));
  const accepted = results.filter((r) => r.outcome === 'accepted');
  if (accepted.length)
    await deps.db.execute(sql`
      WITH v AS (
        SELECT * FROM unnest(${sql.param(accepted.map((r) => r.idempotency_key))}::text[],
          ${sql.param(accepted.map((r) => r.id))}::text[]) AS v(key, provider_id)
      ), locked AS (
        -- in id order, as settlePayouts locks them: the two never wait on each other in a cycle
        SELECT p.id FROM payouts p JOIN v ON v.key = p.idempotency_key
        WHERE p.provider_id IS NULL ORDER BY p.id FOR UPDATE OF p
      )
      UPDATE payouts p SET provider_id = v.provider_id, submitted_at = now(), updated_at = now()
      FROM v
      WHERE p.idempotency_key = v.key AND p.provider_id IS NULL AND p.id IN (SELECT id FROM locked)`);
  const rejected = results.flatMap((r) => (r.outcome === 'rejected' ? [r] : []));
  if (rejected.length)
    await deps.db.transaction((tx) =>
      settlePayouts(
        tx,
        rejected.map((r) => ({ idempotencyKey: r.idempotency_key, status: 'Failed' as const, message: r.messages[0] })),
      ),
    );
}

/**
 * Settles a payout exactly once: only a Processing payout moves, to Completed (payouts in flight -> provider)
 * or Failed (the reserve is reversed: amount and fee return to the payout account). Duplicate or late
 * events find it settled and change nothing.
 */
export async function settlePayout(
  deps: Pick<Deps, 'db'>,
  ev: PayoutSettlement,
  tx?: Tx,
): Promise<'applied' | 'ignored'> {
  const run = async (t: Tx) => ((await settlePayouts(t, [ev])).has(ev.idempotencyKey) ? 'applied' : 'ignored');
  return tx ? run(tx) : deps.db.transaction(run);
}

/**
 * Settles many payouts in the caller's transaction, each exactly once, and answers the keys it applied. One
 * conditional UPDATE moves the Processing ones among them (rows locked in id order, so two settlers of
 * overlapping sets never deadlock; a payout another transaction settled first is no longer Processing and is
 * left alone). Each Completed payout gets its own entry (`payout:<id>:complete`: payouts in flight -> provider),
 * posted together so the two platform accounts move once per call (ledger postEntries); each Failed one
 * returns its money as settlePayout always did. A key twice counts once (the first).
 */
export async function settlePayouts(tx: Tx, evs: PayoutSettlement[]): Promise<Set<string>> {
  const byKey = new Map<string, PayoutSettlement>();
  for (const e of evs) if (!byKey.has(e.idempotencyKey)) byKey.set(e.idempotencyKey, e);
  const list = [...byKey.values()];
  if (!list.length) return new Set();
  const col = <T>(f: (e: PayoutSettlement) => T) => sql.param(list.map(f));
  const moved = rowsOf<{ id: number | string; key: string; status: string; amount: number | string }>(
    await tx.execute(sql`
      WITH v AS (
        SELECT * FROM unnest(${col((e) => e.idempotencyKey)}::text[], ${col((e) => e.status)}::text[],
          ${col((e) => e.message ?? null)}::text[], ${col((e) => e.providerId ?? null)}::text[])
          AS v(key, status, message, provider_id)
      ), locked AS (
        SELECT p.id FROM payouts p JOIN v ON v.key = p.idempotency_key
        WHERE p.status = 'Processing' ORDER BY p.id FOR UPDATE OF p
      )
      UPDATE payouts p SET
        status = v.status,
        failure_message = CASE WHEN v.status = 'Failed' THEN coalesce(v.message, 'Brand does not match') END,
        settled_at = now(), updated_at = now(),
        provider_id = coalesce(p.provider_id, v.provider_id)
      FROM v
      WHERE p.idempotency_key = v.key AND p.status = 'Processing' AND p.id IN (SELECT id FROM locked)
      RETURNING p.id, p.idempotency_key AS key, p.status, p.amount`),
  );
  if (!moved.length) return new Set();
  const completed = moved.filter((r) => r.status === 'Completed');
  const failedIds = moved.filter((r) => r.status === 'Failed').map((r) => Number(r.id));
  const failed = failedIds.length
    ? await tx.select().from(payouts).where(inArray(payouts.id, failedIds)).orderBy(payouts.id)
    : [];
  const clearing = await platformAccountId(tx, 'payout_clearing');
  const provider = await platformAccountId(tx, 'provider');
  // Several entries in one transaction: every account they move is locked first, in id order (each entry
  // alone moves its accounts in that order, but one after another they would not, and could deadlock with a
  // payout's reserve taking the same accounts)
  const touched = new Set<number>([clearing]);
  if (completed.length) touched.add(provider);
  if (failed.length) touched.add(await platformAccountId(tx, 'fee'));
  for (const row of failed) touched.add(row.accountId);
  await lockAccounts(tx, [...touched]);
  if (completed.length) {
    await postEntries(
      tx,
      completed.map((r) => ({
        idempotencyKey: `payout:${r.id}:complete`,
        kind: 'payout.complete',
        businessType: 'payout',
        businessId: Number(r.id),
        postings: [
          { accountId: clearing, amount: -Number(r.amount) },
          { accountId: provider, amount: Number(r.amount) },
        ],
      })),
    );
  }
  for (const row of failed) {
    if (row.payoutType === 'batch') await returnBatchPayout(tx, row);
    else {
      // a manual payout was reserved on its own: the exact opposite of that entry returns amount and fee
      const reserve = await entryIdByKey(tx, `payout:${row.id}:reserve`);
      if (reserve === undefined) throw new Error(`payout ${row.id} has no reserve entry`);
      await reverseEntry(tx, reserve, { kind: 'payout.reversal', memo: row.failureMessage ?? undefined });
    }
  }
  return new Set(moved.map((r) => r.key));
}

/**
 * Returns a failed payout of an executed batch: its amount from payouts in flight, and its share of the batch
 * fee (batches' returnFromBatch says how much, the batch row locked) from the Fee Account, to the account it
 * was paid from, in the caller's transaction.
 */
export async function returnBatchPayout(tx: Tx, row: PayoutRow) {
  if (!row.batchId) throw new Error(`payout ${row.id} belongs to no batch`);
  const share = await returnFromBatch(tx, row.batchId, row.amount);
  const clearing = await platformAccountId(tx, 'payout_clearing');
  const lines = [
    { accountId: clearing, amount: -row.amount },
    { accountId: row.accountId, amount: row.amount + share },
  ];
  if (share > 0) lines.push({ accountId: await platformAccountId(tx, 'fee'), amount: -share });
  await postEntry(tx, {
    idempotencyKey: `payout:${row.id}:refund`,
    kind: 'payout.reversal',
    memo: row.failureMessage ?? undefined,
    businessType: 'payout',
    businessId: row.id,
    postings: lines,
  });
  return { amount: row.amount, fee: share };
}
