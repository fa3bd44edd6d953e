import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { optionsFromEnv } from './app.ts';
import { verifyWebhookSignature } from './signature.ts';
import {
  client,
  form,
  payoutBody,
  sleep,
  startProvider,
  startReceiver,
  uniqueKey,
  waitFor,
  type Receiver,
} from './test-support.ts';

let receiver: Receiver;
const dirs: string[] = [];
const tempDir = () => {
  const d = mkdtempSync(path.join(tmpdir(), 'obol-provider-test-'));
  dirs.push(d);
  return d;
};
beforeAll(async () => {
  receiver = await startReceiver();
});
afterAll(async () => {
  await receiver?.close();
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});
const eventsFor = (key: string) => receiver.received.filter((r) => r.event.data.idempotency_key === key);

describe('persistence with a data folder', () => {
  it('a settlement pending at a restart still settles after it, and idempotency keys are kept', async () => {
    const dataDir = tempDir();
    const a = await startProvider(receiver.url, { dataDir, settleMs: 500 });
    const p = payoutBody();
    const first = await a.call('POST', '/payouts', p);
    expect(first.status).toBe(202);
    await a.provider.close();
    expect(readdirSync(dataDir)).toEqual(['provider-store.json']);
    expect(eventsFor(p.idempotency_key)).toHaveLength(0);

    const b = await startProvider(receiver.url, { dataDir, settleMs: 500 });
    try {
      await waitFor(() => eventsFor(p.idempotency_key).length === 1, 5000);
      expect(eventsFor(p.idempotency_key)[0].event.data).toMatchObject({ id: first.body.id, status: 'Completed' });
      expect((await b.call('POST', '/payouts', p)).body.id).toBe(first.body.id);
      expect((await b.call('POST', '/payouts', { ...p, amount: 1 })).status).toBe(409);
      const st = await b.call('GET', '/statement');
      expect(st.body.items.map((i: { id: string }) => i.id)).toEqual([first.body.id]);
    } finally {
      await b.provider.close();
    }
  });

  it('a webhook not yet delivered at a restart is delivered after it', async () => {
    const dataDir = tempDir();
    receiver.status = 500;
    const a = await startProvider(receiver.url, { dataDir });
    const p = payoutBody();
    await a.call('POST', '/payouts', p);
    await waitFor(() => a.provider.store.data.deliveries.some((d) => d.attempts > 0));
    await a.provider.close();
    const saved = JSON.parse(readFileSync(path.join(dataDir, 'provider-store.json'), 'utf8'));
    expect(saved.deliveries).toHaveLength(1);
    receiver.status = 200;
    const b = await startProvider(receiver.url, { dataDir });
    try {
      await waitFor(() => eventsFor(p.idempotency_key).length === 1, 5000);
      const ev = eventsFor(p.idempotency_key)[0];
      expect(ev.event.data.status).toBe('Completed');
      expect(verifyWebhookSignature('test-secret-123', ev.sig, ev.body)).toBe(true);
      await waitFor(() => b.provider.store.data.deliveries.length === 0);
    } finally {
      await b.provider.close();
    }
  });

  it('pay-in links keep their state and still expire after a restart', async () => {
    const dataDir = tempDir();
    const a = await startProvider(receiver.url, { dataDir });
    const paid = await a.call('POST', '/payin-links', { idempotency_key: uniqueKey(), amount: 700, reference: 'p' });
    const short = await a.call('POST', '/payin-links', {
      idempotency_key: uniqueKey(),
      amount: 700,
      reference: 'p',
      expires_in_seconds: 1,
    });
    await form(`${paid.body.url}/pay`);
    await a.provider.close();
    const b = await startProvider(receiver.url, { dataDir });
    try {
      expect((await b.call('GET', `/payin-links/${paid.body.id}`)).body.status).toBe('Completed');
      await waitFor(() => eventsFor(short.body.idempotency_key).some((e) => e.event.type === 'payin.expired'), 4000);
      expect((await b.call('GET', `/payin-links/${short.body.id}`)).body.status).toBe('Expired');
      expect(
        (await b.call('POST', '/refunds', { idempotency_key: uniqueKey(), payin_id: paid.body.id, amount: 700 }))
          .status,
      ).toBe(202);
    } finally {
      await b.provider.close();
    }
  });

  it('without a data folder nothing is written', async () => {
    const a = await startProvider(receiver.url);
    expect(a.provider.store.file).toBeUndefined();
    await a.provider.close();
  });
});

describe('src/main.ts', () => {
  it('reads its configuration from the environment', () => {
    expect(optionsFromEnv({})).toMatchObject({
      port: 3100,
      host: '127.0.0.1',
      dataDir: './data/provider',
      apiKey: undefined,
      settleMs: undefined,
    });
    expect(
      optionsFromEnv({
        PROVIDER_PORT: '4100',
        PROVIDER_API_KEY: 'k',
        PROVIDER_SETTLE_MS: '20',
        PROVIDER_DATA_DIR: '/tmp/x',
        PROVIDER_PUBLIC_URL: 'https://pay.example',
        PROVIDER_WEBHOOK_URL: 'http://h/w',
        PROVIDER_WEBHOOK_SECRET: 's',
      }),
    ).toMatchObject({
      port: 4100,
      apiKey: 'k',
      settleMs: 20,
      dataDir: '/tmp/x',
      publicUrl: 'https://pay.example',
      webhookUrl: 'http://h/w',
      webhookSecret: 's',
    });
  });

  it('runs as its own process and stops cleanly on SIGTERM', async () => {
    const dataDir = tempDir();
    const port = await new Promise<number>((resolve) => {
      // a free port: listen on 0, read it, close
      import('node:net').then(({ createServer }) => {
        const s = createServer().listen(0, '127.0.0.1', () => {
          const p = (s.address() as { port: number }).port;
          s.close(() => resolve(p));
        });
      });
    });
    const here = path.dirname(fileURLToPath(import.meta.url));
    const child = spawn(process.execPath, ['--import', 'tsx', path.join(here, 'main.ts')], {
      cwd: path.join(here, '..'),
      env: {
        ...process.env,
        PROVIDER_PORT: String(port),
        PROVIDER_API_KEY: 'proc-key',
        PROVIDER_WEBHOOK_URL: receiver.url,
        PROVIDER_WEBHOOK_SECRET: 'proc-secret',
        PROVIDER_SETTLE_MS: '20',
        PROVIDER_DATA_DIR: dataDir,
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout.on('data', (d) => (output += d));
    child.stderr.on('data', (d) => (output += d));
    try {
      const base = `http://127.0.0.1:${port}`;
      await waitFor(() => output.includes('listening'), 15_000).catch(() => {
        throw new Error(`provider did not start: ${output}`);
      });
      const call = client(base, 'proc-key');
      expect((await call('GET', '/health')).body).toEqual({ status: 'ok' });
      const p = payoutBody();
      expect((await call('POST', '/payouts', p)).status).toBe(202);
      await waitFor(() => eventsFor(p.idempotency_key).length === 1);
      expect(
        verifyWebhookSignature(
          'proc-secret',
          eventsFor(p.idempotency_key)[0].sig,
          eventsFor(p.idempotency_key)[0].body,
        ),
      ).toBe(true);
      const link = await call('POST', '/payin-links', { idempotency_key: uniqueKey(), amount: 1, reference: 'x' });
      expect(link.body.url).toBe(`${base}/pay/${link.body.id}`);
    } finally {
      const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
      child.kill('SIGTERM');
      expect(await exited).toBe(0);
    }
    await sleep(10);
    expect(existsSync(path.join(dataDir, 'provider-store.json'))).toBe(true);
  });
});
