import type { Movement, MovementRow } from '../engine/movement.ts';
import { accountingMovement } from '../accounting/settlement.ts';
import { refundMovement } from '../payins/refunds.ts';
import { payinMovement } from '../payins/settle.ts';
import { rewardMovement } from '../payins/rewards.ts';
import { transferMovement } from '../transfers/movement.ts';
import { payoutMovement } from '../batches/payout-movement.ts';

/**
 * Every movement kind the money engine moves (engine/movement.ts): the webhook finds an event's kind among them,
 * and the recovery sweep (workers.ts) runs the one recover path over each.
 */
export const MOVEMENTS: readonly Movement<MovementRow>[] = [
  payoutMovement,
  transferMovement,
  refundMovement,
  rewardMovement,
  accountingMovement,
  payinMovement,
];
