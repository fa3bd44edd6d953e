import type { Tx } from '../../platform/db.ts';
import { platformAccountId, type PlatformKind } from '../ledger/accounts.ts';
import { postEntry, type EntryResult } from '../ledger/service.ts';

/** What a movement's reserve moves: its source pays the amount and any fee. */
export interface Reserve {
  /** the ledger's business type, its entry's kind (`<kind>.reserve`) and key's prefix (`<kind>:<id>:reserve`) */
  kind: string;
  id: number | string;
  /** the platform account holding the amount while it is in flight */
  clearing: PlatformKind;
  /** the ledger account that pays */
  source: number;
  amount: number;
  /** kept by the Fee Account; none by default */
  fee?: number;
  createdBy?: number;
  memo?: string;
}

/**
 * The reserve of money going out, written by the command that creates it, in its transaction (movement.ts): the
 * source -(amount + fee), the kind's clearing account +amount, the Fee Account +fee (when there is one). Its
 * settlement then completes it from clearing or reverses it (settle.ts).
 */
export async function postReserve(tx: Tx, r: Reserve): Promise<EntryResult> {
  const fee = r.fee ?? 0;
  const postings = [
    { accountId: r.source, amount: -(r.amount + fee) },
    { accountId: await platformAccountId(tx, r.clearing), amount: r.amount },
  ];
  if (fee > 0) postings.push({ accountId: await platformAccountId(tx, 'fee'), amount: fee });
  return postEntry(tx, {
    idempotencyKey: `${r.kind}:${r.id}:reserve`,
    kind: `${r.kind}.reserve`,
    businessType: r.kind,
    businessId: r.id,
    createdBy: r.createdBy,
    memo: r.memo,
    postings,
  });
}
