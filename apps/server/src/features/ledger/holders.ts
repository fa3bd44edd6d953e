import type { HolderOption } from '@obol/contract';
import type { Executor } from '../../platform/db.ts';
import type { Scope } from '../../platform/scope.ts';
import type { HoldersUnder } from './accounts.ts';

/**
 * What the ledger's screens need to know of the merchants and brands that hold accounts. The ledger is the bottom
 * layer and imports no feature: the app hands these in (users' and merchants' look-ups).
 */
export interface Holders {
  under: HoldersUnder;
  /** a merchant's or brand's fee in basis points (0 for a user without one) */
  feeBpsOf: (db: Executor, holderId: number) => Promise<number>;
  /** a merchant or brand in the scope; undefined for one outside it, exactly as for none */
  find: (db: Executor, scope: Scope, id: number) => Promise<{ id: number; name: string; feeBps: number } | undefined>;
  /** the merchant/brand picker */
  search: (db: Executor, scope: Scope, search: string) => Promise<HolderOption[]>;
}
