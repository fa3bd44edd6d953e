import { MSG } from '@obol/contract';
import {
  CircularProgress,
  Table,
  TableBody,
  TableCell,
  TableContainer,
  TableHead,
  TableRow,
  type SxProps,
} from '@mui/material';
import type { ReactNode } from 'react';

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
