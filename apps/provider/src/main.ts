import { buildProvider, optionsFromEnv } from './app.ts';

// The payment-provider simulator as its own process: configuration from the environment (docs/provider.md).
const { port, host, ...options } = optionsFromEnv(process.env);
const provider = await buildProvider(options);
const address = await provider.listen(port, host);
process.stdout.write(`Provider simulator listening at ${address}\n`);

let stopping = false;
const stop = async () => {
  if (stopping) return;
  stopping = true;
  await provider.close();
  process.exit(0);
};
process.on('SIGINT', () => void stop());
process.on('SIGTERM', () => void stop());
