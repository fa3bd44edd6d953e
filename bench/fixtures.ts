import type { Db } from '../apps/server/src/platform/db.ts';
import { userIdByEmail } from '../apps/server/src/seed.ts';
import { holderAccounts, platformAccountId } from '../apps/server/src/features/ledger/accounts.ts';
import { postEntry } from '../apps/server/src/features/ledger/service.ts';

/**
 * The demo merchant (seedDemo) with enough money on its payout account for any bench, put there through the
 * ledger (the provider's account pays it in). Answers the merchant's id and its payout account.
 */
export async function fundedMerchant(db: Db) {
  const merchantId = (await userIdByEmail(db, 'merchant@obol.example'))!;
  const account = (await holderAccounts(db, merchantId)).payout!;
  await db.transaction(async (tx) =>
    postEntry(tx, {
      idempotencyKey: 'bench:fund',
      kind: 'payout.funding',
      postings: [
        { accountId: await platformAccountId(tx, 'provider'), amount: -1e12 },
        { accountId: account.id, amount: 1e12 },
      ],
    }),
  );
  return { merchantId, account };
}
