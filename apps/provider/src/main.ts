import path from 'node:path';
import { buildProvider } from './app.ts';

const env = process.env;
const port = Number(env.PROVIDER_PORT ?? 3100);
const host = env.PROVIDER_HOST ?? '127.0.0.1';
const provider = await buildProvider({
  apiKey: env.PROVIDER_API_KEY || undefined,
  webhookSecret: env.PROVIDER_WEBHOOK_SECRET || undefined,
  webhookUrl: env.PROVIDER_WEBHOOK_URL || undefined,
  settleMs: env.PROVIDER_SETTLE_MS ? Number(env.PROVIDER_SETTLE_MS) : undefined,
  dataDir: env.PROVIDER_DATA_DIR || path.join(env.DATA_DIR ?? './data', 'provider'),
  publicUrl: env.PROVIDER_PUBLIC_URL || undefined,
});
const address = await provider.listen(port, host);
process.stdout.write(`Provider simulator listening at ${address}\n`);
const stop = async () => {
  await provider.close();
  process.exit(0);
};
process.on('SIGINT', stop);
process.on('SIGTERM', stop);
