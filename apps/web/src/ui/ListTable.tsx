import {
  Box,
  CircularProgress,
  Stack,
  Table,
  TableBody,
  TableCell,
  TableContainer,
  TableHead,
  TableRow,
  useMediaQuery,
  type SxProps,
  type Theme,
} from '@mui/material';
import type { ReactNode } from 'react';
import { useTablePrefs } from '../lib/tablePrefs.ts';
import { defaultsOf, type Column, type EmptyState, type RowAction } from './columns.ts';
import { ColumnsMenu } from './ColumnsMenu.tsx';
import { EmptyMessage } from './EmptyState.tsx';
import { RowCards } from './RowCards.tsx';

export type { Column, EmptyState, NextAction, RowAction } from './columns.ts';

/** The one row of a table body that is loading or has nothing to show; null when there are rows. */
export function BodyState({
  loading,
  empty,
  colSpan,
  state,
}: {
  loading: boolean;
  empty: boolean;
  colSpan: number;
  state?: EmptyState;
}) {
  if (!loading && !empty) return null;
  return (
    <TableRow>
      <TableCell colSpan={colSpan} align="center" sx={{ py: 4 }}>
        {/* centred in the visible part of a table wider than its card (cqi: the scrolling container's width), not
            on the whole scroll width */}
        <Box data-empty-state sx={{ position: 'sticky', left: 16, width: 'calc(100cqi - 32px)', textAlign: 'center' }}>
          {loading ? <CircularProgress size={24} aria-label="Loading" /> : <EmptyMessage empty={state} />}
        </Box>
      </TableCell>
    </TableRow>
  );
}

/** the action column stays in view when the user shows more columns than fit */
const stickyRight: SxProps<Theme> = {
  position: 'sticky',
  right: 0,
  bgcolor: 'background.paper',
  boxShadow: (t) => `inset 1px 0 0 ${t.palette.divider}`,
};

/** A changed row: its background fades from the accent's tint (no motion for those who ask for none). */
const FRESH_ROW = {
  '@keyframes obol-fresh': { from: { backgroundColor: 'var(--obol-fresh)' }, to: { backgroundColor: 'transparent' } },
  '--obol-fresh': (t: Theme) => t.vars?.palette.action.selected ?? t.palette.action.selected,
  animation: 'obol-fresh 3s ease-out',
  '@media (prefers-reduced-motion: reduce)': { animation: 'none', backgroundColor: 'action.hover' },
} as const;

export interface ListTableProps<T> {
  /** the table's id for its stored preferences (columns, order, density) */
  id: string;
  /** names the table (and the list of cards on a phone) for assistive technology */
  label: string;
  columns: readonly Column<T>[];
  rows: readonly T[];
  rowKey: (row: T) => string | number;
  action?: RowAction<T>;
  loading: boolean;
  /** what an empty list says and offers next (clear the filters, or the page's create action) */
  empty?: EmptyState;
  /** the scrolling area's size (the header sticks to its top) */
  sx?: SxProps<Theme>;
  /** shown left of the Columns button (a search box, a status select) */
  toolbar?: ReactNode;
  /** a first, fixed column before the others (row selection) */
  lead?: { header: ReactNode; cell: (row: T) => ReactNode };
  /** a cell's content in place of the column's own (a row being edited) */
  cellOverride?: (row: T, column: Column<T>) => ReactNode | undefined;
  rowSelected?: (row: T) => boolean;
  /** a row that changed a moment ago (a live event): marked briefly, without moving anything */
  rowFresh?: (row: T) => boolean;
  /** a TableFooter under the rows */
  footer?: ReactNode;
}

/**
 * The table of a list, done once for every list screen: the columns the user chose in the order they chose
 * (Columns menu, remembered per user and table), the density, a sticky header, the row action always last and in
 * view; on a phone (below 600 px) each row is a card instead of a table that scrolls sideways.
 */
export function ListTable<T>(props: ListTableProps<T>) {
  const { id, label, columns, rows, rowKey, action, loading, empty, sx, toolbar, lead, footer } = props;
  const phone = useMediaQuery((t: Theme) => t.breakpoints.down('sm'), { noSsr: true });
  const state = useTablePrefs(id, defaultsOf(columns, action));
  const byId = new Map(columns.map((c) => [c.id, c]));
  const shown = state.visible.map((v) => byId.get(v)).filter((c): c is Column<T> => !!c);
  const labels = Object.fromEntries(columns.map((c) => [c.id, c.label]));
  const content = (row: T, c: Column<T>) => props.cellOverride?.(row, c) ?? c.cell(row);
  const span = shown.length + (action ? 1 : 0) + (lead ? 1 : 0);

  return (
    <>
      <Stack
        direction="row"
        spacing={2}
        useFlexGap
        sx={{ alignItems: 'center', justifyContent: 'space-between', flexWrap: 'wrap', px: 2, py: 1 }}
      >
        {toolbar ? (
          <Stack
            direction={{ xs: 'column', sm: 'row' }}
            spacing={2}
            useFlexGap
            sx={{
              flex: 1,
              flexWrap: 'wrap',
              minWidth: { xs: '100%', sm: 0 },
              '& > .MuiFormControl-root': { width: { xs: '100%', sm: 'auto' } },
            }}
          >
            {toolbar}
          </Stack>
        ) : null}
        <Stack direction="row" sx={{ ml: 'auto' }}>
          <ColumnsMenu labels={labels} state={state} />
        </Stack>
      </Stack>
      {phone ? (
        <RowCards
          label={label}
          columns={shown}
          rows={rows}
          rowKey={rowKey}
          action={action}
          lead={lead?.cell}
          content={content}
          loading={loading}
          empty={empty}
          footer={footer}
        />
      ) : (
        // the table scrolls (sideways when its columns are wider than the page): keyboard users reach it with Tab
        // and scroll it with the arrow keys, whether or not a row holds a button
        <TableContainer
          sx={[{ containerType: 'inline-size' }, ...toArray(sx)]}
          tabIndex={0}
          role="region"
          aria-label={`${label}, scrollable`}
        >
          <Table size={state.prefs.density === 'compact' ? 'small' : 'medium'} stickyHeader aria-label={label}>
            <TableHead>
              <TableRow>
                {lead ? <TableCell padding="checkbox">{lead.header}</TableCell> : null}
                {shown.map((c) => (
                  <TableCell key={c.id} sx={{ whiteSpace: 'nowrap', fontWeight: 600 }}>
                    {c.label}
                    {c.headerExtra}
                  </TableCell>
                ))}
                {action ? (
                  <TableCell sx={{ ...stickyRight, fontWeight: 600, zIndex: 3, whiteSpace: 'nowrap' }}>
                    {action.label}
                  </TableCell>
                ) : null}
              </TableRow>
            </TableHead>
            <TableBody>
              <BodyState loading={loading} empty={!rows.length} colSpan={span} state={empty} />
              {rows.map((r) => (
                <TableRow
                  key={rowKey(r)}
                  hover
                  selected={props.rowSelected?.(r)}
                  data-fresh={props.rowFresh?.(r) || undefined}
                  sx={props.rowFresh?.(r) ? FRESH_ROW : undefined}
                >
                  {lead ? <TableCell padding="checkbox">{lead.cell(r)}</TableCell> : null}
                  {shown.map((c) => (
                    <TableCell key={c.id} sx={[c.nowrap ? { whiteSpace: 'nowrap' } : {}, ...toArray(c.cellSx)]}>
                      {content(r, c)}
                    </TableCell>
                  ))}
                  {action ? (
                    <TableCell sx={{ ...stickyRight, whiteSpace: 'nowrap' }}>{action.cell(r)}</TableCell>
                  ) : null}
                </TableRow>
              ))}
            </TableBody>
            {footer}
          </Table>
        </TableContainer>
      )}
    </>
  );
}

const toArray = (sx: SxProps<Theme> | undefined) => (sx === undefined ? [] : Array.isArray(sx) ? sx : [sx]);
