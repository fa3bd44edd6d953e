import { and, eq, isNull, sql } from 'drizzle-orm';
import type { Db, Tx } from './db.ts';
import { ApiError, conflict } from './errors.ts';
import { hashPayload } from './hash.ts';
import { idempotencyKeys } from './tables.ts';

/**
 * A claim whose command never finished (its process died before the command's transaction committed) may be
 * taken over by a retry of the same request after this long. A command that committed stored its answer in
 * that same transaction, so it is never run twice.
 */
export const STALE_CLAIM_MS = 120_000;

/** Stores the command's answer inside the command's own transaction: committed with its effect, or not at all. */
export type Complete<T> = (tx: Tx, result: T) => Promise<void>;

/**
 * Runs a money-moving API command once per (user, idempotency key). A replay of the same payload answers
 * the first result and runs nothing; the same key with another payload answers 409; a replay while the
 * first is still running answers 409 too. The command calls `complete(tx, result)` in its transaction, so
 * the answer is stored with the money movement. A command that fails releases its key, so the user can
 * retry it; a claim left by a dead process expires after STALE_CLAIM_MS.
 */
export async function withIdempotency<T extends object>(
  db: Db,
  userId: number,
  key: string,
  command: string,
  payload: unknown,
  run: (complete: Complete<T>) => Promise<T>,
): Promise<T> {
  const requestHash = hashPayload({ command, payload });
  const [claimed] = await db
    .insert(idempotencyKeys)
    .values({ userId, key, command, requestHash })
    .onConflictDoUpdate({
      target: [idempotencyKeys.userId, idempotencyKeys.key],
      set: { createdAt: sql`now()` },
      // only a stale, unanswered claim of the very same request is taken over
      setWhere: sql`${idempotencyKeys.response} IS NULL AND ${idempotencyKeys.requestHash} = ${requestHash}
        AND ${idempotencyKeys.createdAt} < now() - make_interval(secs => ${STALE_CLAIM_MS / 1000})`,
    })
    .returning({ id: idempotencyKeys.id });
  if (!claimed) {
    const [prior] = await db
      .select()
      .from(idempotencyKeys)
      .where(and(eq(idempotencyKeys.userId, userId), eq(idempotencyKeys.key, key)));
    if (!prior || prior.requestHash !== requestHash)
      throw conflict('This idempotency key was used for a different request');
    if (prior.response === null) throw conflict('This request is still being processed');
    return prior.response as T;
  }
  const unanswered = and(eq(idempotencyKeys.id, claimed.id), isNull(idempotencyKeys.response));
  let stored = false;
  const complete: Complete<T> = async (tx, result) => {
    await tx.update(idempotencyKeys).set({ statusCode: 200, response: result }).where(unanswered);
    stored = true;
  };
  try {
    const result = await run(complete);
    if (!stored) await db.update(idempotencyKeys).set({ statusCode: 200, response: result }).where(unanswered);
    return result;
  } catch (err) {
    // released unless the command's transaction committed its answer
    await db.delete(idempotencyKeys).where(unanswered);
    throw err instanceof Error ? err : new ApiError(500, ['Something went wrong!']);
  }
}
