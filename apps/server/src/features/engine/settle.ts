import { and, eq, sql } from 'drizzle-orm';
import type { Deps } from '../../platform/deps.ts';
import { anyOf, type Executor, type Tx } from '../../platform/db.ts';
import type { ProviderItem } from '../../platform/provider-answers.ts';
import type { ProviderEvent } from '@obol/contract';
import { platformAccountId } from '../ledger/accounts.ts';
import { entryIdByKey, postEntry, reverseEntry } from '../ledger/service.ts';
import { columnOf, keyOf, statusField, type Movement, type MovementRow, type Settled } from './movement.ts';
import type { Status } from './status.ts';

// The engine's settle path: the provider's word (a webhook's event, verified by asking, or the recovery's look-up)
// as a settlement of a declared kind, and its settlement: the row's status and the ledger, exactly once.

/** A provider's word about a movement, from its webhook (verified by asking) or from the recovery's look-up. */
export interface MovementSettlement {
  /** the key its declaration names it by (`columns.key`) */
  key: string;
  providerId?: string;
  status: 'Completed' | 'Failed';
  message?: string;
  /** the kind's finer status for the outcome (`statusOf`) */
  finer?: Status;
  /** the provider's amount: a word whose amount differs from ours settles nothing */
  amount?: number;
}

/** The provider's item as a settlement of one of `m`, or null while the provider has not settled it. */
export function settlementOf<R extends MovementRow>(m: Movement<R>, item: ProviderItem): MovementSettlement | null {
  if (item.status !== 'Completed' && item.status !== 'Failed') return null;
  return {
    key: item.idempotency_key,
    providerId: item.id,
    status: item.status,
    message: item.message,
    finer: m.statusOf?.(item),
    amount: item.amount,
  };
}

/**
 * The kind a provider's webhook event speaks of, among `kinds`, and the key it names it by (the event's
 * idempotency key, or the kind's own `eventKey`): one that owns the key before a catch-all.
 */
export function movementOfEvent<M extends Movement<MovementRow>>(kinds: readonly M[], ev: ProviderEvent) {
  const speaking = kinds.flatMap((m) => {
    const key = m.events.includes(ev.type) ? (m.eventKey ?? defaultEventKey)(ev.data) : undefined;
    return key ? [{ movement: m, key }] : [];
  });
  return speaking.find((s) => s.movement.ownsKey?.(s.key)) ?? speaking.find((s) => !s.movement.ownsKey);
}

const defaultEventKey = (data: ProviderEvent['data']) => data.idempotency_key;

/** Whether one is still waiting for the provider: a webhook's event is then checked by asking the provider. */
export async function inFlightByKey<R extends MovementRow>(db: Executor, m: Movement<R>, key: string) {
  const [row] = (await db.select({ status: m.columns.status }).from(m.table).where(eq(m.columns.key, key))) as {
    status: string;
  }[];
  return row?.status === 'in_flight';
}

/** The keys among these of ones still in flight (the provider's word settles them). */
export async function inFlightKeys<R extends MovementRow>(db: Executor, m: Movement<R>, keys: string[]) {
  if (!keys.length) return new Set<string>();
  const rows = (await db
    .select({ key: m.columns.key })
    .from(m.table)
    .where(and(anyOf(m.columns.key, keys, 'text'), eq(m.columns.status, 'in_flight')))) as {
    key: string;
  }[];
  return new Set(rows.map((r) => r.key));
}

/**
 * Settles one exactly once (settleMovements with one word): 'ignored' when it is no longer in flight (a late or
 * repeated word).
 */
export async function settleMovement<R extends MovementRow>(
  deps: Pick<Deps, 'db'>,
  m: Movement<R>,
  ev: MovementSettlement,
  tx?: Tx,
): Promise<'applied' | 'ignored'> {
  const run = async (t: Tx) => ((await settleMovements(t, m, [ev])).has(ev.key) ? 'applied' : 'ignored');
  return tx ? run(tx) : deps.db.transaction(run);
}

/**
 * Settles many in the caller's transaction, each exactly once, and answers the keys it applied. Those still in
 * flight are locked in id order (two settlers of overlapping sets never deadlock; one another settled first is
 * left alone), and move by conditional UPDATEs (one per outcome and reason, the provider's id taken from the
 * word when the row lacks one; a word whose amount differs from ours moves nothing); then the ledger: a completion
 * entry each (clearing -> provider, or provider -> the account of money in; `<kind>:<id>:complete`) or the reversal
 * of its reserve, or the kind's own `postSettled`, and what else moves with it (`alsoOnSettle`). A key twice counts
 * once (the first).
 */
export async function settleMovements<R extends MovementRow>(
  tx: Tx,
  m: Movement<R>,
  evs: MovementSettlement[],
): Promise<Set<string>> {
  const byKey = new Map<string, MovementSettlement>();
  for (const e of evs) if (!byKey.has(e.key)) byKey.set(e.key, e);
  if (!byKey.size) return new Set();
  const locked = await tx
    .select({ key: m.columns.key })
    .from(m.table)
    .where(and(anyOf(m.columns.key, [...byKey.keys()], 'text'), eq(m.columns.status, 'in_flight')))
    .orderBy(m.columns.id)
    .for('update');
  const pending = locked.map((l) => byKey.get(l.key as string)!);
  if (!pending.length) return new Set();
  // one UPDATE per outcome, status and reason (a few: completed, and the provider's reasons of failure)
  const groups = new Map<string, { state: Settled; reason: string; finer?: Status; evs: MovementSettlement[] }>();
  for (const e of pending) {
    const state: Settled = e.status === 'Completed' ? 'completed' : 'failed';
    const reason = state === 'failed' ? (e.message ?? m.defaultReason) : '';
    const id = `${state}\n${e.finer ?? ''}\n${reason}`;
    const g = groups.get(id) ?? { state, reason, finer: e.finer, evs: [] };
    g.evs.push(e);
    groups.set(id, g);
  }
  const amount = columnOf(m, 'amount');
  const settled: { row: R; state: Settled; reason: string }[] = [];
  for (const g of groups.values()) {
    // the words' keys, the provider's ids and amounts, joined in the statement: each row is written once
    const v = sql`unnest(${sql.param(g.evs.map((e) => e.key))}::text[],
      ${sql.param(g.evs.map((e) => e.providerId ?? null))}::text[],
      ${sql.param(g.evs.map((e) => e.amount ?? null))}::bigint[]) AS v(key, provider_id, amount)`;
    const rows = (await tx
      .update(m.table)
      .set({
        ...m.settledColumns(g.state, g.reason, g.finer),
        [statusField(m)]: g.finer ?? g.state,
        providerId: sql`COALESCE(${m.columns.providerId}, v.provider_id)`,
      } as never)
      .from(v)
      .where(
        and(
          sql`${m.columns.key} = v.key`,
          sql`(v.amount IS NULL OR ${amount} = v.amount)`,
          eq(m.columns.status, 'in_flight'),
        ),
      )
      .returning()) as R[];
    for (const row of rows) settled.push({ row, state: g.state, reason: g.reason });
  }
  settled.sort((a, b) => a.row.id - b.row.id);
  if (m.postSettled) await m.postSettled(tx, settled);
  else for (const s of settled) await postOne(tx, m, s.row, s.state, s.reason);
  for (const s of settled) await m.alsoOnSettle?.(tx, s.row, s.state);
  return new Set(settled.map((s) => keyOf(m, s.row)!));
}

/**
 * One settlement's entry: the completion (clearing -> provider; money in: provider -> its account) or the exact
 * opposite of its reserve (money in had none: nothing moves).
 */
async function postOne<R extends MovementRow>(tx: Tx, m: Movement<R>, row: R, state: Settled, reason: string) {
  const businessType = m.ledger?.businessType ?? m.kind;
  const entryKind = m.ledger?.entryKind ?? m.kind;
  const entryKey = (step: 'reserve' | 'complete') => m.ledger?.key?.(row, step) ?? `${m.kind}:${row.id}:${step}`;
  if (state === 'completed') {
    const provider = await platformAccountId(tx, 'provider');
    const [from, to] = m.inbound
      ? [provider, m.inbound.account(row)]
      : [await platformAccountId(tx, m.clearing!), provider];
    await postEntry(tx, {
      idempotencyKey: entryKey('complete'),
      kind: `${entryKind}.complete`,
      businessType,
      businessId: row.id,
      memo: m.inbound?.memo?.(row),
      postings: [
        { accountId: from, amount: -row.amount },
        { accountId: to, amount: row.amount },
      ],
    });
    return;
  }
  if (m.inbound) return;
  const reserve = await entryIdByKey(tx, entryKey('reserve'));
  if (reserve === undefined) throw new Error(`${m.kind} ${row.id} has no reserve entry`);
  await reverseEntry(tx, reserve, { kind: `${entryKind}.reversal`, memo: reason });
}
