import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import path from 'node:path';

export type Kind = 'payout' | 'transfer' | 'payin' | 'refund';

export interface Item {
  id: string;
  kind: Kind;
  idempotency_key: string;
  request_hash: string;
  reference: string;
  amount: number;
  status: string;
  message?: string;
  created_at: string;
  /** when a Processing item settles (ms since epoch) */
  settle_at?: number;
  settled_at?: string;
  data: Record<string, unknown>;
}

export interface Delivery {
  id: string;
  body: string;
  attempts: number;
  next_at: number;
}

export interface StoreData {
  items: Record<string, Item>;
  /** kind:idempotency_key -> item id */
  keys: Record<string, string>;
  deliveries: Delivery[];
  seq: number;
}

/** The simulator's small store: in memory, written atomically to a JSON file after each change when it has a folder. */
export class Store {
  data: StoreData = { items: {}, keys: {}, deliveries: [], seq: 0 };
  private file?: string;
  private timer?: NodeJS.Timeout;

  constructor(dir?: string) {
    if (dir) {
      mkdirSync(dir, { recursive: true });
      this.file = path.join(dir, 'provider-store.json');
      if (existsSync(this.file)) this.data = JSON.parse(readFileSync(this.file, 'utf8')) as StoreData;
    }
  }

  nextId(prefix: string) {
    this.data.seq += 1;
    return `${prefix}_${Date.now().toString(36)}${this.data.seq.toString(36).padStart(4, '0')}`;
  }

  changed() {
    if (!this.file || this.timer) return;
    this.timer = setTimeout(() => this.flush(), 20);
  }

  flush() {
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    if (!this.file) return;
    const tmp = `${this.file}.tmp`;
    writeFileSync(tmp, JSON.stringify(this.data));
    renameSync(tmp, this.file);
  }
}
