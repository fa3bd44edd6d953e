import type { LiveEvent } from '@obol/contract';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { userIdByEmail } from '../../seed.ts';
import { engine, startTestApp, type TestApp } from '../../test/harness.ts';
import { completedPayin, merchantApiKey } from '../../test/payins.ts';
import { makePayouts } from '../../test/payouts.ts';
import { startTestAppWithProvider, type TestAppWithProvider } from '../../test/with-provider.ts';

interface Heard extends LiveEvent {
  eventId: number;
  /** when the stream delivered it */
  receivedAt: number;
}

/** An open stream as a browser holds it: every event it has heard so far, and how to close it. */
async function open(address: string, token: string, lastEventId?: number) {
  const heard: Heard[] = [];
  const abort = new AbortController();
  const res = await fetch(`${address}/api/events`, {
    headers: { authorization: `Bearer ${token}`, ...(lastEventId ? { 'last-event-id': String(lastEventId) } : {}) },
    signal: abort.signal,
  });
  expect(res.status).toBe(200);
  expect(res.headers.get('content-type')).toContain('text/event-stream');
  const reader = res.body!.pipeThrough(new TextDecoderStream()).getReader();
  let buffer = '';
  const done = (async () => {
    try {
      for (;;) {
        const { value, done: end } = await reader.read();
        if (end) return;
        buffer += value;
        let cut: number;
        while ((cut = buffer.indexOf('\n\n')) >= 0) {
          const block = buffer.slice(0, cut);
          buffer = buffer.slice(cut + 2);
          const id = /^id: (\d+)$/m.exec(block)?.[1];
          const data = /^data: (.*)$/m.exec(block)?.[1];
          if (id && data)
            heard.push({ eventId: Number(id), receivedAt: Date.now(), ...(JSON.parse(data) as LiveEvent) });
        }
      }
    } catch {
      /* aborted */
    }
  })();
  return {
    heard,
    close: async () => {
      abort.abort();
      await done;
    },
  };
}

const within = { timeout: 1000, interval: 20 };

let t: TestAppWithProvider;
let merchant: string;
let merchant2: string;
let merchantId: number;

beforeAll(async () => {
  t = await startTestAppWithProvider({ workers: true, env: { LOG_LEVEL: 'error' } });
  merchant = await t.signIn('merchant@obol.example');
  merchant2 = await t.signIn('merchant2@obol.example');
  merchantId = (await userIdByEmail(t.deps.db, 'merchant@obol.example'))!;
});
afterAll(async () => {
  await t?.close();
});

describe('open screens hear their own events live', () => {
  it('a payout settling, an export completing and a pay-in paid reach their tenant within a second, never another', async () => {
    const mine = await open(t.address!, merchant);
    const theirs = await open(t.address!, merchant2);
    try {
      const [payout] = await makePayouts(t.deps, merchantId, 1, 'live');
      await vi.waitFor(
        () =>
          expect(mine.heard.filter((e) => e.kind === 'payout' && e.id === String(payout)).map((e) => e.status)).toEqual(
            ['Processing'],
          ),
        within,
      );
      // the simulator settles it about 1.5 s later; its webhook's commit is heard within the second
      await vi.waitFor(
        () => expect(mine.heard.some((e) => e.id === String(payout) && e.status === 'Completed')).toBe(true),
        { timeout: 8000, interval: 20 },
      );

      const ex = await t.post('/api/export-payout-transactions', {}, merchant);
      expect(ex.status).toBe(200);
      await vi.waitFor(
        () =>
          expect(
            mine.heard.some(
              (e) => e.kind === 'download' && e.id === String(ex.body.file.id) && e.status === 'Completed',
            ),
          ).toBe(true),
        { timeout: 10_000, interval: 20 },
      );

      const payin = await completedPayin(t, await merchantApiKey(t, 'merchant@obol.example'), 1200);
      await vi.waitFor(
        () =>
          expect(
            mine.heard.some((e) => e.kind === 'payin' && e.id === String(payin.id) && e.status === 'Completed'),
          ).toBe(true),
        within,
      );

      // merchant2 heard none of it, its own export's file neither
      expect(theirs.heard).toEqual([]);
      // each heard within a second of its transaction (its time is the transaction's start)
      for (const e of mine.heard) expect(e.receivedAt - Date.parse(e.at), `${e.kind} ${e.status}`).toBeLessThan(1000);
      // ids rise in the order heard, and the data is what a list needs
      const ids = mine.heard.map((e) => e.eventId);
      expect(ids).toEqual([...ids].sort((a, b) => a - b));
      expect(mine.heard.find((e) => e.kind === 'payout')).toMatchObject({ amount: 100 });
    } finally {
      await mine.close();
      await theirs.close();
    }
  });

  it('resumes after a reconnect with Last-Event-ID: what happened meanwhile, once', async () => {
    const first = await open(t.address!, merchant);
    const [a] = await makePayouts(t.deps, merchantId, 1, 'resume-a');
    await vi.waitFor(() => expect(first.heard.some((e) => e.id === String(a))).toBe(true), within);
    const last = first.heard[first.heard.length - 1].eventId;
    await first.close();
    // while no stream is open
    const [b] = await makePayouts(t.deps, merchantId, 1, 'resume-b');
    const again = await open(t.address!, merchant, last);
    try {
      await vi.waitFor(() => expect(again.heard.some((e) => e.id === String(b))).toBe(true), within);
      expect(again.heard.every((e) => e.eventId > last)).toBe(true);
      expect(again.heard.filter((e) => e.id === String(b) && e.status === 'Processing')).toHaveLength(1);
    } finally {
      await again.close();
    }
  });

  it('asks for a signed-in caller', async () => {
    const res = await fetch(`${t.address}/api/events`);
    expect(res.status).toBe(401);
  });
});

describe.runIf(engine === 'postgres')('across two server processes on PostgreSQL', () => {
  let other: TestApp;
  beforeAll(async () => {
    other = await startTestApp({ LOG_LEVEL: 'error' }, { database: t.database, listen: true });
  });
  afterAll(async () => {
    await other?.close();
  });

  it('a stream on one process hears a movement committed by the other within a second', async () => {
    const token = await other.signIn('merchant@obol.example');
    const there = await open(other.address!, token);
    try {
      const [payout] = await makePayouts(t.deps, merchantId, 1, 'across');
      await vi.waitFor(() => expect(there.heard.some((e) => e.id === String(payout))).toBe(true), within);
    } finally {
      await there.close();
    }
  });
});
