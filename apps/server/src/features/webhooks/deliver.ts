import { createHmac } from 'node:crypto';
import http from 'node:http';
import https from 'node:https';
import type { LookupFunction } from 'node:net';
import { and, eq, isNull, lt, sql } from 'drizzle-orm';
import type { Deps } from '../../platform/deps.ts';
import { decryptSecret } from '../../platform/crypto.ts';
import { ApiError } from '../../platform/errors.ts';
import { findUserInScope } from '../users/repo.ts';
import { checkReceiver, type Resolved } from './address.ts';
import { webhookAttempts, webhookDeliveries, webhookEndpoints } from './tables.ts';

/** A receiver has this long to answer. */
export const TIMEOUT_MS = 10_000;
/** Retries start 30 s after the first failure and double, up to 12 h apart, for three days. */
const FIRST_RETRY_MS = 30_000;
const MAX_RETRY_MS = 12 * 3600_000;
export const GIVE_UP_MS = 3 * 24 * 3600_000;
/** what a worker holds a delivery for while it sends it (longer than the timeout) */
const CLAIM_SECONDS = 30;

export const retryDelayMs = (attempt: number) => Math.min(FIRST_RETRY_MS * 2 ** (attempt - 1), MAX_RETRY_MS);

/** `t=<unix seconds>,v1=<hex HMAC-SHA256 of "<t>.<body>">`, one v1 per valid secret (two after a rotation). */
export function signature(secrets: string[], body: string, t: number): string {
  const v1 = secrets.map((s) => `v1=${createHmac('sha256', s).update(`${t}.${body}`).digest('hex')}`);
  return [`t=${t}`, ...v1].join(',');
}

interface Answer {
  status: number;
  body: string;
}

/**
 * POSTs the body to the URL, connecting to the address already checked (the look-up below answers it, so a second
 * DNS answer cannot send the request elsewhere) and giving up after TIMEOUT_MS. Answers the status and the start of
 * the body.
 */
function post(url: URL, to: Resolved, body: string, headers: Record<string, string>): Promise<Answer> {
  const pinned: LookupFunction = (_host, opts, cb) => {
    if ((opts as { all?: boolean }).all) (cb as (e: null, a: Resolved[]) => void)(null, [to]);
    else cb(null, to.address, to.family);
  };
  const client = url.protocol === 'https:' ? https : http;
  return new Promise((resolve, reject) => {
    const req = client.request(
      url,
      {
        method: 'POST',
        lookup: pinned,
        headers: { ...headers, 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) },
        signal: AbortSignal.timeout(TIMEOUT_MS),
      },
      (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => {
          if (text.length < 500) text += chunk;
        });
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body: text.slice(0, 500) }));
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

const describe = (err: unknown) => {
  if (err instanceof ApiError) return err.messages[0];
  const e = err as Error & { code?: string };
  if (e.name === 'TimeoutError' || e.name === 'AbortError') return `No answer in ${TIMEOUT_MS / 1000} s`;
  return e.code ? `${e.code}: ${e.message}` : e.message;
};

/**
 * Tries one delivery (the `webhook.deliver` job). A worker claims it first (one conditional UPDATE), so two never
 * send it at once; one whose earlier event about the same object has not gone out yet waits for it (in order per
 * object). The attempt, the delivery's new state, the endpoint's failing time and the next try (a job to start
 * then) are written in one transaction. An endpoint failing for three days is disabled and its owner mailed.
 */
export async function deliver(deps: Deps, deliveryId: number): Promise<void> {
  const [d] = await deps.db
    .update(webhookDeliveries)
    .set({ claimedUntil: sql`now() + make_interval(secs => ${CLAIM_SECONDS})` })
    .where(
      and(
        eq(webhookDeliveries.id, deliveryId),
        eq(webhookDeliveries.status, 'Pending'),
        sql`(${webhookDeliveries.claimedUntil} IS NULL OR ${webhookDeliveries.claimedUntil} < now())`,
      ),
    )
    .returning();
  if (!d) return;
  const [endpoint] = await deps.db.select().from(webhookEndpoints).where(eq(webhookEndpoints.id, d.endpointId));
  if (!endpoint || endpoint.deletedAt || endpoint.disabledAt) {
    await deps.db
      .update(webhookDeliveries)
      .set({ status: 'Failed', claimedUntil: null })
      .where(eq(webhookDeliveries.id, d.id));
    return;
  }
  const [earlier] = await deps.db
    .select({ at: webhookDeliveries.nextAttemptAt })
    .from(webhookDeliveries)
    .where(
      and(
        eq(webhookDeliveries.endpointId, d.endpointId),
        eq(webhookDeliveries.objectKey, d.objectKey),
        lt(webhookDeliveries.eventId, d.eventId),
        eq(webhookDeliveries.status, 'Pending'),
      ),
    )
    .orderBy(webhookDeliveries.eventId)
    .limit(1);
  if (earlier) {
    const after = new Date(Math.max(earlier.at.getTime(), Date.now()) + 1000);
    await deps.db.transaction(async (tx) => {
      await tx.update(webhookDeliveries).set({ claimedUntil: null }).where(eq(webhookDeliveries.id, d.id));
      await deps.jobs.send('webhook.deliver', { deliveryId: d.id }, { tx, startAfter: after });
    });
    return;
  }

  const secrets = [decryptSecret(deps.config.secretsKey, endpoint.secretEnc)];
  if (endpoint.previousSecretEnc && endpoint.previousSecretExpiresAt && endpoint.previousSecretExpiresAt > new Date())
    secrets.push(decryptSecret(deps.config.secretsKey, endpoint.previousSecretEnc));
  const t = Math.floor(Date.now() / 1000);
  const headers = {
    'user-agent': 'Obol-Webhooks/1',
    'obol-event-id': `evt_${d.eventId}`,
    'obol-event-type': d.event,
    'obol-signature': signature(secrets, d.payload, t),
  };
  const started = Date.now();
  let answer: Answer | undefined;
  let failure = '';
  try {
    const to = await checkReceiver(endpoint.url, deps.config.webhooksAllowPrivate);
    answer = await post(new URL(endpoint.url), to, d.payload, headers);
  } catch (err) {
    failure = describe(err);
  }
  const ok = !!answer && answer.status >= 200 && answer.status < 300;
  const attempt = d.attempts + 1;
  const giveUp = !ok && Date.now() - d.createdAt.getTime() >= GIVE_UP_MS;
  const next = new Date(Date.now() + retryDelayMs(attempt));

  const disabled = await deps.db.transaction(async (tx) => {
    await tx.insert(webhookAttempts).values({
      deliveryId: d.id,
      attempt,
      responseStatus: answer?.status ?? null,
      response: answer ? answer.body : failure,
      durationMs: Date.now() - started,
    });
    await tx
      .update(webhookDeliveries)
      .set({
        status: ok ? 'Succeeded' : giveUp ? 'Failed' : 'Pending',
        attempts: attempt,
        nextAttemptAt: ok || giveUp ? sql`${webhookDeliveries.nextAttemptAt}` : next,
        claimedUntil: null,
      })
      .where(eq(webhookDeliveries.id, d.id));
    if (ok) {
      await tx.update(webhookEndpoints).set({ failingSince: null }).where(eq(webhookEndpoints.id, endpoint.id));
      return undefined;
    }
    if (!giveUp) await deps.jobs.send('webhook.deliver', { deliveryId: d.id }, { tx, startAfter: next });
    await tx
      .update(webhookEndpoints)
      .set({ failingSince: sql`coalesce(${webhookEndpoints.failingSince}, now())` })
      .where(eq(webhookEndpoints.id, endpoint.id));
    const [off] = await tx
      .update(webhookEndpoints)
      .set({ disabledAt: new Date() })
      .where(
        and(
          eq(webhookEndpoints.id, endpoint.id),
          isNull(webhookEndpoints.disabledAt),
          sql`${webhookEndpoints.failingSince} < now() - make_interval(secs => ${GIVE_UP_MS / 1000})`,
        ),
      )
      .returning({ url: webhookEndpoints.url, userId: webhookEndpoints.userId });
    return off;
  });
  if (disabled) {
    const owner = await findUserInScope(deps.db, { kind: 'all' }, disabled.userId);
    deps.log.warn({ endpoint: endpoint.id }, 'webhook endpoint disabled after three days of failures');
    if (owner)
      await deps.mailer.send({
        to: owner.email,
        subject: 'Obol: a webhook endpoint was disabled',
        template: 'webhook-disabled',
        text:
          `Deliveries to ${disabled.url} have failed for three days, so Obol stopped sending to it.\n\n` +
          'Fix the receiver, then open API Keys > Webhooks and resend a delivery: that enables it again.',
      });
  }
}
