import { and, eq, isNull } from 'drizzle-orm';
import { expect } from 'vitest';
import { apiKeys } from '../features/api-keys/tables.ts';
import { settleMovements, settlementOf } from '../features/engine/settle.ts';
import { payinItem, payinMovement } from '../features/payins/settle.ts';
import type { Tx } from '../platform/db.ts';
import type { ProviderPayin } from '../platform/provider.ts';
import { payins } from '../features/payins/tables.ts';
import { users } from '../features/users/tables.ts';
import { decryptSecret } from '../platform/crypto.ts';
import type { TestApp } from './harness.ts';
import type { TestAppWithProvider } from './with-provider.ts';

/** The merchant API key (`public:secret`) the seed gave a user, as its owner copies it from the API Keys screen. */
export async function merchantApiKey(t: TestApp, email: string): Promise<string> {
  const [u] = await t.deps.db.select().from(users).where(eq(users.email, email));
  const [k] = await t.deps.db
    .select()
    .from(apiKeys)
    .where(and(eq(apiKeys.userId, u.id), isNull(apiKeys.rotatedAt), isNull(apiKeys.revokedAt)));
  return `${k.publicKey}:${decryptSecret(t.deps.config.secretsKey, k.privateKeyEnc)}`;
}

/**
 * A pay-in made through the merchant API with `apiKey` and paid on the simulator's hosted page, not yet settled
 * here: its request id (the provider's link id).
 */
export async function paidPayin(
  t: TestAppWithProvider,
  apiKey: string,
  amount: number,
  reward?: { user_obol_id: string; reward_amount: number },
): Promise<string> {
  const token = await t.app.inject({ method: 'POST', url: '/api/token', headers: { 'x-api-key': apiKey } });
  const made = await t.post(
    '/api/create-payin-link',
    {
      amount,
      reference: `payin-${Date.now()}-${Math.random().toString(36).slice(2, 8)}`,
      first_name: 'Ana',
      last_name: 'Novak',
      date_of_birth: '1990-04-12',
      ...reward,
    },
    token.json().access_token,
  );
  expect(made.status, made.text).toBe(201);
  const id = made.body.request_id as string;
  const paid = await fetch(`${t.providerUrl}/pay/${id}/pay`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: 'first_name=Ana&last_name=Novak&date_of_birth=1990-04-12',
    redirect: 'manual',
  });
  expect(paid.status).toBeLessThan(400);
  return id;
}

/**
 * A pay-in made through the merchant API with `apiKey`, paid on the simulator's hosted page and settled from the
 * provider's answer (no webhook needed): its row.
 */
export async function completedPayin(
  t: TestAppWithProvider,
  apiKey: string,
  amount: number,
  reward?: { user_obol_id: string; reward_amount: number },
) {
  const id = await paidPayin(t, apiKey, amount, reward);
  const link = (await t.deps.provider.payinLink(id))!;
  expect(await t.deps.db.transaction((tx) => settlePayin(tx, link))).toBe('applied');
  const [p] = await t.deps.db.select().from(payins).where(eq(payins.providerId, id));
  return p;
}

/** The provider's word on one pay-in link, as its webhook or the recovery hands it to the engine. */
export async function settlePayin(tx: Tx, link: ProviderPayin): Promise<'applied' | 'ignored'> {
  const word = settlementOf(payinMovement, payinItem(link));
  return word && (await settleMovements(tx, payinMovement, [word])).has(word.key) ? 'applied' : 'ignored';
}
