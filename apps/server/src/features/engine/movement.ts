import { and, eq, getTableColumns, gt, isNull, lt, sql } from 'drizzle-orm';
import type { PgColumn, PgTable } from 'drizzle-orm/pg-core';
import type { Deps } from '../../platform/deps.ts';
import { anyOf, type Executor, type Tx } from '../../platform/db.ts';
import type { Config } from '../../platform/config.ts';
import { ProviderRejected, type ProviderClient } from '../../platform/provider.ts';
import type { ProviderBatchResult, ProviderItem } from '../../platform/provider-answers.ts';
import type { ProviderEvent } from '@obol/contract';
import { platformAccountId, type PlatformKind } from '../ledger/accounts.ts';
import { entryIdByKey, postEntry, reverseEntry } from '../ledger/service.ts';

/**
 * Where a movement is, in the engine's own words; each kind maps them to its table's (its spec screen's) words,
 * so the lists and their answers keep those.
 */
export type MovementState = 'inFlight' | 'completed' | 'failed';
export type Settled = Exclude<MovementState, 'inFlight'>;

/** The columns every movement's row has (its status and key columns are named by the declaration). */
export interface MovementRow {
  id: number;
  amount: number;
  providerId: string | null;
}

/**
 * A movement of money through the provider, declared once as data (issue 47): its table and status words, the way
 * its money goes (out through a clearing account, or in to the holder's account), the provider call that submits
 * it and the look-up that settles it. The engine's submit, settle and recover below serve every kind declared so;
 * the reserve of money going out is written by the command that creates it (`<kind>:<id>:reserve`, source ->
 * clearing), as only the command knows the source.
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
  /**
   * its status column; `key`, the key the provider's word names it by (its idempotency key, unique; a pay-in: the
   * provider's link id), null while nothing was sent (a reward not yet paid); `since`: the time the recovery counts
   * its age from
   */
  columns: { id: PgColumn; status: PgColumn; key: PgColumn; providerId: PgColumn; since: PgColumn };
  /** the table's word for each state */
  words: Record<MovementState, string>;
  /**
   * Money out: the platform account holding it while in flight (the completion moves it clearing -> provider, a
   * failure reverses the reserve). Money in (`inbound`): nothing is reserved; the completion credits the row's
   * account from the provider, a failure moves nothing.
   */
  clearing?: PlatformKind;
  inbound?: { account(row: R): number; memo?(row: R): string };
  /**
   * The provider's webhook event types that speak of it; where kinds share a type (a transfer and a 2D transfer
   * are both provider transfers), `ownsKey` tells its keys apart, and the kinds with one are asked first.
   */
  events: readonly string[];
  ownsKey?(key: string): boolean;
  /** the key an event names it by, where not the event's idempotency key (a pay-in's: the link id) */
  eventKey?(data: ProviderEvent['data']): string | undefined;
  /** how old one still in flight must be before the recovery asks the provider about it */
  recoverAfterMs: number | ((config: Config) => number);
  /**
   * sends it to the provider under its idempotency key; answers the provider's id (ProviderRejected: refused).
   * Absent: the command that creates it makes it at the provider (a pay-in's link), so it is never sent here.
   */
  send?(deps: Deps, row: R): Promise<string>;
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
  /**
   * The kind's own word for a settled item where it has several for one state (a pay-in Expired rather than
   * Declined); the status column takes it instead of `words[state]`.
   */
  wordOf?(item: ProviderItem): string | undefined;
  /**
   * the columns its settlement sets besides the status and the provider id (the reason of a failure, times), `word`
   * the kind's own word when `wordOf` gave one
   */
  settledColumns(state: Settled, reason: string, word?: string): Record<string, unknown>;
  /** the reason written when the provider gives none */
  defaultReason: string;
  /** more columns its sending sets besides the provider id */
  sentColumns?(): Record<string, unknown>;
  /** what else moves in the settlement's transaction (a refund's pay-in refund status) */
  alsoOnSettle?(tx: Tx, row: R, state: Settled): Promise<void>;
}

/** A provider's word about a movement, from its webhook (verified by asking) or from the recovery's look-up. */
export interface MovementSettlement {
  /** the key its declaration names it by (`columns.key`) */
  key: string;
  providerId?: string;
  status: 'Completed' | 'Failed';
  message?: string;
  /** the kind's own word for the outcome (`wordOf`) */
  word?: string;
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
    word: m.wordOf?.(item),
    amount: item.amount,
  };
}

/** The property of the table's row that holds its status column. */
const statusField = <R extends MovementRow>(m: Movement<R>): string => {
  const hit = Object.entries(getTableColumns(m.table)).find(([, c]) => c === m.columns.status);
  if (!hit) throw new Error(`${m.kind}: its status column is not a column of its table`);
  return hit[0];
};

/** The key the provider's word names a row by (its declared key column's value). */
const keyOf = <R extends MovementRow>(m: Movement<R>, row: R): string | null => {
  const hit = Object.entries(getTableColumns(m.table)).find(([, c]) => c === m.columns.key);
  if (!hit) throw new Error(`${m.kind}: its key column is not a column of its table`);
  return (row as unknown as Record<string, string | null>)[hit[0]];
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
  const send = m.send;
  if (!send) throw new Error(`${m.kind}: made at the provider by the command that creates it; nothing to send`);
  const rows = (await deps.db
    .select()
    .from(m.table)
    .where(
      and(anyOf(m.columns.id, ids, 'bigint'), eq(m.columns.status, m.words.inFlight), isNull(m.columns.providerId)),
    )
    .orderBy(m.columns.id)) as R[];
  const unsent = rows.filter((r) => keyOf(m, r));
  if (!unsent.length) return;
  if (unsent.length === 1 || !m.sendMany) {
    for (const row of unsent) {
      const key = keyOf(m, row)!;
      try {
        const providerId = await send(deps, row);
        await deps.db
          .update(m.table)
          .set({ ...m.sentColumns?.(), providerId } as never)
          .where(and(eq(m.columns.id, row.id), eq(m.columns.key, key), isNull(m.columns.providerId)));
      } catch (err) {
        if (!(err instanceof ProviderRejected)) throw err;
        await settleMovement(deps, m, { key, status: 'Failed', message: err.messages[0] });
      }
    }
    return;
  }
  const results = await m.sendMany(deps, unsent);
  const accepted = results.flatMap((r) => (r.outcome === 'accepted' ? [r] : []));
  if (accepted.length) {
    const t = m.table;
    const key = m.columns.key;
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
        rejected.map((r) => ({ key: r.idempotency_key, status: 'Failed' as const, message: r.messages[0] })),
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
    .where(and(anyOf(m.columns.key, [...byKey.keys()], 'text'), eq(m.columns.status, m.words.inFlight)))
    .orderBy(m.columns.id)
    .for('update');
  const pending = locked.map((l) => byKey.get(l.key as string)!);
  if (!pending.length) return new Set();
  // one UPDATE per outcome, word and reason (a few: completed, and the provider's reasons of failure)
  const groups = new Map<string, { state: Settled; reason: string; word?: string; evs: MovementSettlement[] }>();
  for (const e of pending) {
    const state: Settled = e.status === 'Completed' ? 'completed' : 'failed';
    const reason = state === 'failed' ? (e.message ?? m.defaultReason) : '';
    const id = `${state}\n${e.word ?? ''}\n${reason}`;
    const g = groups.get(id) ?? { state, reason, word: e.word, evs: [] };
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
        ...m.settledColumns(g.state, g.reason, g.word),
        [statusField(m)]: g.word ?? m.words[g.state],
        providerId: sql`COALESCE(${m.columns.providerId}, v.provider_id)`,
      } as never)
      .from(v)
      .where(
        and(
          sql`${m.columns.key} = v.key`,
          sql`(v.amount IS NULL OR ${amount} = v.amount)`,
          eq(m.columns.status, m.words.inFlight),
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
    .select({ key: m.columns.key })
    .from(m.table)
    .where(and(anyOf(m.columns.key, keys, 'text'), eq(m.columns.status, m.words.inFlight)))) as {
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
    const asked = stale.filter((row) => keyOf(m, row));
    r.asked += asked.length;
    const keys = asked.map((row) => keyOf(m, row)!);
    const items = m.lookupMany
      ? await m.lookupMany(deps.provider, keys)
      : (await Promise.all(keys.map((k) => m.lookup(deps.provider, k)))).flatMap((i) => (i ? [i] : []));
    const found = new Map(items.map((i) => [i.idempotency_key, i]));
    const settle: MovementSettlement[] = [];
    const resend: number[] = [];
    for (const row of asked) {
      const item = found.get(keyOf(m, row)!);
      const word = item && settlementOf(m, item);
      if (!item) {
        if (row.providerId) r.unknown += 1;
        else resend.push(row.id);
      } else if (word) {
        if (item.amount !== row.amount) {
          deps.log.error(
            { [m.kind]: row.id, ours: row.amount, theirs: item.amount },
            `${m.kind} amount differs at provider`,
          );
          continue;
        }
        settle.push(word);
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
