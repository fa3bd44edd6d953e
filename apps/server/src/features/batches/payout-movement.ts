import { payoutMovementWith } from '../payouts/movement.ts';
import { returnsFromBatch } from './returns.ts';

/**
 * The payout movement, every payout's (manual or of a batch): payouts/movement.ts with what a failed payout returns
 * of its batch's fee (returns.ts). Batches sit above payouts, so the payout's declaration is completed here.
 */
export const payoutMovement = payoutMovementWith(returnsFromBatch);
