import type { Deps } from '../platform/deps.ts';
import { holderAccounts } from '../features/ledger/accounts.ts';
import { createPayout } from '../features/payouts/service.ts';

let seq = 0;

/**
 * n manual payouts of a merchant in Processing, from its payout account, of 100 + i cents, each under its own key
 * (`<prefix>-<time>-<n>`): every third to a wallet of another brand (the provider fails it).
 */
export async function makePayouts(
  deps: Pick<Deps, 'db' | 'jobs'>,
  merchantId: number,
  n: number,
  prefix: string,
): Promise<number[]> {
  const account = (await holderAccounts(deps.db, merchantId)).payout!;
  const ids: number[] = [];
  for (let i = 0; i < n; i++) {
    const k = `${prefix}-${Date.now()}-${seq++}`;
    const row = await deps.db.transaction((tx) =>
      createPayout(tx, deps.jobs, {
        merchantId,
        behalfOfId: merchantId,
        account,
        createdBy: merchantId,
        feeBps: 150,
        merchantTransactionId: k,
        beneficiaryName: 'Ana Novak',
        brand: 'Acme Brand',
        obolId: i % 3 === 2 ? '200000001' : '100000001',
        reference: k,
        amount: 100 + i,
        idempotencyKey: k,
      }),
    );
    ids.push(row.id);
  }
  return ids;
}
