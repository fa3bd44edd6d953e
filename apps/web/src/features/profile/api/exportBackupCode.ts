import { authOps, type InputOf } from '@obol/contract';
import { download } from '../../../lib/api.ts';

/** New backup codes (after the password), saved as a text file; the old ones stop working. */
export const exportBackupCode = (input: InputOf<typeof authOps.exportBackupCode>) =>
  download(authOps.exportBackupCode, 'obol-backup-codes.txt', input);
