import { and, eq, getTableColumns, gt, isNull, lt, sql } from 'drizzle-orm';
import type { PgColumn, PgTable } from 'drizzle-orm/pg-core';
import type { Deps } from '../../platform/deps.ts';
import { anyOf, type Executor, type Tx } from '../../platform/db.ts';
import type { Config } from '../../platform/config.ts';
import { ProviderRejected, type ProviderClient } from '../../platform/provider.ts';
import type { ProviderBatchResult, ProviderItem } from '../../platform/provider-answers.ts';
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
  recoverAfterMs: number | ((config: Config) => number);
  /** sends it to the provider under its idempotency key; answers the provider's id (ProviderRejected: refused) */
  send(deps: Deps, row: R): Promise<string>;
  /** sends many in one call, each under its own key (a batch's payouts); each accepted or rejected */
  sendMany?(deps: Deps, rows: R[]): Promise<ProviderBatchResult[]>;
  /** the provider's item under the key, or null if the provider never received it */
  lookup(provider: ProviderClient, key: string): Promise<ProviderItem | null>;
  /** the provider's items under many keys in one call (those it never received are absent) */
  lookupMany?(provider: ProviderClient, keys: string[]): Promise<ProviderItem[]>;
  /**
   * The ledger of its settlements, in their transaction, in place of one completion entry or reserve reversal
   * each (payouts: the completions written together, a batch payout's fee share returned)
   */
  postSettled?(tx: Tx, settled: { row: R; state: Settled }[]): Promise<void>;
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

/** A column of the declaration's table by its property name (for the set-based statements below). */
const columnOf = <R extends MovementRow>(m: Movement<R>, field: string) => {
  const c = getTableColumns(m.table)[field];
  if (!c) throw new Error(`${m.kind}: ${field} is not a column of its table`);
  return c;
};

/** Sends one still in flight and not yet sent to the provider under its own key. Safe to run again. */
export async function submitMovement<R extends MovementRow>(deps: Deps, m: Movement<R>, id: number): Promise<void> {
  await submitMovements(deps, m, [id]);
}

/**
 * Sends these (those still in flight and unsent) to the provider, each under its own key: in one call when the kind
 * sends many at once (`sendMany`), else one by one. The accepted ones get their provider id (one UPDATE, rows
 * locked in id order as settlement locks them, so the two never wait on each other in a cycle); the rejected ones
 * are settled failed with the provider's message. An unavailable provider throws: the job or the recovery sends
 * them again under the same keys, so each is paid at most once.
 */
export async function submitMovements<R extends MovementRow>(deps: Deps, m: Movement<R>, ids: number[]): Promise<void> {
  if (!ids.length) return;
  const rows = (await deps.db
    .select()
    .from(m.table)
    .where(
      and(anyOf(m.columns.id, ids, 'bigint'), eq(m.columns.status, m.words.inFlight), isNull(m.columns.providerId)),
    )
    .orderBy(m.columns.id)) as R[];
  const unsent = rows.filter((r) => r.idempotencyKey);
  if (!unsent.length) return;
  if (unsent.length === 1 || !m.sendMany) {
    for (const row of unsent) {
      const key = row.idempotencyKey!;
      try {
        const providerId = await m.send(deps, row);
        await deps.db
          .update(m.table)
          .set({ ...m.sentColumns?.(), providerId } as never)
          .where(and(eq(m.columns.id, row.id), eq(m.columns.idempotencyKey, key), isNull(m.columns.providerId)));
      } catch (err) {
        if (!(err instanceof ProviderRejected)) throw err;
        await settleMovement(deps, m, { idempotencyKey: key, status: 'Failed', message: err.messages[0] });
      }
    }
    return;
  }
  const results = await m.sendMany(deps, unsent);
  const accepted = results.flatMap((r) => (r.outcome === 'accepted' ? [r] : []));
  if (accepted.length) {
    const t = m.table;
    const key = m.columns.idempotencyKey;
    const sent = Object.keys(m.sentColumns?.() ?? {}).map((f) => sql`, ${sql.identifier(columnOf(m, f).name)} = now()`);
    await deps.db.execute(sql`
      WITH v AS (
        SELECT * FROM unnest(${sql.param(accepted.map((r) => r.idempotency_key))}::text[],
          ${sql.param(accepted.map((r) => r.id))}::text[]) AS v(key, provider_id)
      ), locked AS (
        SELECT ${m.columns.id} AS id FROM ${t} JOIN v ON v.key = ${key}
        WHERE ${m.columns.providerId} IS NULL ORDER BY ${m.columns.id} FOR UPDATE OF ${t}
      )
      UPDATE ${t} SET ${sql.identifier(m.columns.providerId.name)} = v.provider_id${sql.join(sent)}
      FROM v WHERE ${key} = v.key AND ${m.columns.providerId} IS NULL AND ${m.columns.id} IN (SELECT id FROM locked)`);
  }
  const rejected = results.flatMap((r) => (r.outcome === 'rejected' ? [r] : []));
  if (rejected.length)
    await deps.db.transaction((tx) =>
      settleMovements(
        tx,
        m,
        rejected.map((r) => ({ idempotencyKey: r.idempotency_key, status: 'Failed' as const, message: r.messages[0] })),
      ),
    );
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
  const run = async (t: Tx) => ((await settleMovements(t, m, [ev])).has(ev.idempotencyKey) ? 'applied' : 'ignored');
  return tx ? run(tx) : deps.db.transaction(run);
}

/**
 * Settles many in the caller's transaction, each exactly once, and answers the keys it applied. Those still in
 * flight are locked in id order (two settlers of overlapping sets never deadlock; one another settled first is
 * left alone), and move by conditional UPDATEs (one per outcome and reason, the provider's id taken from the
 * word when the row lacks one); then the ledger: a completion entry each (clearing -> provider,
 * `<kind>:<id>:complete`) or the reversal of its reserve, or the kind's own `postSettled`, and what else moves with
 * it (`alsoOnSettle`). A key twice counts once (the first).
 */
export async function settleMovements<R extends MovementRow>(
  tx: Tx,
  m: Movement<R>,
  evs: MovementSettlement[],
): Promise<Set<string>> {
  const byKey = new Map<string, MovementSettlement>();
  for (const e of evs) if (!byKey.has(e.idempotencyKey)) byKey.set(e.idempotencyKey, e);
  if (!byKey.size) return new Set();
  const locked = await tx
    .select({ key: m.columns.idempotencyKey })
    .from(m.table)
    .where(and(anyOf(m.columns.idempotencyKey, [...byKey.keys()], 'text'), eq(m.columns.status, m.words.inFlight)))
    .orderBy(m.columns.id)
    .for('update');
  const pending = locked.map((l) => byKey.get(l.key as string)!);
  if (!pending.length) return new Set();
  // one UPDATE per outcome and reason (a few: completed, and the provider's reasons of failure)
  const groups = new Map<string, { state: Settled; reason: string; evs: MovementSettlement[] }>();
  for (const e of pending) {
    const state: Settled = e.status === 'Completed' ? 'completed' : 'failed';
    const reason = state === 'failed' ? (e.message ?? m.defaultReason) : '';
    const g = groups.get(`${state}\n${reason}`) ?? { state, reason, evs: [] };
    g.evs.push(e);
    groups.set(`${state}\n${reason}`, g);
  }
  const settled: { row: R; state: Settled; reason: string }[] = [];
  for (const g of groups.values()) {
    // the words' keys and the provider's ids, joined in the statement: each row is written once
    const v = sql`unnest(${sql.param(g.evs.map((e) => e.idempotencyKey))}::text[],
      ${sql.param(g.evs.map((e) => e.providerId ?? null))}::text[]) AS v(key, provider_id)`;
    const rows = (await tx
      .update(m.table)
      .set({
        ...m.settledColumns(g.state, g.reason),
        [statusField(m)]: m.words[g.state],
        providerId: sql`COALESCE(${m.columns.providerId}, v.provider_id)`,
      } as never)
      .from(v)
      .where(and(sql`${m.columns.idempotencyKey} = v.key`, eq(m.columns.status, m.words.inFlight)))
      .returning()) as R[];
    for (const row of rows) settled.push({ row, state: g.state, reason: g.reason });
  }
  settled.sort((a, b) => a.row.id - b.row.id);
  if (m.postSettled) await m.postSettled(tx, settled);
  else for (const s of settled) await postOne(tx, m, s.row, s.state, s.reason);
  for (const s of settled) await m.alsoOnSettle?.(tx, s.row, s.state);
  return new Set(settled.map((s) => s.row.idempotencyKey!));
}

/** One settlement's entry: the completion (clearing -> provider) or the exact opposite of its reserve. */
async function postOne<R extends MovementRow>(tx: Tx, m: Movement<R>, row: R, state: Settled, reason: string) {
  const businessType = m.ledger?.businessType ?? m.kind;
  const entryKind = m.ledger?.entryKind ?? m.kind;
  const keyOf = (step: 'reserve' | 'complete') => m.ledger?.key?.(row, step) ?? `${m.kind}:${row.id}:${step}`;
  if (state === 'completed') {
    await postEntry(tx, {
      idempotencyKey: keyOf('complete'),
      kind: `${entryKind}.complete`,
      businessType,
      businessId: row.id,
      postings: [
        { accountId: await platformAccountId(tx, m.clearing), amount: -row.amount },
        { accountId: await platformAccountId(tx, 'provider'), amount: row.amount },
      ],
    });
    return;
  }
  const reserve = await entryIdByKey(tx, keyOf('reserve'));
  if (reserve === undefined) throw new Error(`${m.kind} ${row.id} has no reserve entry`);
  await reverseEntry(tx, reserve, { kind: `${entryKind}.reversal`, memo: reason });
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

/** How often each process runs the recover path (and once at start). */
export const RECOVER_EVERY_MS = 15_000;

/** What one recovery pass did. */
export interface RecoveryResult {
  /** in flight longer than the threshold, asked of the provider */
  asked: number;
  /** settled from the provider's answer (Completed or Failed there) */
  settled: number;
  /** never received by the provider: sent again with the same idempotency key */
  resent: number;
  /** taken by the provider, whose id we had not recorded yet */
  accepted: number;
  /** known to us as sent, unknown to the provider: left for reconciliation to report */
  unknown: number;
}

/** The keys among these of ones still in flight (the provider's word settles them). */
export async function inFlightKeys<R extends MovementRow>(db: Executor, m: Movement<R>, keys: string[]) {
  if (!keys.length) return new Set<string>();
  const rows = (await db
    .select({ key: m.columns.idempotencyKey })
    .from(m.table)
    .where(and(anyOf(m.columns.idempotencyKey, keys, 'text'), eq(m.columns.status, m.words.inFlight)))) as {
    key: string;
  }[];
  return new Set(rows.map((r) => r.key));
}

/**
 * The one recover path, for every kind: those a dead process, a lost answer or a lost webhook left in flight for
 * `olderThanMs` are looked up at the provider under their keys (a page at a time, in one call where the kind looks
 * up many); the ones it settled are settled from its answer, exactly once (a webhook racing this changes
 * nothing); one it never received is sent again under the same key, so it is paid at most once; one it took
 * whose id we lack gets it.
 */
export async function recoverMovements<R extends MovementRow>(
  deps: Deps,
  m: Movement<R>,
  olderThanMs = typeof m.recoverAfterMs === 'function' ? m.recoverAfterMs(deps.config) : m.recoverAfterMs,
  limit = 20_000,
): Promise<RecoveryResult> {
  const r: RecoveryResult = { asked: 0, settled: 0, resent: 0, accepted: 0, unknown: 0 };
  let afterId = 0;
  while (r.asked < limit) {
    const stale = (await deps.db
      .select()
      .from(m.table)
      .where(
        and(
          eq(m.columns.status, m.words.inFlight),
          gt(m.columns.id, afterId),
          lt(m.columns.since, sql`now() - make_interval(secs => ${olderThanMs / 1000})`),
        ),
      )
      .orderBy(m.columns.id)
      .limit(1000)) as R[];
    if (!stale.length) break;
    afterId = stale[stale.length - 1].id;
    const asked = stale.filter((row) => row.idempotencyKey);
    r.asked += asked.length;
    const keys = asked.map((row) => row.idempotencyKey!);
    const items = m.lookupMany
      ? await m.lookupMany(deps.provider, keys)
      : (await Promise.all(keys.map((k) => m.lookup(deps.provider, k)))).flatMap((i) => (i ? [i] : []));
    const found = new Map(items.map((i) => [i.idempotency_key, i]));
    const settle: MovementSettlement[] = [];
    const resend: number[] = [];
    for (const row of asked) {
      const item = found.get(row.idempotencyKey!);
      if (!item) {
        if (row.providerId) r.unknown += 1;
        else resend.push(row.id);
      } else if (item.status === 'Completed' || item.status === 'Failed') {
        if (item.amount !== row.amount) {
          deps.log.error(
            { [m.kind]: row.id, ours: row.amount, theirs: item.amount },
            `${m.kind} amount differs at provider`,
          );
          continue;
        }
        settle.push({
          idempotencyKey: row.idempotencyKey!,
          providerId: item.id,
          status: item.status,
          message: item.message,
        });
      } else if (!row.providerId) {
        await deps.db
          .update(m.table)
          .set({ ...m.sentColumns?.(), providerId: item.id } as never)
          .where(and(eq(m.columns.id, row.id), isNull(m.columns.providerId)));
        r.accepted += 1;
      }
    }
    if (settle.length) r.settled += (await deps.db.transaction((tx) => settleMovements(tx, m, settle))).size;
    if (resend.length) {
      await submitMovements(deps, m, resend);
      r.resent += resend.length;
    }
  }
  if (r.settled || r.resent || r.unknown)
    deps.log[r.unknown ? 'warn' : 'info']({ kind: m.kind, ...r }, `recovered ${m.kind}s in flight`);
  return r;
}
