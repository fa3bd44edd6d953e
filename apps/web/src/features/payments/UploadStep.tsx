import { MSG, PAYMENT_MSG } from '@obol/contract';
import UploadFileIcon from '@mui/icons-material/UploadFile';
import { Alert, Box, Button, LinearProgress, Link, Stack, Typography } from '@mui/material';
import { useEffect, useRef, useState } from 'react';
import { useNavigate } from 'react-router';
import { ApiError } from '../../lib/api.ts';
import { sessionStore } from '../../lib/session.ts';
import { useNotify } from '../../ui/notifications.tsx';
import { batchProgress } from './api/batchProgress.ts';
import { csvTemplate } from './api/csvTemplate.ts';
import { saveBatch } from './api/saveBatch.ts';
import { uploadTransactions } from './api/uploadTransactions.ts';
import type { Selection } from './types.ts';

const ACCEPTED = /\.(csv|xlsx)$/i;
export const POLL_MS = 500;

export function UploadStep({ selection, onPrevious }: { selection: Selection; onPrevious: () => void }) {
  const { notify } = useNotify();
  const navigate = useNavigate();
  const [file, setFile] = useState<File | null>(null);
  const [progress, setProgress] = useState<{ done: number; total: number } | null>(null);
  const [busy, setBusy] = useState(false);
  const timers = useRef<number[]>([]);
  useEffect(() => () => timers.current.forEach((t) => clearTimeout(t)), []);

  const choose = (f: File | undefined) => {
    if (!f) return;
    if (!ACCEPTED.test(f.name)) {
      notify('error', PAYMENT_MSG.uploadType);
      return;
    }
    setFile(f);
  };

  const template = async () => {
    try {
      await csvTemplate();
    } catch (err) {
      notify('error', err instanceof ApiError ? err.display : MSG.somethingWrong);
    }
  };

  const upload = async () => {
    if (!file || !selection.holder || !selection.account) return;
    setBusy(true);
    try {
      const { batch_id } = await uploadTransactions(
        {
          file_name: file.name,
          behalf_of_id: String(selection.holder.id),
          account_reference: selection.account.account_reference || 'Fee Account',
        },
        file,
      );
      const poll = async () => {
        try {
          const p = await batchProgress({ id: batch_id });
          setProgress({ done: p.processedJobs, total: p.totalJobs });
          if (p.totalJobs > 0 && p.processedJobs >= p.totalJobs && p.status !== 'Processing') {
            const saved = await saveBatch({
              batch_id,
              merchant_name: selection.holder!.name,
              file_name: file.name,
              account_reference: selection.account!.account_reference,
            });
            sessionStore.setBatch({
              batch_id,
              merchant_name: selection.holder!.name,
              file_name: saved.batch.file_name,
              account_reference: selection.account!.account_reference,
              batch_status: saved.batch.batch_status,
            });
            timers.current.push(window.setTimeout(() => navigate('/payments/transactions'), 1000));
            return;
          }
          timers.current.push(window.setTimeout(poll, POLL_MS));
        } catch (err) {
          setBusy(false);
          setProgress(null);
          notify('error', err instanceof ApiError ? err.display : MSG.somethingWrong);
        }
      };
      await poll();
    } catch (err) {
      setBusy(false);
      const e = err instanceof ApiError ? err : null;
      notify('error', e && [400, 402, 429].includes(e.status) ? e.display : MSG.somethingWrong);
    }
  };

  const pct = progress && progress.total ? Math.round((100 * progress.done) / progress.total) : 0;
  return (
    <Stack spacing={2}>
      <Alert severity="info">
        Upload a CSV or spreadsheet (.xlsx) with the columns beneficiary_name, obol_id, merchant_transaction_id, brand,
        reference and amount (in cents), at most 100,000 rows.{' '}
        <Link component="button" type="button" onClick={template}>
          Download the CSV template
        </Link>
      </Alert>
      <Box sx={{ border: '2px dashed', borderColor: 'divider', borderRadius: 2, p: 3, textAlign: 'center' }}>
        <Button component="label" variant="outlined" startIcon={<UploadFileIcon />} disabled={busy}>
          Choose file
          <input
            hidden
            type="file"
            accept=".csv,.xlsx,text/csv,application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"
            data-testid="upload-input"
            onChange={(e) => choose(e.target.files?.[0])}
          />
        </Button>
        <Typography sx={{ mt: 1 }} color="textSecondary">
          {file ? file.name : 'No file chosen'}
        </Typography>
      </Box>
      {progress ? (
        <Box>
          <LinearProgress variant="determinate" value={pct} aria-label="Upload progress" />
          <Typography variant="body2" sx={{ mt: 0.5 }}>
            {progress.done} of {progress.total} rows checked ({pct}%)
          </Typography>
        </Box>
      ) : null}
      <Stack direction="row" spacing={2}>
        <Button onClick={onPrevious} disabled={busy}>
          Previous
        </Button>
        <Button variant="contained" onClick={upload} disabled={!file || busy}>
          Upload
        </Button>
      </Stack>
    </Stack>
  );
}
