import { randomBytes } from 'node:crypto';
import pino from 'pino';
import { loadConfig } from '../apps/server/src/platform/config.ts';
import type { Database, Db } from '../apps/server/src/platform/db.ts';
import type { Deps } from '../apps/server/src/platform/deps.ts';
import { createFileStore } from '../apps/server/src/platform/files.ts';
import { createJobs } from '../apps/server/src/platform/jobs.ts';
import { createProviderClient } from '../apps/server/src/platform/provider.ts';
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

/** What a job needs to run in a bench: a silent log, files under `dataDir`, a job queue, no provider, no mail. */
export async function benchDeps(database: Database, dataDir: string): Promise<Deps> {
  const log = pino({ level: 'silent' });
  const config = loadConfig({
    NODE_ENV: 'test',
    DATA_DIR: dataDir,
    SECRETS_KEY: randomBytes(32).toString('hex'),
    LOG_LEVEL: 'silent',
  });
  return {
    config,
    database,
    db: database.db,
    log,
    jobs: await createJobs(database, log),
    provider: createProviderClient({ baseUrl: 'http://127.0.0.1:9', apiKey: 'x' }),
    mailer: { send: async () => undefined },
    files: createFileStore(config),
  } as Deps;
}
