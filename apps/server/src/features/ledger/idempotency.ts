import { and, eq } from 'drizzle-orm';
import type { Db } from '../../platform/db.ts';
import { ApiError, conflict } from '../../platform/errors.ts';
import { hashPayload } from './service.ts';
import { idempotencyKeys } from './tables.ts';

/**
 * Runs a money-moving API command once per (user, idempotency key). A replay of the same payload answers
 * the first result and runs nothing; the same key with another payload answers 409; a replay while the
 * first is still running answers 409 too. A command that fails releases its key, so the user can retry it.
 */
export async function withIdempotency<T extends object>(
  db: Db,
  userId: number,
  key: string,
  command: string,
  payload: unknown,
  run: () => Promise<T>,
): Promise<T> {
  const requestHash = hashPayload({ command, payload });
  const [claimed] = await db
    .insert(idempotencyKeys)
    .values({ userId, key, command, requestHash })
    .onConflictDoNothing()
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
  try {
    const result = await run();
    await db
      .update(idempotencyKeys)
      .set({ statusCode: 200, response: result })
      .where(eq(idempotencyKeys.id, claimed.id));
    return result;
  } catch (err) {
    await db.delete(idempotencyKeys).where(eq(idempotencyKeys.id, claimed.id));
    throw err instanceof Error ? err : new ApiError(500, ['Something went wrong!']);
  }
}
