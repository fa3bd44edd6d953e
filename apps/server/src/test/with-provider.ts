import { buildProvider, type Provider, type ProviderOptions } from '../../../provider/src/app.ts';
import { startTestApp, type TestApp, type TestAppOptions } from './harness.ts';
import { freePort } from './processes.ts';

export interface WithProviderOptions extends Omit<TestAppOptions, 'providerUrl'> {
  /** more of the app's environment */
  env?: Record<string, string>;
  /**
   * Where the simulator posts its webhooks: 'app' (the test app listens for them), 'lost' (a free port nobody
   * listens on: a test of recovery without webhooks) or 'none' (a port that refuses, for tests that never settle).
   */
  webhooks?: 'app' | 'lost' | 'none';
  /** the simulator's other options (its settle delay, webhook batching) */
  provider?: Omit<ProviderOptions, 'apiKey' | 'webhookSecret' | 'webhookUrl'>;
}

export interface TestAppWithProvider extends TestApp {
  provider: Provider;
  providerUrl: string;
  /** the key the app calls the simulator with, and the secret the simulator signs its webhooks with */
  providerKey: string;
  webhookSecret: string;
}

const KEY = 'test-provider-key';
const SECRET = 'test-webhook-secret';

/**
 * The test app and the provider simulator on a port of its own, the two set up as every money test needs them:
 * the app calls the simulator with its key, and the simulator's webhooks reach the app (or, for `webhooks:
 * 'lost'`, nobody). close() stops both.
 */
export async function startTestAppWithProvider(opts: WithProviderOptions = {}): Promise<TestAppWithProvider> {
  const { env = {}, webhooks = 'app', provider: providerOptions = {}, ...appOptions } = opts;
  // the simulator listens first, on a port the system gives it: a port picked free and bound seconds later, after
  // the app's start, was once taken meanwhile by another test file's server (EADDRINUSE)
  const app = { address: '' };
  const webhookUrl =
    webhooks === 'app'
      ? () => `${app.address}/api/provider/webhook`
      : webhooks === 'lost'
        ? `http://127.0.0.1:${await freePort()}/api/provider/webhook`
        : 'http://127.0.0.1:9/nobody-listens';
  const provider: Provider = await buildProvider({
    apiKey: KEY,
    webhookSecret: SECRET,
    webhookUrl,
    ...providerOptions,
  });
  let t: TestApp;
  let providerUrl: string;
  try {
    providerUrl = await provider.listen(0);
    t = await startTestApp(
      { PROVIDER_API_KEY: KEY, PROVIDER_WEBHOOK_SECRET: SECRET, ...env },
      { ...appOptions, providerUrl, listen: appOptions.listen || webhooks === 'app' },
    );
  } catch (e) {
    await provider.close();
    throw e;
  }
  app.address = t.address ?? '';
  const closeApp = t.close;
  return Object.assign(t, {
    provider,
    providerUrl,
    providerKey: KEY,
    webhookSecret: SECRET,
    async close() {
      await provider.close();
      await closeApp();
    },
  });
}
