import { getTableColumns } from 'drizzle-orm';
import type { PgColumn, PgTable } from 'drizzle-orm/pg-core';
import type { Deps } from '../../platform/deps.ts';
import type { Tx } from '../../platform/db.ts';
import type { Config } from '../../platform/config.ts';
import type { ProviderClient } from '../../platform/provider.ts';
import type { ProviderBatchResult, ProviderItem } from '../../platform/provider-answers.ts';
import type { ProviderEvent } from '@obol/contract';
import type { PlatformKind } from '../ledger/accounts.ts';
import type { Status } from './status.ts';

// The money engine's declaration of a movement kind (docs/decisions/034-one-money-engine.md): what a feature
// writes to have its movements sent (submit.ts), settled from the provider's word (settle.ts) and recovered when
// left in flight (recover.ts), and how those read the declared table's columns.

/**
 * Where a movement is, in the one status vocabulary its table stores (status.ts); the screens' words are made at
 * the edge, so the lists and their answers keep theirs.
 */
export type MovementState = Extract<Status, 'in_flight' | 'completed' | 'failed'>;
export type Settled = Exclude<MovementState, 'in_flight'>;

/** The columns every movement's row has (its status and key columns are named by the declaration). */
export interface MovementRow {
  id: number;
  amount: number;
  providerId: string | null;
}

/**
 * A movement of money through the provider, declared once as data (issue 47): its table, the way
 * its money goes (out through a clearing account, or in to the holder's account), the provider call that submits
 * it and the look-up that settles it. The engine's submit, settle and recover serve every kind declared so;
 * the reserve of money going out is written by the command that creates it (`postReserve`, reserve.ts: source ->
 * clearing), as only the command knows the source.
 */
export interface Movement<R extends MovementRow> {
  /** the ledger's business type, its entries' kinds (`<kind>.complete`, `<kind>.reversal`) and keys' prefix */
  kind: string;
  /**
   * Where its ledger names differ from `kind`: the business type, the entries' kind and their keys (by default
   * `<kind>:<id>:reserve` and `<kind>:<id>:complete`)
   */
  ledger?: { businessType?: string; entryKind?: string; key?(row: R, step: 'reserve' | 'complete'): string };
  table: PgTable;
  /**
   * its status column; `key`, the key the provider's word names it by (its idempotency key, unique; a pay-in: the
   * provider's link id), null while nothing was sent (a reward not yet paid); `since`: the time the recovery counts
   * its age from
   */
  columns: { id: PgColumn; status: PgColumn; key: PgColumn; providerId: PgColumn; since: PgColumn };
  /**
   * Money out: the platform account holding it while in flight (the completion moves it clearing -> provider, a
   * failure reverses the reserve). Money in (`inbound`): nothing is reserved; the completion credits the row's
   * account from the provider, a failure moves nothing.
   */
  clearing?: PlatformKind;
  inbound?: { account(row: R): number; memo?(row: R): string };
  /**
   * The provider's webhook event types that speak of it; where kinds share a type (a transfer and a 2D transfer
   * are both provider transfers), `ownsKey` tells its keys apart, and the kinds with one are asked first.
   */
  events: readonly string[];
  ownsKey?(key: string): boolean;
  /** the key an event names it by, where not the event's idempotency key (a pay-in's: the link id) */
  eventKey?(data: ProviderEvent['data']): string | undefined;
  /** how old one still in flight must be before the recovery asks the provider about it */
  recoverAfterMs: number | ((config: Config) => number);
  /**
   * sends it to the provider under its idempotency key; answers the provider's id (ProviderRejected: refused).
   * Absent: the command that creates it makes it at the provider (a pay-in's link), so it is never sent here.
   */
  send?(deps: Deps, row: R): Promise<string>;
  /** sends many in one call, each under its own key (a batch's payouts); each accepted or rejected */
  sendMany?(deps: Deps, rows: R[]): Promise<ProviderBatchResult[]>;
  /** the provider's item under the key, or null if the provider never received it */
  lookup(provider: ProviderClient, key: string): Promise<ProviderItem | null>;
  /** the provider's items under many keys in one call (those it never received are absent) */
  lookupMany?(provider: ProviderClient, keys: string[]): Promise<ProviderItem[]>;
  /**
   * The ledger of its settlements, in their transaction, in place of one completion entry or reserve reversal
   * each (payouts: the completions written together, a batch payout's fee share returned)
   */
  postSettled?(tx: Tx, settled: { row: R; state: Settled }[]): Promise<void>;
  /**
   * The status of a settled item where the kind has a finer one than the state (a pay-in expired rather than
   * failed); the status column takes it instead of the state.
   */
  statusOf?(item: ProviderItem): Status | undefined;
  /**
   * the columns its settlement sets besides the status and the provider id (the reason of a failure, times),
   * `status` the finer one when `statusOf` gave one
   */
  settledColumns(state: Settled, reason: string, status?: Status): Record<string, unknown>;
  /** the reason written when the provider gives none */
  defaultReason: string;
  /** more columns its sending sets besides the provider id */
  sentColumns?(): Record<string, unknown>;
  /** what else moves in the settlement's transaction (a refund's pay-in refund status) */
  alsoOnSettle?(tx: Tx, row: R, state: Settled): Promise<void>;
}

/** The property of the table's row that holds its status column. */
export const statusField = <R extends MovementRow>(m: Movement<R>): string => {
  const hit = Object.entries(getTableColumns(m.table)).find(([, c]) => c === m.columns.status);
  if (!hit) throw new Error(`${m.kind}: its status column is not a column of its table`);
  return hit[0];
};

/** The key the provider's word names a row by (its declared key column's value). */
export const keyOf = <R extends MovementRow>(m: Movement<R>, row: R): string | null => {
  const hit = Object.entries(getTableColumns(m.table)).find(([, c]) => c === m.columns.key);
  if (!hit) throw new Error(`${m.kind}: its key column is not a column of its table`);
  return (row as unknown as Record<string, string | null>)[hit[0]];
};

/** A column of the declaration's table by its property name (for the engine's set-based statements). */
export const columnOf = <R extends MovementRow>(m: Movement<R>, field: string) => {
  const c = getTableColumns(m.table)[field];
  if (!c) throw new Error(`${m.kind}: ${field} is not a column of its table`);
  return c;
};
