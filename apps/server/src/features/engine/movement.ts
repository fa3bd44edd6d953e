import { and, eq, getTableColumns, isNull, lt, sql } from 'drizzle-orm';
import type { PgColumn, PgTable } from 'drizzle-orm/pg-core';
import type { Deps } from '../../platform/deps.ts';
import type { Executor, Tx } from '../../platform/db.ts';
import { ProviderRejected, type ProviderClient } from '../../platform/provider.ts';
import type { ProviderItem } from '../../platform/provider-answers.ts';
import { platformAccountId, type PlatformKind } from '../ledger/accounts.ts';
import { entryIdByKey, postEntry, reverseEntry } from '../ledger/service.ts';

/**
 * Where a movement is, in the engine's own words; each kind maps them to its table's (its spec screen's) words,
 * so the lists and their answers keep those.
 */
export type MovementState = 'inFlight' | 'completed' | 'failed';
export type Settled = Exclude<MovementState, 'inFlight'>;

/** The columns every movement's row has (its status column is named by the declaration). */
export interface MovementRow {
  id: number;
  amount: number;
  /** null: nothing sent yet (a reward not yet paid) */
  idempotencyKey: string | null;
  providerId: string | null;
}

/**
 * A movement of money through the provider, declared once as data (issue 47): its table and status words, its
 * clearing account, the provider call that submits it and the look-up that settles it. The engine's submit, settle
 * and recover below serve every kind declared so; its reserve is written by the command that creates it
 * (`<kind>:<id>:reserve`, source -> clearing), as only the command knows the source.
 */
export interface Movement<R extends MovementRow> {
  /** the ledger's business type, its entries' kinds (`<kind>.complete`, `<kind>.reversal`) and keys' prefix */
  kind: string;
  /**
   * Where its ledger names differ from `kind`: the business type, the entries' kind and their keys (by default
   * `<kind>:<id>:reserve` and `<kind>:<id>:complete`)
   */
  ledger?: { businessType?: string; entryKind?: string; key?(row: R, step: 'reserve' | 'complete'): string };
  table: PgTable;
  /** its status column, and `since`: the time the recovery counts its age from */
  columns: { id: PgColumn; status: PgColumn; idempotencyKey: PgColumn; providerId: PgColumn; since: PgColumn };
  /** the table's word for each state */
  words: Record<MovementState, string>;
  /** the platform account holding its money while in flight */
  clearing: PlatformKind;
  /**
   * The provider's webhook event types that speak of it; where kinds share a type (a transfer and a 2D transfer
   * are both provider transfers), `ownsKey` tells its keys apart, and the kinds with one are asked first.
   */
  events: readonly string[];
  ownsKey?(key: string): boolean;
  /** how old one still in flight must be before the recovery asks the provider about it */
  recoverAfterMs: number;
  /** sends it to the provider under its idempotency key; answers the provider's id (ProviderRejected: refused) */
  send(deps: Deps, row: R): Promise<string>;
  /** the provider's item under the key, or null if the provider never received it */
  lookup(provider: ProviderClient, key: string): Promise<ProviderItem | null>;
  /** the columns its settlement sets besides the status and the provider id (the reason of a failure, times) */
  settledColumns(state: Settled, reason: string): Record<string, unknown>;
  /** the reason written when the provider gives none */
  defaultReason: string;
  /** more columns its sending sets besides the provider id */
  sentColumns?(): Record<string, unknown>;
  /** what else moves in the settlement's transaction (a refund's pay-in refund status) */
  alsoOnSettle?(tx: Tx, row: R, state: Settled): Promise<void>;
}

/** A provider's word about a movement, from its webhook (verified by asking) or from the recovery's look-up. */
export interface MovementSettlement {
  idempotencyKey: string;
  providerId?: string;
  status: 'Completed' | 'Failed';
  message?: string;
}

/** The property of the table's row that holds its status column. */
const statusField = <R extends MovementRow>(m: Movement<R>): string => {
  const hit = Object.entries(getTableColumns(m.table)).find(([, c]) => c === m.columns.status);
  if (!hit) throw new Error(`${m.kind}: its status column is not a column of its table`);
  return hit[0];
};
const statusOf = <R extends MovementRow>(m: Movement<R>, row: R) =>
  (row as unknown as Record<string, unknown>)[statusField(m)];

/** Sends one still in flight and not yet sent to the provider under its own key. Safe to run again. */
export async function submitMovement<R extends MovementRow>(deps: Deps, m: Movement<R>, id: number): Promise<void> {
  const [row] = (await deps.db.select().from(m.table).where(eq(m.columns.id, id))) as R[];
  const key = row?.idempotencyKey;
  if (!row || !key || statusOf(m, row) !== m.words.inFlight || row.providerId) return;
  try {
    const providerId = await m.send(deps, row);
    await deps.db
      .update(m.table)
      .set({ ...m.sentColumns?.(), providerId } as never)
      .where(and(eq(m.columns.id, row.id), eq(m.columns.idempotencyKey, key), isNull(m.columns.providerId)));
  } catch (err) {
    if (err instanceof ProviderRejected) {
      await settleMovement(deps, m, { idempotencyKey: key, status: 'Failed', message: err.messages[0] });
      return;
    }
    throw err; // unavailable: the job or the recovery sends it again under the same key
  }
}

/**
 * Settles one exactly once: a conditional UPDATE moves only a row still in flight, and in its transaction the
 * completion entry (clearing -> provider, `<kind>:<id>:complete`) or the reversal of its reserve. A late or
 * repeated word finds nothing to move ('ignored').
 */
export async function settleMovement<R extends MovementRow>(
  deps: Pick<Deps, 'db'>,
  m: Movement<R>,
  ev: MovementSettlement,
  tx?: Tx,
): Promise<'applied' | 'ignored'> {
  const state: Settled = ev.status === 'Completed' ? 'completed' : 'failed';
  const reason = ev.message ?? m.defaultReason;
  const businessType = m.ledger?.businessType ?? m.kind;
  const entryKind = m.ledger?.entryKind ?? m.kind;
  const keyOf = (row: R, step: 'reserve' | 'complete') => m.ledger?.key?.(row, step) ?? `${m.kind}:${row.id}:${step}`;
  const run = async (t: Tx) => {
    const [row] = (await t
      .update(m.table)
      .set({
        ...m.settledColumns(state, reason),
        [statusField(m)]: m.words[state],
        ...(ev.providerId ? { providerId: sql`COALESCE(${m.columns.providerId}, ${ev.providerId})` } : {}),
      } as never)
      .where(and(eq(m.columns.idempotencyKey, ev.idempotencyKey), eq(m.columns.status, m.words.inFlight)))
      .returning()) as R[];
    if (!row) return 'ignored' as const;
    if (state === 'completed') {
      await postEntry(t, {
        idempotencyKey: keyOf(row, 'complete'),
        kind: `${entryKind}.complete`,
        businessType,
        businessId: row.id,
        postings: [
          { accountId: await platformAccountId(t, m.clearing), amount: -row.amount },
          { accountId: await platformAccountId(t, 'provider'), amount: row.amount },
        ],
      });
    } else {
      const reserve = await entryIdByKey(t, keyOf(row, 'reserve'));
      if (reserve === undefined) throw new Error(`${m.kind} ${row.id} has no reserve entry`);
      await reverseEntry(t, reserve, { kind: `${entryKind}.reversal`, memo: reason });
    }
    await m.alsoOnSettle?.(t, row, state);
    return 'applied' as const;
  };
  return tx ? run(tx) : deps.db.transaction(run);
}

/** The kind a provider's webhook event speaks of, among `kinds`: one that owns the key before a catch-all. */
export function movementOfEvent<M extends Movement<MovementRow>>(kinds: readonly M[], type: string, key: string) {
  const speaking = kinds.filter((m) => m.events.includes(type));
  return speaking.find((m) => m.ownsKey?.(key)) ?? speaking.find((m) => !m.ownsKey);
}

/** Whether one is still waiting for the provider: a webhook's event is then checked by asking the provider. */
export async function inFlightByKey<R extends MovementRow>(db: Executor, m: Movement<R>, key: string) {
  const [row] = (await db
    .select({ status: m.columns.status })
    .from(m.table)
    .where(eq(m.columns.idempotencyKey, key))) as { status: string }[];
  return row?.status === m.words.inFlight;
}

/**
 * The one recover path: those a dead process, a lost answer or a lost webhook left in flight for `olderThanMs`
 * are looked up at the provider under their keys; one never received is sent again (same key, so paid at most
 * once), one the provider settled is settled from its answer. Answers how many it settled.
 */
export async function recoverMovements<R extends MovementRow>(
  deps: Deps,
  m: Movement<R>,
  olderThanMs = m.recoverAfterMs,
): Promise<number> {
  const stale = (await deps.db
    .select()
    .from(m.table)
    .where(
      and(
        eq(m.columns.status, m.words.inFlight),
        lt(m.columns.since, sql`now() - make_interval(secs => ${olderThanMs / 1000})`),
      ),
    )
    .orderBy(m.columns.since, m.columns.id)
    .limit(200)) as R[];
  let settled = 0;
  for (const row of stale) {
    if (!row.idempotencyKey) continue;
    const item = await m.lookup(deps.provider, row.idempotencyKey);
    if (!item) {
      await submitMovement(deps, m, row.id);
      continue;
    }
    if (item.status !== 'Completed' && item.status !== 'Failed') continue;
    if (item.amount !== row.amount) {
      deps.log.error(
        { [m.kind]: row.id, ours: row.amount, theirs: item.amount },
        `${m.kind} amount differs at provider`,
      );
      continue;
    }
    const r = await settleMovement(deps, m, {
      idempotencyKey: row.idempotencyKey,
      providerId: item.id,
      status: item.status,
      message: item.message,
    });
    if (r === 'applied') settled += 1;
  }
  return settled;
}
