import { and, eq, inArray, lt, sql } from 'drizzle-orm';
import type { Deps } from '../../platform/deps.ts';
import { tidyDemoShop } from './demo-shop.ts';
import { webhookAttempts, webhookDeliveries } from './tables.ts';

/** A delivery log is kept this long after its delivery ended. */
export const KEEP_DAYS = 30;
/** A pending delivery this late for its try has lost its job (its retries ran out on a database failure). */
const LOST_AFTER_MINUTES = 10;

/**
 * The hourly housekeeping of webhooks (maintenance.prune): deliveries that ended (succeeded or gave up) more than
 * 30 days ago go with their attempts; a pending delivery whose try is 10 minutes overdue gets its job again (a
 * worker's claim keeps it from being sent twice); the demo shop's events a day old go. Answers what it did.
 */
export async function tidyWebhooks(deps: Deps): Promise<{ pruned: number; requeued: number; demoShop: number }> {
  const old = await deps.db
    .select({ id: webhookDeliveries.id })
    .from(webhookDeliveries)
    .where(
      and(
        inArray(webhookDeliveries.status, ['Succeeded', 'Failed']),
        lt(webhookDeliveries.nextAttemptAt, sql`now() - make_interval(days => ${KEEP_DAYS})`),
      ),
    )
    .limit(10_000);
  if (old.length)
    await deps.db.transaction(async (tx) => {
      const ids = old.map((d) => d.id);
      await tx.delete(webhookAttempts).where(inArray(webhookAttempts.deliveryId, ids));
      await tx.delete(webhookDeliveries).where(inArray(webhookDeliveries.id, ids));
    });
  const lost = await deps.db
    .select({ id: webhookDeliveries.id })
    .from(webhookDeliveries)
    .where(
      and(
        eq(webhookDeliveries.status, 'Pending'),
        lt(webhookDeliveries.nextAttemptAt, sql`now() - make_interval(mins => ${LOST_AFTER_MINUTES})`),
        sql`(${webhookDeliveries.claimedUntil} IS NULL OR ${webhookDeliveries.claimedUntil} < now())`,
      ),
    )
    .limit(1000);
  for (const d of lost) await deps.jobs.send('webhook.deliver', { deliveryId: d.id });
  return { pruned: old.length, requeued: lost.length, demoShop: await tidyDemoShop(deps) };
}
