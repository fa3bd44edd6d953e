import { batchOps, type InputOf, type UploadFields } from '@obol/contract';
import { call } from '../../../lib/api.ts';

/**
 * Uploads a payout file with the fields of its form (multipart/form-data, the file last) and answers the new
 * batch's id; its staging then runs on the server (batchProgress says how far it is).
 */
export function uploadTransactions(fields: UploadFields, file: File) {
  const form = new FormData();
  for (const [name, value] of Object.entries(fields)) if (value !== undefined) form.append(name, value);
  form.append('file', file);
  // a multipart operation's body is the form itself: call() sends a FormData as it is
  return call(batchOps.uploadTransactions, form as unknown as InputOf<typeof batchOps.uploadTransactions>);
}
