import type { SxProps, Theme } from '@mui/material';
import type { ReactNode } from 'react';

/** One column of a list table: its id (stable, for the stored preferences), its name and how a row shows in it. */
export interface Column<T> {
  id: string;
  label: string;
  cell: (row: T) => ReactNode;
  /** a key column (name, amount, status): always shown, never hidden in the Columns menu */
  pinned?: boolean;
  /** starts hidden; the user can show it */
  hidden?: boolean;
  /** keeps the value on one line (amounts, dates, ids) */
  nowrap?: boolean;
  /** after the column's name in the header, such as an explaining tooltip */
  headerExtra?: ReactNode;
  /** on a phone card: the card's title, or its status at the top right; the others are label: value lines */
  card?: 'title' | 'status';
  cellSx?: SxProps<Theme>;
}

/** The action of a row (View Details, Export Batch, Download): always the last column, never hidden. */
export interface RowAction<T> {
  label: string;
  cell: (row: T) => ReactNode;
}

/** The defaults of the table preferences from the columns. */
export const defaultsOf = <T>(columns: readonly Column<T>[]) => ({
  ids: columns.map((c) => c.id),
  pinned: columns.filter((c) => c.pinned).map((c) => c.id),
  hidden: columns.filter((c) => c.hidden).map((c) => c.id),
});
