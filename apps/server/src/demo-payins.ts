import { createHmac } from 'node:crypto';
import { payoutExportRequest, WEBHOOK_EVENTS } from '@obol/contract';
import { and, eq, isNull } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import type { Deps } from './platform/deps.ts';
import { decryptSecret } from './platform/crypto.ts';
import { ApiError } from './platform/errors.ts';
import { userIdByEmail } from './seed.ts';
import { apiKeys } from './features/api-keys/tables.ts';
import { authContextOf } from './features/auth/sessions.ts';
import { downloadFiles } from './features/downloads/tables.ts';
import { startExport } from './features/downloads/service.ts';
import { settleMovements, settlementOf } from './features/engine/settle.ts';
import { refundPayin } from './features/payins/refunds.ts';
import { payinItem, payinMovement } from './features/payins/settle.ts';
import { payins } from './features/payins/tables.ts';
import { pullReport } from './features/reports/service.ts';
import { PAYOUTS_EXPORT } from './features/transactions/exports.ts';
import { today } from './platform/dates.ts';
import { createEndpoint } from './features/webhooks/service.ts';
import { webhookEndpoints } from './features/webhooks/tables.ts';

// The pay-in side of the demo: pay-ins made the way a merchant's storefront makes them (the merchant API with the
// seeded key, the payer on the simulator's hosted page), a refund, a webhook endpoint and a finished export.

interface DemoPayin {
  holder: string;
  channel: 'Payin' | 'CardEye';
  amount: number;
  reference: string;
  first_name: string;
  last_name: string;
  date_of_birth: string;
  /** CardEye: who took the payment at the till */
  requested_by?: string;
  /** a reward promised to the payer's Obol wallet */
  reward?: { user_obol_id: string; reward_amount: number };
  /** what the payer does on the hosted page: pays, declines, or nothing yet (the link stays open) */
  outcome: 'pay' | 'decline' | 'open';
  refund?: boolean;
}

const PLAN: DemoPayin[] = [
  {
    holder: 'merchant@obol.example',
    channel: 'Payin',
    amount: 12_000,
    reference: 'ORDER-2026-1041',
    first_name: 'Ana',
    last_name: 'Novak',
    date_of_birth: '1990-04-12',
    outcome: 'pay',
  },
  {
    holder: 'merchant@obol.example',
    channel: 'Payin',
    amount: 4_550,
    reference: 'ORDER-2026-1042',
    first_name: 'Ben',
    last_name: 'Berg',
    date_of_birth: '1986-09-30',
    reward: { user_obol_id: '100000001', reward_amount: 250 },
    outcome: 'pay',
  },
  {
    holder: 'merchant@obol.example',
    channel: 'Payin',
    amount: 8_990,
    reference: 'ORDER-2026-1043',
    first_name: 'Chloe',
    last_name: 'Costa',
    date_of_birth: '1994-01-17',
    outcome: 'decline',
  },
  {
    holder: 'merchant@obol.example',
    channel: 'Payin',
    amount: 3_500,
    reference: 'ORDER-2026-1044',
    first_name: 'David',
    last_name: 'Dubois',
    date_of_birth: '1979-06-05',
    outcome: 'open',
  },
  {
    holder: 'merchant@obol.example',
    channel: 'CardEye',
    amount: 25_000,
    reference: 'TILL-2026-0311',
    first_name: 'Elena',
    last_name: 'Ionescu',
    date_of_birth: '1988-11-23',
    requested_by: 'Till 2 (Klara Horvat)',
    outcome: 'pay',
    refund: true,
  },
  {
    holder: 'merchant@obol.example',
    channel: 'CardEye',
    amount: 6_400,
    reference: 'TILL-2026-0312',
    first_name: 'Farid',
    last_name: 'Haddad',
    date_of_birth: '1991-03-14',
    requested_by: 'Till 4 (Luca Rossi)',
    reward: { user_obol_id: '100000002', reward_amount: 120 },
    outcome: 'pay',
  },
  {
    holder: 'brand@obol.example',
    channel: 'Payin',
    amount: 2_990,
    reference: 'BRAND-2026-0007',
    first_name: 'Greta',
    last_name: 'Lind',
    date_of_birth: '1997-08-09',
    outcome: 'pay',
  },
];

/** The merchant API's answer to an in-process call, with 503 (the simulator not yet up) tried again for 30 s. */
async function callApi(app: FastifyInstance, url: string, headers: Record<string, string>, body: unknown) {
  for (let attempt = 1; ; attempt++) {
    const res = await app.inject({ method: 'POST', url, headers, payload: body as object });
    if (res.statusCode !== 503 || attempt >= 60) {
      if (res.statusCode >= 300) throw new Error(`demo ${url}: ${res.statusCode} ${res.body}`);
      return res.json();
    }
    await new Promise((r) => setTimeout(r, 500));
  }
}

/** A holder's current API key, `public:private`, as its owner copies it from API Keys into the storefront. */
async function apiKeyOf(deps: Deps, userId: number): Promise<string> {
  const [k] = await deps.db
    .select()
    .from(apiKeys)
    .where(and(eq(apiKeys.userId, userId), isNull(apiKeys.rotatedAt), isNull(apiKeys.revokedAt)));
  return `${k.publicKey}:${decryptSecret(deps.config.secretsKey, k.privateKeyEnc)}`;
}

/**
 * The demo storefront's receiving address for the merchant's seeded endpoint: an inbox derived from the secrets key,
 * so it is the same on every start of this database and guessed by nobody.
 */
export const demoInbox = (deps: Deps) =>
  createHmac('sha256', deps.config.secretsKey).update('demo-shop-inbox').digest('hex').slice(0, 32);

/**
 * The merchant's webhook endpoint (every event, to the demo shop's receiver on this server), added first so the
 * pay-ins below are delivered to it once the workers run. Answers whether it added it.
 */
export async function seedDemoWebhook(deps: Deps): Promise<boolean> {
  const merchantId = (await userIdByEmail(deps.db, 'merchant@obol.example'))!;
  const url = `${deps.config.publicUrl}/api/demo-shop/${demoInbox(deps)}/webhook`;
  const [had] = await deps.db
    .select({ id: webhookEndpoints.id })
    .from(webhookEndpoints)
    .where(and(eq(webhookEndpoints.userId, merchantId), eq(webhookEndpoints.url, url)));
  if (had) return false;
  await createEndpoint(deps, (await authContextOf(deps, merchantId))!, { url, events: [...WEBHOOK_EVENTS] });
  return true;
}

/**
 * Pay-ins and CardEye payments of the demo merchant (and one of its brand), made through the merchant API as a
 * storefront makes them, under stable Idempotency-Keys (`demo:payin:N`: a second run answers the same links). The
 * payer then pays or declines on the simulator's hosted page, and the provider's word is settled as the webhook's
 * verification settles it (asking the provider for the link): the server is not listening yet. One CardEye
 * payment is refunded (its refund goes to the provider once the workers run). Answers how many pay-ins it made.
 */
export async function seedDemoPayins(app: FastifyInstance, deps: Deps): Promise<number> {
  const tokens = new Map<string, string>();
  let n = 0;
  for (const [i, p] of PLAN.entries()) {
    const holderId = (await userIdByEmail(deps.db, p.holder))!;
    let token = tokens.get(p.holder);
    if (!token) {
      const answer = await callApi(app, '/api/token', { 'x-api-key': await apiKeyOf(deps, holderId) }, {});
      token = answer.access_token as string;
      tokens.set(p.holder, token);
    }
    const { holder: _holder, outcome, refund, reward, ...fields } = p;
    const link = await callApi(
      app,
      '/api/create-payin-link',
      { authorization: `Bearer ${token}`, 'idempotency-key': `demo:payin:${i + 1}` },
      { ...fields, ...reward },
    );
    const id = link.request_id as string;
    if (outcome !== 'open' && link.transaction_status === 'Pending') {
      const paid = await fetch(`${deps.config.providerUrl}/pay/${encodeURIComponent(id)}/${outcome}`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({
          first_name: p.first_name,
          last_name: p.last_name,
          date_of_birth: p.date_of_birth,
        }).toString(),
        redirect: 'manual',
      });
      // 409: paid by an earlier run
      if (paid.status >= 400 && paid.status !== 409)
        throw new Error(`demo pay-in ${id}: the simulator said ${paid.status}`);
      const word = await deps.provider.payinLink(id);
      const settlement = word && settlementOf(payinMovement, payinItem(word));
      if (settlement) await deps.db.transaction((tx) => settleMovements(tx, payinMovement, [settlement]));
    }
    if (refund) {
      const [row] = await deps.db.select().from(payins).where(eq(payins.providerId, id));
      if (row.status === 'completed' && row.refundStatus === 3) await refundPayin(deps, holderId, row);
    }
    n++;
  }
  return n;
}

/**
 * Finished files in the merchant's downloads, asked for as its screens ask (the export job writes them once the
 * workers run): its payout transactions as CSV (Download Transactions) and today's batch payouts report (Download
 * Reports). Once: a merchant with a file already is left alone. Answers how many it asked for.
 */
export async function seedDemoDownloads(deps: Deps): Promise<number> {
  const merchantId = (await userIdByEmail(deps.db, 'merchant@obol.example'))!;
  const [had] = await deps.db
    .select({ id: downloadFiles.id })
    .from(downloadFiles)
    .where(eq(downloadFiles.ownerId, merchantId))
    .limit(1);
  if (had) return 0;
  const auth = (await authContextOf(deps, merchantId))!;
  const day = today('UTC');
  const asks = [
    () => startExport(deps, auth, PAYOUTS_EXPORT, payoutExportRequest.parse({ format: 'csv' })),
    () =>
      pullReport(deps, auth, 'batch_payouts', {
        name: 'Batch payouts',
        auth_id: merchantId,
        start_date: day,
        end_date: day,
        tz: 'UTC',
        format: 'csv',
      }),
  ];
  let n = 0;
  for (const ask of asks) {
    try {
      await ask();
      n++;
    } catch (err) {
      // nothing to export (a database seeded without payouts): no file
      if (!(err instanceof ApiError && err.status === 404)) throw err;
    }
  }
  return n;
}
