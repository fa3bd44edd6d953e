import { providerOps } from '@obol/contract';
import { call } from '../../../lib/api.ts';

/** Who holds a wallet (the Obol Checker, opened from the profile). */
export const walletChecker = (obolId: string) => call(providerOps.walletChecker, { obol_id: obolId });
