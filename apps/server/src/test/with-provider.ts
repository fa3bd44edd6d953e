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
  const port = await freePort();
  const providerUrl = `http://127.0.0.1:${port}`;
  const t = await startTestApp(
    { PROVIDER_API_KEY: KEY, PROVIDER_WEBHOOK_SECRET: SECRET, ...env },
    { ...appOptions, providerUrl, listen: appOptions.listen || webhooks === 'app' },
  );
  const webhookUrl =
    webhooks === 'app'
      ? `${t.address}/api/provider/webhook`
      : webhooks === 'lost'
        ? `http://127.0.0.1:${await freePort()}/api/provider/webhook`
        : 'http://127.0.0.1:9/nobody-listens';
  let provider: Provider;
  try {
    provider = await buildProvider({ apiKey: KEY, webhookSecret: SECRET, webhookUrl, ...providerOptions });
    await provider.listen(port);
  } catch (e) {
    await t.close();
    throw e;
  }
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
