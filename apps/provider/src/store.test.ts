import {
  appendFileSync,
  copyFileSync,
  existsSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { JOURNAL_FILE, SNAPSHOT_FILE, Store, type Delivery, type Item } from './store.ts';

const dirs: string[] = [];
const tempDir = () => {
  const d = mkdtempSync(path.join(tmpdir(), 'obol-store-test-'));
  dirs.push(d);
  return d;
};
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

const newItem = (store: Store, n: number): Item => ({
  id: store.nextId('po'),
  kind: 'payout',
  idempotency_key: `key-${n}`,
  request_hash: 'h',
  reference: `ref ${n}`,
  amount: 100 + n,
  status: 'Processing',
  created_at: new Date().toISOString(),
  settle_at: Date.now() + 1000,
  data: { obol_id: '100000001' },
});
const newDelivery = (n: number): Delivery => ({
  id: `d-${n}`,
  event_id: `evt-${n}`,
  type: 'payout.completed',
  body: `{"n":${n}}`,
  attempts: 0,
  next_at: 0,
});

/** what a store holds, comparable with toEqual */
const state = (s: Store) => JSON.parse(JSON.stringify(s.data));

/**
 * A mixed history: n payouts created, every second one settled with its webhook, deliveries attempted,
 * every third delivered (removed).
 */
function history(store: Store, n: number) {
  for (let i = 0; i < n; i++) {
    const item = newItem(store, i);
    store.putItem(item, `payout:${item.idempotency_key}`);
    if (i % 2 === 0)
      store.atomic(() => {
        item.status = 'Completed';
        item.settled_at = new Date().toISOString();
        delete item.settle_at;
        store.putItem(item);
        store.addDelivery(newDelivery(i));
      });
  }
  for (const d of [...store.data.deliveries]) {
    const n = Number(d.id.slice(2));
    if (n % 3 === 0) store.removeDelivery(d);
    else {
      d.attempts += 1;
      d.last_status = 500;
      store.updateDelivery(d);
    }
  }
}

describe('the store on disk', () => {
  it('has every change on disk as soon as it is made: a store opened without closing the first sees it all', () => {
    const dir = tempDir();
    const a = new Store(dir);
    history(a, 40);
    // no close(): as after a kill, only what write() put in the files is there
    const b = new Store(dir);
    expect(state(b)).toEqual(state(a));
    expect(Object.keys(b.data.items)).toHaveLength(40);
    expect(b.data.deliveries.map((d) => d.id)).toEqual(a.data.deliveries.map((d) => d.id));
    expect(b.data.deliveries.every((d) => d.attempts === 1 && d.last_status === 500)).toBe(true);
    // ids keep counting from where the first store stopped
    expect(b.data.seq).toBe(a.data.seq);
    b.close();
  });

  it('a clean close leaves one snapshot and no journal', () => {
    const dir = tempDir();
    const a = new Store(dir);
    history(a, 10);
    a.close();
    expect(existsSync(path.join(dir, JOURNAL_FILE))).toBe(false);
    const b = new Store(dir);
    expect(state(b)).toEqual(state(a));
    expect(() => a.putItem(newItem(a, 99))).toThrow(/closed/);
    b.close();
  });

  it('an atomic change is one journal line', () => {
    const dir = tempDir();
    const a = new Store(dir);
    const item = newItem(a, 1);
    a.atomic(() => {
      a.putItem(item, 'payout:key-1');
      a.addDelivery(newDelivery(1));
      a.addDelivery(newDelivery(2));
    });
    const lines = readFileSync(path.join(dir, JOURNAL_FILE), 'utf8').trim().split('\n');
    expect(lines).toHaveLength(1);
    expect(JSON.parse(lines[0]).ops).toHaveLength(4);
    a.close();
  });

  it('ignores a torn last journal line (a write cut short by a crash) and goes on after it', () => {
    const dir = tempDir();
    const a = new Store(dir);
    history(a, 6);
    const before = state(a);
    const journal = path.join(dir, JOURNAL_FILE);
    const whole = JSON.stringify({ s: 99, ops: [{ item: newItem(a, 7) }] });
    appendFileSync(journal, whole.slice(0, whole.length - 9));
    const b = new Store(dir);
    expect(b.tornBytes).toBe(whole.length - 9);
    expect(state(b)).toEqual(before);
    // the torn bytes are gone, so the next line is whole
    const next = newItem(b, 8);
    b.putItem(next, 'payout:key-8');
    const c = new Store(dir);
    expect(c.tornBytes).toBe(0);
    expect(c.data.items[next.id]).toEqual(JSON.parse(JSON.stringify(next)));
    c.close();
  });

  it('refuses a journal broken before its last line', () => {
    const dir = tempDir();
    const a = new Store(dir);
    a.putItem(newItem(a, 1), 'payout:key-1');
    const journal = path.join(dir, JOURNAL_FILE);
    appendFileSync(journal, '{"s":5,"ops":[{"item":\n');
    a.putItem(newItem(a, 2), 'payout:key-2');
    expect(() => new Store(dir)).toThrow(/line 2 is broken/);
  });

  it('compacts when the journal grows and keeps everything', () => {
    const dir = tempDir();
    const a = new Store(dir, { compactBytes: 4_000 });
    const journal = path.join(dir, JOURNAL_FILE);
    let compactions = 0;
    let last = 0;
    for (let i = 0; i < 300; i++) {
      const item = newItem(a, i);
      a.putItem(item, `payout:${item.idempotency_key}`);
      const size = statSync(journal).size;
      if (size < last) compactions += 1;
      last = size;
    }
    history(a, 50);
    expect(compactions).toBeGreaterThan(2);
    // the journal never holds much more than the snapshot: the rewrites stay linear in the writes
    expect(statSync(journal).size).toBeLessThanOrEqual(Math.max(4_000, statSync(path.join(dir, SNAPSHOT_FILE)).size));
    const b = new Store(dir);
    expect(Object.keys(b.data.items)).toHaveLength(350);
    expect(state(b)).toEqual(state(a));
    b.close();
  });

  it('a crash between the new snapshot and emptying the journal loses and doubles nothing', () => {
    const dir = tempDir();
    const a = new Store(dir);
    history(a, 30);
    const journal = path.join(dir, JOURNAL_FILE);
    const saved = path.join(dir, 'journal-before-compaction');
    copyFileSync(journal, saved);
    a.compact();
    expect(statSync(journal).size).toBe(0);
    // as if the process died right after the rename: the new snapshot and the old journal
    copyFileSync(saved, journal);
    const b = new Store(dir);
    expect(state(b)).toEqual(state(a));
    b.close();
  });

  it('a snapshot cut short by a crash is ignored; the last one stands', () => {
    const dir = tempDir();
    const a = new Store(dir);
    history(a, 5);
    writeFileSync(path.join(dir, `${SNAPSHOT_FILE}.tmp`), '{"items":{"po_x"');
    const b = new Store(dir);
    expect(state(b)).toEqual(state(a));
    expect(existsSync(path.join(dir, `${SNAPSHOT_FILE}.tmp`))).toBe(false);
    b.close();
  });

  it('reads a store written before the journal existed (one JSON file)', () => {
    const dir = tempDir();
    const mem = new Store();
    history(mem, 5);
    writeFileSync(path.join(dir, SNAPSHOT_FILE), JSON.stringify(mem.data));
    const b = new Store(dir);
    expect(state(b)).toEqual(state(mem));
    b.close();
  });

  it('with fsync on, writes the same', () => {
    const dir = tempDir();
    const a = new Store(dir, { fsync: true, compactBytes: 2_000 });
    history(a, 20);
    const b = new Store(dir);
    expect(state(b)).toEqual(state(a));
    b.close();
  });

  it('without a folder keeps everything in memory', () => {
    const mem = new Store();
    history(mem, 5);
    expect(mem.file).toBeUndefined();
    expect(Object.keys(mem.data.items)).toHaveLength(5);
    mem.close();
  });
});
