import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
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
  /** Processing | Completed | Failed (payouts, transfers, refunds); Initiated | Completed | Declined | Expired (pay-ins) */
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

const empty = (): StoreData => ({ items: {}, keys: {}, deliveries: [], seq: 0 });

/**
 * The simulator's small store: in memory, and, when given a folder, a JSON file there written atomically
 * (temp file + rename) shortly after each change and on close. Writes are coalesced: at most one per
 * interval, the interval growing with the time a write takes, so a big store never spends most of its time
 * rewriting itself. A hard kill can lose the last few milliseconds of changes; a clean stop loses nothing.
 */
export class Store {
  data: StoreData = empty();
  readonly file?: string;
  private timer?: NodeJS.Timeout;
  private interval = 20;

  constructor(dir?: string) {
    if (!dir) return;
    mkdirSync(dir, { recursive: true });
    this.file = path.join(dir, 'provider-store.json');
    if (existsSync(this.file))
      this.data = { ...empty(), ...(JSON.parse(readFileSync(this.file, 'utf8')) as StoreData) };
  }

  nextId(prefix: string) {
    this.data.seq += 1;
    return `${prefix}_${Date.now().toString(36)}${this.data.seq.toString(36).padStart(4, '0')}`;
  }

  /** Marks the store dirty; it is written soon. */
  changed() {
    if (!this.file || this.timer) return;
    this.timer = setTimeout(() => this.flush(), this.interval);
  }

  /** Writes the store now (when it has a file). */
  flush() {
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    if (!this.file) return;
    const started = Date.now();
    const tmp = `${this.file}.tmp`;
    writeFileSync(tmp, JSON.stringify(this.data));
    renameSync(tmp, this.file);
    this.interval = Math.min(2_000, Math.max(20, 4 * (Date.now() - started)));
  }
}
