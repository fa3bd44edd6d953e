import { and, eq, isNull, sql } from 'drizzle-orm';
import type { Deps } from '../../platform/deps.ts';
import { anyOf } from '../../platform/db.ts';
import { ProviderRejected } from '../../platform/provider.ts';
import { columnOf, keyOf, type Movement, type MovementRow } from './movement.ts';
import { settleMovement, settleMovements } from './settle.ts';

// The engine's submit path: a declared movement still in flight and unsent goes to the provider under its own key.

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
    .where(and(anyOf(m.columns.id, ids, 'bigint'), eq(m.columns.status, 'in_flight'), isNull(m.columns.providerId)))
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
