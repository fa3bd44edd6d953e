import { randomBytes } from 'node:crypto';

/** A new batch's public id (a manual payout is a batch of one). */
export const newBatchId = () =>
  `B${Date.now().toString(36).toUpperCase()}${randomBytes(4).toString('hex').toUpperCase()}`;
