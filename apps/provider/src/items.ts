import { createHash } from 'node:crypto';
import type { Item, Kind, Store } from './store.ts';

// ---- what an item looks like on the wire ----
export function publicData(i: Item) {
  const { refunded: _refunded, ...rest } = i.data;
  return i.kind === 'payin' ? { ...rest, refunded_amount: Number(i.data.refunded ?? 0) } : rest;
}
export const view = (i: Item) => ({
  id: i.id,
  status: i.status,
  idempotency_key: i.idempotency_key,
  reference: i.reference,
  amount: i.amount,
  currency: 'EUR',
  ...(i.message ? { message: i.message } : {}),
  created_at: i.created_at,
  ...(i.settled_at ? { settled_at: i.settled_at } : {}),
  ...publicData(i),
});

// ---- idempotency: one item per kind and key ----
/** the request hash an item keeps, to tell a replay from a different request under the same key */
export const hash = (v: unknown) => createHash('sha256').update(JSON.stringify(v)).digest('hex');
export const CONFLICT = 'idempotency_key was already used with a different request';

/**
 * Idempotency: a key seen before with the same payload answers the first result (`replay`), with another
 * payload `conflict`; a new key answers `new`.
 */
export function priorUse(
  store: Store,
  kind: Kind,
  key: string,
  requestHash: string,
): { item: Item } | 'conflict' | 'new' {
  const prior = store.data.keys[`${kind}:${key}`];
  if (!prior) return 'new';
  const item = store.data.items[prior];
  return item.request_hash === requestHash ? { item } : 'conflict';
}
export function insert(
  store: Store,
  kind: Kind,
  key: string,
  requestHash: string,
  fields: Omit<Item, 'kind' | 'idempotency_key' | 'request_hash' | 'created_at'>,
) {
  const item: Item = {
    ...fields,
    kind,
    idempotency_key: key,
    request_hash: requestHash,
    created_at: new Date().toISOString(),
  };
  item.response = view(item);
  store.putItem(item, `${kind}:${key}`); // on disk before the answer
  return item;
}
