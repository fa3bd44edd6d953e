import { ConfigError, loadConfig } from './platform/config.ts';
import { openConfiguredDatabase } from './platform/boot.ts';
import { buildApp } from './app.ts';
import { seedDemo, syncReferenceData } from './seed.ts';
import { seedDemoAccounting } from './demo-accounting.ts';
import { seedDemoApproval, seedDemoPayouts, seedDemoTransfers } from './demo.ts';
import { seedDemoDownloads, seedDemoPayins, seedDemoWebhook } from './demo-payins.ts';
import { ensureApiKeys } from './features/api-keys/service.ts';
import { startWorkers } from './workers.ts';

async function main() {
  const config = loadConfig();
  const database = await openConfiguredDatabase(config);
  await syncReferenceData(database.db);
  const seeded = config.seedDemo ? await seedDemo(database.db, config.demoPassword) : false;
  // every merchant and brand has an API key pair (the demo ones, and those of a database older than the keys)
  await ensureApiKeys(database.db, config.secretsKey);
  const { app, deps } = await buildApp({ config, database });
  // a fresh demo database gets a payout, transfer, pay-in and 2D history, an approval waiting, an export and a
  // webhook endpoint; the workers send it to the provider simulator
  if (seeded) {
    await seedDemoPayouts(deps);
    await seedDemoTransfers(deps);
    await seedDemoApproval(deps);
    await seedDemoDownloads(deps);
    await seedDemoWebhook(deps);
    // pay-ins are made at the simulator too: without it the server starts with none
    await seedDemoPayins(app, deps).catch((err: unknown) =>
      app.log.warn({ err }, 'no demo pay-ins: the provider simulator did not answer'),
    );
    // the 2D companies are read from the simulator: without it the server still starts, with no 2D demo
    await seedDemoAccounting(deps).catch((err: unknown) =>
      app.log.warn({ err }, 'no 2D demo: the provider simulator did not answer'),
    );
  }
  const stopWorkers = config.workers ? await startWorkers(deps) : async () => undefined;
  await app.listen({ port: config.port, host: config.host });
  const where = database.kind === 'pglite' ? `PGlite in ${config.dataDir}/pglite` : 'PostgreSQL (DATABASE_URL)';
  app.log.info({ database: database.kind, seeded }, 'Obol is running');
  process.stdout.write(
    `\nObol is running at ${config.publicUrl}  (database: ${where})\n` +
      (config.seedDemo
        ? `Sign in as admin@obol.example (or <role>@obol.example) with password ${
            process.env.DEMO_PASSWORD ? '$DEMO_PASSWORD' : config.demoPassword
          };\n` +
          (config.smtpUrl
            ? 'the one-time code arrives by e-mail.\n\n'
            : `the one-time code is printed in this log and written to ${config.dataDir}/mail.\n\n`)
        : '\n'),
  );
  const stop = async () => {
    await stopWorkers();
    await app.close();
    await database.close();
    process.exit(0);
  };
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
}

main().catch((err) => {
  if (err instanceof ConfigError) {
    process.stderr.write(`${err.message}\n`);
    process.exit(2);
  }
  process.stderr.write(`Obol failed to start: ${err?.stack ?? err}\n`);
  process.exit(1);
});
