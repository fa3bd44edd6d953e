import { createServer, type Server } from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import { createContext } from './context.ts';
import { createDeliveries, type Deliveries } from './deliveries.ts';
import { Store, type Item } from './store.ts';
import { sleep, waitFor } from './test-support.ts';

// Webhook POSTs in flight at once (concurrency > 1): never more than allowed, and one item's events in order.

interface Post {
  start: number;
  end: number;
  events: { type: string; data: { id: string } }[];
}

/**
 * A receiver that takes 30 ms to answer a POST, 300 ms one carrying item a's first event (so that a's later
 * events come due while it is in flight), and records when each was in flight and what it carried.
 */
async function slowReceiver() {
  const posts: Post[] = [];
  let now = 0;
  let most = 0;
  const server: Server = createServer((req, res) => {
    let body = '';
    req.on('data', (c) => (body += c));
    req.on('end', () => {
      now += 1;
      most = Math.max(most, now);
      const start = performance.now();
      const parsed = JSON.parse(body) as { events?: Post['events'] } & Post['events'][number];
      const events = parsed.events ?? [parsed];
      const slow = events.some((e) => e.data.id === 'a' && e.type === 'payout.step1');
      setTimeout(
        () => {
          now -= 1;
          posts.push({ start, end: performance.now(), events });
          res.end();
        },
        slow ? 300 : 30,
      );
    });
  });
  await new Promise<void>((ok) => server.listen(0, '127.0.0.1', () => ok()));
  return {
    url: `http://127.0.0.1:${(server.address() as { port: number }).port}/hook`,
    posts,
    most: () => most,
    close: () => new Promise<void>((ok) => server.close(() => ok())),
  };
}

const item = (id: string): Item => ({
  id,
  kind: 'payout',
  idempotency_key: `key-${id}`,
  request_hash: 'h',
  reference: 'ref',
  amount: 100,
  status: 'Processing',
  created_at: new Date().toISOString(),
  data: {},
});

let stop: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const s of stop.reverse()) await s();
  stop = [];
});

async function run(opts: { batchSize: number; concurrency: number }) {
  const receiver = await slowReceiver();
  const store = new Store();
  const ctx = createContext(store, '');
  const deliveries: Deliveries = createDeliveries(ctx, {
    webhookUrl: receiver.url,
    secret: 's',
    webhookTimeoutMs: 5_000,
    ...opts,
  });
  stop.push(receiver.close, async () => {
    ctx.closed = true;
    await deliveries.stop();
  });
  // six items, three events each, emitted interleaved: a1 b1 ... f1 a2 b2 ... f3
  const ids = ['a', 'b', 'c', 'd', 'e', 'f'];
  for (const step of [1, 2, 3]) for (const id of ids) deliveries.emit(`payout.step${step}`, item(id));
  await waitFor(() => receiver.posts.reduce((n, p) => n + p.events.length, 0) === 18);
  await sleep(20);
  expect(store.data.deliveries).toHaveLength(0);
  return { ...receiver, ids };
}

describe('webhook deliveries in flight at once', () => {
  it('posts up to `concurrency` at once, and each item in the order its events happened', async () => {
    const { posts, most, ids } = await run({ batchSize: 2, concurrency: 3 });
    expect(most()).toBe(3);
    const byEnd = [...posts].sort((x, y) => x.end - y.end);
    for (const id of ids) {
      // the order the receiver finished taking them in: step 1, 2, 3
      const steps = byEnd.flatMap((p) => p.events.filter((e) => e.data.id === id).map((e) => e.type));
      expect(steps).toEqual(['payout.step1', 'payout.step2', 'payout.step3']);
      // and never two POSTs about the same item in flight together
      const mine = posts.filter((p) => p.events.some((e) => e.data.id === id)).sort((x, y) => x.start - y.start);
      for (let i = 1; i < mine.length; i++) expect(mine[i].start).toBeGreaterThanOrEqual(mine[i - 1].end);
    }
  });

  it('with concurrency 1, one POST at a time, every event in the order it happened', async () => {
    const { posts, most } = await run({ batchSize: 4, concurrency: 1 });
    expect(most()).toBe(1);
    const order = [...posts].sort((x, y) => x.start - y.start).flatMap((p) => p.events.map((e) => e.data.id + e.type));
    expect(order).toEqual(
      [1, 2, 3].flatMap((step) => ['a', 'b', 'c', 'd', 'e', 'f'].map((id) => `${id}payout.step${step}`)),
    );
  });
});
