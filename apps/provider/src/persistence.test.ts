import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
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
  transferBody,
  uniqueKey,
  waitFor,
  type Answer,
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

/** The simulator as its own process (`node src/main.ts`, type-stripped by Node), posting webhooks to the receiver. */
async function startProcess(env: Record<string, string>) {
  const port = await freePort();
  const here = path.dirname(fileURLToPath(import.meta.url));
  const child = spawn(
    process.execPath,
    [...(process.features.typescript ? [] : ['--experimental-strip-types']), path.join(here, 'main.ts')],
    {
      cwd: path.join(here, '..'),
      env: {
        ...process.env,
        PROVIDER_PORT: String(port),
        PROVIDER_API_KEY: 'proc-key',
        PROVIDER_WEBHOOK_URL: receiver.url,
        PROVIDER_WEBHOOK_SECRET: 'proc-secret',
        ...env,
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  let output = '';
  child.stdout.on('data', (d) => (output += d));
  child.stderr.on('data', (d) => (output += d));
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.once('exit', (code, signal) => resolve({ code, signal })),
  );
  const stop = (signal: NodeJS.Signals) => {
    if (child.exitCode === null && child.signalCode === null) child.kill(signal);
    return exited;
  };
  await waitFor(() => output.includes('listening') || child.exitCode !== null, 30_000).catch(() => undefined);
  if (!output.includes('listening')) {
    await stop('SIGKILL');
    throw new Error(`provider did not start: ${output}`);
  }
  const base = `http://127.0.0.1:${port}`;
  return { child, base, call: client(base, 'proc-key'), output: () => output, stop };
}

const freePort = () =>
  new Promise<number>((resolve, reject) => {
    // listen on 0, read the port, close
    const s = createServer().listen(0, '127.0.0.1', () => {
      const p = (s.address() as { port: number }).port;
      s.close(() => resolve(p));
    });
    s.on('error', reject);
  });

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
      fsync: false,
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
        PROVIDER_FSYNC: '1',
      }),
    ).toMatchObject({
      port: 4100,
      apiKey: 'k',
      settleMs: 20,
      dataDir: '/tmp/x',
      publicUrl: 'https://pay.example',
      webhookUrl: 'http://h/w',
      webhookSecret: 's',
      fsync: true,
    });
  });

  it('runs as its own process and stops cleanly on SIGTERM', async () => {
    const dataDir = tempDir();
    const proc = await startProcess({ PROVIDER_DATA_DIR: dataDir, PROVIDER_SETTLE_MS: '20' });
    try {
      const { base, call } = proc;
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
      expect(await proc.stop('SIGTERM')).toEqual({ code: 0, signal: null });
    }
    await sleep(10);
    expect(readdirSync(dataDir)).toEqual(['provider-store.json']);
  });

  it('killed with SIGKILL right after answering, it keeps every item it answered: after a restart each settles once and its webhook is delivered', async () => {
    const dataDir = tempDir();
    // nothing settles by itself before the kill: settlement after the restart is by settle-now
    const a = await startProcess({ PROVIDER_DATA_DIR: dataDir, PROVIDER_SETTLE_MS: '600000' });
    let answered: { body: Record<string, unknown>; id: string; first: unknown }[] = [];
    const payouts = Array.from({ length: 40 }, (_, i) => payoutBody({ amount: 1000 + i }));
    const transfer = transferBody();
    let link: Answer;
    let refundKey: string;
    try {
      link = await a.call('POST', '/payin-links', { idempotency_key: uniqueKey('pl'), amount: 900, reference: 'k' });
      expect((await form(`${link.body.url}/pay`, { first_name: 'Ana' })).status).toBe(200);
      refundKey = uniqueKey('rf');
      expect(
        (await a.call('POST', '/refunds', { idempotency_key: refundKey, payin_id: link.body.id, amount: 300 })).status,
      ).toBe(202);
      expect((await a.call('POST', '/transfers', transfer)).status).toBe(202);
      // 40 payouts at once; the process is killed the moment the 20th answer arrives, the rest still in flight
      const done: typeof answered = [];
      let killed!: () => void;
      const twentieth = new Promise<void>((resolve) => (killed = resolve));
      for (const body of payouts)
        void a.call('POST', '/payouts', body).then(
          (r) => {
            if (r.status !== 202) return;
            done.push({ body, id: r.body.id, first: r.body });
            if (done.length === 20) {
              a.child.kill('SIGKILL');
              answered = [...done];
              killed();
            }
          },
          () => undefined, // cut off by the kill
        );
      await twentieth;
    } finally {
      expect(await a.stop('SIGKILL')).toEqual({ code: null, signal: 'SIGKILL' });
    }
    expect(answered).toHaveLength(20);
    expect(readdirSync(dataDir).sort()).toEqual(['provider-journal.jsonl', 'provider-store.json']);

    const b = await startProcess({ PROVIDER_DATA_DIR: dataDir, PROVIDER_SETTLE_MS: '600000' });
    try {
      // every answered payout is there, as answered
      for (const x of answered) {
        const now = await b.call('GET', `/payouts/${x.id}`);
        expect(now.status).toBe(200);
        expect(now.body).toMatchObject({ status: 'Processing', idempotency_key: x.body.idempotency_key });
        const again = await b.call('POST', '/payouts', x.body);
        expect(again).toMatchObject({ status: 202, body: x.first });
      }
      // a retry of every payout (the unanswered ones too) makes each exactly once
      const ids = new Set<string>();
      for (const body of payouts) {
        const r = await b.call('POST', '/payouts', body);
        expect(r.status).toBe(202);
        ids.add(r.body.id);
      }
      expect(ids.size).toBe(40);
      expect((await b.call('GET', `/payin-links/${link!.body.id}`)).body).toMatchObject({
        status: 'Completed',
        refunded_amount: 300,
      });
      expect(
        (await b.call('POST', '/refunds', { idempotency_key: uniqueKey(), payin_id: link!.body.id, amount: 601 }))
          .status,
      ).toBe(422);

      const settled = (await b.call('POST', '/_control/settle-now')).body.settled;
      expect(settled).toBe(42); // 40 payouts, the transfer, the refund
      expect((await b.call('POST', '/_control/settle-now')).body.settled).toBe(0);
      const keys = [...payouts.map((p) => p.idempotency_key), transfer.idempotency_key, refundKey!];
      await waitFor(() => keys.every((k) => eventsFor(k).length > 0), 15_000);
      for (const k of keys) {
        // delivery is at least once, but each settled once: one event
        expect(new Set(eventsFor(k).map((e) => e.event.event_id)).size, k).toBe(1);
      }
      expect(eventsFor(answered[0].body.idempotency_key as string)[0].event).toMatchObject({
        type: 'payout.completed',
        data: { id: answered[0].id, status: 'Completed' },
      });
      const statement = (await b.call('GET', '/statement')).body.items as { idempotency_key: string }[];
      for (const k of keys)
        expect(
          statement.filter((i) => i.idempotency_key === k),
          k,
        ).toHaveLength(1);
    } finally {
      expect(await b.stop('SIGTERM')).toEqual({ code: 0, signal: null });
    }
  });
});
