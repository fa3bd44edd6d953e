import type { AccountChoice, HolderChoice } from '@obol/contract';

export type { AccountChoice };

/** A merchant or brand to pay out for: a merchant comes with its active brands. */
export type HolderOption = HolderChoice & { active_brands?: HolderChoice[] };

export interface Selection {
  type: 'manual' | 'batch' | null;
  holder: HolderOption | null;
  account: AccountChoice | null;
  balance: number | null;
  fee: number;
}
