import {
  closeSync,
  existsSync,
  fsyncSync,
  ftruncateSync,
  mkdirSync,
  openSync,
  readFileSync,
  renameSync,
  rmSync,
  statSync,
  unlinkSync,
  writeSync,
} from 'node:fs';
import path from 'node:path';

export type Kind = 'payout' | 'transfer' | 'payin' | 'refund';

/** One payout, transfer, pay-in link or refund. */
export interface Item {
  id: string;
  kind: Kind;
  idempotency_key: string;
  /** sha-256 of the request payload, to tell a replay from a different request under the same key */
  request_hash: string;
  reference: string;
  amount: number;
  /**
   * Processing | Completed | Failed (payouts, transfers, refunds);
   * Initiated | Completed | Declined | Expired (pay-ins)
   */
  status: string;
  message?: string;
  created_at: string;
  /** when a Processing item settles (ms since epoch) */
  settle_at?: number;
  settled_at?: string;
  /** the first answer to the create request, answered again to a replay of it */
  response?: unknown;
  data: Record<string, unknown>;
}

/** A webhook waiting to be delivered (kept until the receiver answers 2xx). */
export interface Delivery {
  id: string;
  event_id: string;
  type: string;
  /** the item the event is about (its events are delivered in order); absent in journals written before */
  item_id?: string;
  body: string;
  attempts: number;
  next_at: number;
  last_status?: number;
  last_error?: string;
}

export interface StoreData {
  /** payouts, transfers, pay-in links and refunds by id; the settled ones make the statement */
  items: Record<string, Item>;
  /** idempotency records: `<kind>:<idempotency_key>` -> item id */
  keys: Record<string, string>;
  deliveries: Delivery[];
  seq: number;
}

/**
 * One change, as a journal line carries it. Every op sets or deletes one thing to a value it carries in
 * full, so replaying a journal over a snapshot that already holds some of its ops gives the same state.
 */
export type Op =
  | { item: Item } // an item, whole (new or changed)
  | { key: string; id: string } // an idempotency record
  | { delivery: Delivery } // a webhook delivery, whole (new, or after an attempt)
  | { delivered: string }; // a delivery removed (acknowledged), by id

/** A journal line: `{"s": <seq>, "ops": [...]}`, applied all or nothing. */
interface Line {
  s: number;
  ops: Op[];
}

export interface StoreOptions {
  /** fsync the journal after every write and the snapshot before it replaces the last one (PROVIDER_FSYNC=1) */
  fsync?: boolean;
  /** the journal is folded into a new snapshot when it reaches this size, or the snapshot's size if bigger (4 MiB) */
  compactBytes?: number;
}

export const SNAPSHOT_FILE = 'provider-store.json';
export const JOURNAL_FILE = 'provider-journal.jsonl';

const empty = (): StoreData => ({ items: {}, keys: {}, deliveries: [], seq: 0 });

/**
 * The simulator's store: in memory and, when given a folder, durable there before anything is answered.
 *
 * - `provider-journal.jsonl`: one JSON line per change (an item put, an idempotency record, a delivery added,
 *   changed or removed, with the id sequence), appended with a synchronous write() before the request that
 *   made the change is answered, so a process killed right after answering has it. With `fsync` every line
 *   is also flushed to the disk (needed only against a power loss, not a process kill).
 * - `provider-store.json`: the snapshot, written to a temp file and renamed over the last one, when the
 *   journal has grown as big as the snapshot (so the rewriting costs a constant factor, not a quadratic),
 *   at every start and on close; the journal is then emptied (and removed on close).
 *
 * At start the snapshot is loaded and the journal replayed over it. A torn last line (a write cut short by
 * a crash: it was never answered) is ignored; a broken line before the last is refused, as the store could
 * no longer be trusted. A write that fails marks the store `broken`: it refuses every change after it, and
 * the process should stop (a restart replays what was written).
 *
 * Every mutation of `data` goes through a method below: `putItem` (after changing an item in place),
 * `addDelivery`, `updateDelivery`, `removeDelivery`; `atomic(fn)` makes the changes in `fn` one line.
 */
export class Store {
  data: StoreData = empty();
  /** the snapshot file (unset: memory only) */
  readonly file?: string;
  readonly journalFile?: string;
  /** set when a write failed: nothing is recorded any more */
  broken?: Error;
  /** bytes of a torn last journal line ignored at start (0: none) */
  readonly tornBytes: number = 0;
  private fd?: number;
  private journalBytes = 0;
  private snapshotBytes = 0;
  private pending: Op[] | null = null;
  private closed = false;
  private readonly fsync: boolean;
  private readonly compactBytes: number;

  constructor(dir?: string, opts: StoreOptions = {}) {
    this.fsync = opts.fsync ?? false;
    this.compactBytes = opts.compactBytes ?? 4 * 1024 * 1024;
    if (!dir) return;
    mkdirSync(dir, { recursive: true });
    this.file = path.join(dir, SNAPSHOT_FILE);
    this.journalFile = path.join(dir, JOURNAL_FILE);
    rmSync(`${this.file}.tmp`, { force: true }); // a snapshot cut short by a crash; the last one still stands
    if (existsSync(this.file))
      this.data = { ...empty(), ...(JSON.parse(readFileSync(this.file, 'utf8')) as StoreData) };
    if (existsSync(this.journalFile)) this.tornBytes = this.replay(readFileSync(this.journalFile, 'utf8'));
    this.fd = openSync(this.journalFile, 'a');
    this.journalBytes = statSync(this.journalFile).size;
    // fold what the journal holds into a fresh snapshot (this also drops a torn last line)
    if (this.journalBytes > 0 || !existsSync(this.file)) this.compact();
    else this.snapshotBytes = statSync(this.file).size;
  }

  /** Applies the journal's lines over the snapshot; answers the length of a torn last line ignored. */
  private replay(text: string): number {
    const deliveries = new Map(this.data.deliveries.map((d) => [d.id, d]));
    const lines = text.split('\n');
    let torn = 0;
    lines.forEach((raw, i) => {
      if (!raw.trim()) return;
      let line: Line;
      try {
        line = JSON.parse(raw) as Line;
        if (!Array.isArray(line.ops)) throw new Error('no ops');
      } catch (e) {
        // the last line lacks its newline only when its write was cut short
        if (i === lines.length - 1) {
          torn = Buffer.byteLength(raw);
          return;
        }
        throw new Error(`${this.journalFile}: line ${i + 1} is broken (${(e as Error).message}); refusing to start`);
      }
      this.data.seq = Math.max(this.data.seq, Number(line.s) || 0);
      for (const op of line.ops) {
        if ('item' in op) this.data.items[op.item.id] = op.item;
        else if ('key' in op) this.data.keys[op.key] = op.id;
        else if ('delivery' in op) deliveries.set(op.delivery.id, op.delivery);
        else if ('delivered' in op) deliveries.delete(op.delivered);
        else throw new Error(`${this.journalFile}: line ${i + 1} has an unknown change ${JSON.stringify(op)}`);
      }
    });
    this.data.deliveries = [...deliveries.values()];
    return torn;
  }

  nextId(prefix: string) {
    this.data.seq += 1;
    return `${prefix}_${Date.now().toString(36)}${this.data.seq.toString(36).padStart(4, '0')}`;
  }

  /**
   * Stores an item as it is now (new, or changed in place); with `key` (`<kind>:<idempotency_key>`) also its
   * idempotency record.
   */
  putItem(item: Item, key?: string) {
    this.data.items[item.id] = item;
    if (key === undefined) return this.record([{ item }]);
    this.data.keys[key] = item.id;
    this.record([{ item }, { key, id: item.id }]);
  }

  addDelivery(d: Delivery) {
    this.data.deliveries.push(d);
    this.record([{ delivery: d }]);
  }

  /** records a delivery changed in place (an attempt) */
  updateDelivery(d: Delivery) {
    this.record([{ delivery: d }]);
  }

  removeDelivery(d: Delivery) {
    const i = this.data.deliveries.indexOf(d);
    if (i >= 0) this.data.deliveries.splice(i, 1);
    this.record([{ delivered: d.id }]);
  }

  /** removes deliveries acknowledged together (one batched webhook), in one pass and one journal line */
  removeDeliveries(ds: Delivery[]) {
    if (ds.length === 1) return this.removeDelivery(ds[0]);
    const gone = new Set(ds);
    this.data.deliveries = this.data.deliveries.filter((d) => !gone.has(d));
    this.record(ds.map((d) => ({ delivered: d.id })));
  }

  /** Runs `fn` and writes every change it records as one journal line: after a crash, all of them or none. */
  atomic<T>(fn: () => T): T {
    if (this.pending) return fn();
    this.pending = [];
    try {
      return fn();
    } finally {
      const ops = this.pending;
      this.pending = null;
      if (ops.length) this.write(ops);
    }
  }

  private record(ops: Op[]) {
    if (this.pending) this.pending.push(...ops);
    else this.write(ops);
  }

  private write(ops: Op[]) {
    if (this.broken) throw this.broken;
    if (this.fd === undefined) {
      if (this.closed && this.file) throw new Error('the provider store is closed');
      return; // memory only
    }
    try {
      const buf = Buffer.from(`${JSON.stringify({ s: this.data.seq, ops } satisfies Line)}\n`);
      for (let done = 0; done < buf.length;) done += writeSync(this.fd, buf, done);
      if (this.fsync) fsyncSync(this.fd);
      this.journalBytes += buf.length;
    } catch (e) {
      this.broken = new Error(`the provider store could not write its journal: ${(e as Error).message}`);
      throw this.broken;
    }
    if (this.journalBytes >= Math.max(this.compactBytes, this.snapshotBytes)) this.compact();
  }

  /** Writes the whole store as a new snapshot (temp file + rename) and empties the journal. */
  compact() {
    if (!this.file || this.fd === undefined || this.broken) return;
    try {
      const tmp = `${this.file}.tmp`;
      const buf = Buffer.from(JSON.stringify(this.data));
      const fd = openSync(tmp, 'w');
      try {
        for (let done = 0; done < buf.length;) done += writeSync(fd, buf, done);
        if (this.fsync) fsyncSync(fd);
      } finally {
        closeSync(fd);
      }
      renameSync(tmp, this.file);
      if (this.fsync) {
        const dir = openSync(path.dirname(this.file), 'r');
        try {
          fsyncSync(dir);
        } finally {
          closeSync(dir);
        }
      }
      // a crash here leaves the old journal beside the new snapshot: replaying it changes nothing (see Op)
      ftruncateSync(this.fd, 0);
      if (this.fsync) fsyncSync(this.fd);
      this.journalBytes = 0;
      this.snapshotBytes = buf.length;
    } catch (e) {
      this.broken = new Error(`the provider store could not write its snapshot: ${(e as Error).message}`);
      throw this.broken;
    }
  }

  /** Writes the snapshot, removes the journal and closes it; later changes are refused. */
  close() {
    if (this.closed) return;
    this.closed = true;
    if (this.fd === undefined) return;
    if (!this.broken) this.compact();
    closeSync(this.fd);
    this.fd = undefined;
    if (!this.broken) unlinkSync(this.journalFile!);
  }
}
