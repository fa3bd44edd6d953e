import { MSG, TRX_MSG } from '@obol/contract';
import ContentCopyIcon from '@mui/icons-material/ContentCopy';
import { CircularProgress, IconButton, TableCell, TableRow } from '@mui/material';
import { ApiError, errorMessage } from '../../lib/api.ts';
import { useNotify } from '../../ui/notifications.tsx';

/** The browser's IANA time zone: the server reads the date filters as calendar days there. */
export function browserTimeZone(): string {
  try {
    return Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC';
  } catch {
    return 'UTC';
  }
}

/** Today in the browser's time zone, YYYY-MM-DD (the upper bound of the date filters). */
export function today(now = new Date()): string {
  const p = (n: number) => String(n).padStart(2, '0');
  return `${now.getFullYear()}-${p(now.getMonth() + 1)}-${p(now.getDate())}`;
}

/** The server's own message: a 402 'Batch is in processing state.' included. */
export function serverMessage(err: unknown): string {
  if (err instanceof ApiError && err.status === 402) return err.body?.error?.[0] ?? TRX_MSG.batchProcessing;
  return errorMessage(err);
}

/** Copies a text and says so: 'Success!' 'Copied To Clipboard'. */
export function useCopy() {
  const { notify } = useNotify();
  return async (text: string) => {
    await navigator.clipboard?.writeText(text).catch(() => undefined);
    notify('success', MSG.copied, 'Success!');
  };
}

export function CopyButton({ text, label }: { text: string; label: string }) {
  const copy = useCopy();
  return (
    <IconButton size="small" aria-label={label} onClick={() => copy(text)}>
      <ContentCopyIcon fontSize="inherit" />
    </IconButton>
  );
}

/** The one row of a table body that is loading or has nothing to show; null when there are rows. */
export function BodyState({
  loading,
  empty,
  colSpan,
  text = MSG.noRecord,
}: {
  loading: boolean;
  empty: boolean;
  colSpan: number;
  text?: string;
}) {
  if (!loading && !empty) return null;
  return (
    <TableRow>
      <TableCell colSpan={colSpan} align="center" sx={{ py: 4 }}>
        {loading ? <CircularProgress size={24} aria-label="Loading" /> : text}
      </TableCell>
    </TableRow>
  );
}
