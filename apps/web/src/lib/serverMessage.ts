import { TRX_MSG } from '@obol/contract';
import { ApiError, errorMessage } from './api.ts';

/** The server's own message: a 402 'Batch is in processing state.' included. */
export function serverMessage(err: unknown): string {
  if (err instanceof ApiError && err.status === 402) return err.body?.error?.[0] ?? TRX_MSG.batchProcessing;
  return errorMessage(err);
}
