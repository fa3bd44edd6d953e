import { batchOps } from '@obol/contract';
import { download } from '../../../lib/api.ts';

/** Saves the CSV template of a payout file. */
export const csvTemplate = () => download(batchOps.csvTemplate, 'payout-template.csv');
