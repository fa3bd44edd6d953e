import { MSG, TRX_MSG } from '@obol/contract';
import ContentCopyIcon from '@mui/icons-material/ContentCopy';
import {
  CircularProgress,
  IconButton,
  MenuItem,
  Table,
  TableBody,
  TableCell,
  TableContainer,
  TableHead,
  TableRow,
  TextField,
  type SxProps,
} from '@mui/material';
import type { ReactNode } from 'react';
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

/**
 * The table of a list: a sticky header of the column names (`headerExtra` adds to a column's name, such as a
 * tooltip), the loading or empty row, then the rows given as children.
 */
export function ListTable({
  columns,
  sx,
  loading,
  empty,
  emptyText,
  headerExtra,
  children,
}: {
  columns: readonly string[];
  sx?: SxProps;
  loading: boolean;
  empty: boolean;
  emptyText?: string;
  headerExtra?: (column: string) => ReactNode;
  children: ReactNode;
}) {
  return (
    <TableContainer sx={sx}>
      <Table size="small" stickyHeader>
        <TableHead>
          <TableRow>
            {columns.map((c) => (
              <TableCell key={c} sx={{ whiteSpace: 'nowrap', fontWeight: 600 }}>
                {c}
                {headerExtra?.(c)}
              </TableCell>
            ))}
          </TableRow>
        </TableHead>
        <TableBody>
          <BodyState loading={loading} empty={empty} colSpan={columns.length} text={emptyText} />
          {children}
        </TableBody>
      </Table>
    </TableContainer>
  );
}

/** A dropdown of a list's header (status, sort): the chosen option's value, of the options' own type. */
export function OptionSelect<T extends string | number>({
  label,
  value,
  options,
  onChange,
  minWidth = 180,
}: {
  label: string;
  value: T;
  options: readonly { label: string; value: T }[];
  onChange: (value: T) => void;
  minWidth?: number;
}) {
  return (
    <TextField
      select
      size="small"
      label={label}
      value={value}
      onChange={(e) => {
        const chosen = options.find((o) => String(o.value) === String(e.target.value));
        if (chosen) onChange(chosen.value);
      }}
      sx={{ minWidth }}
    >
      {options.map((o) => (
        <MenuItem key={o.label} value={o.value}>
          {o.label}
        </MenuItem>
      ))}
    </TextField>
  );
}
