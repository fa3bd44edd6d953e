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
  /**
   * how much the column matters: 1 a key column, 2 (the default) shown, 3 shown only while the default columns
   * still fit a 1366 px screen (FIT_WIDTH), hidden from the last one on when they do not (one click away in Columns)
   */
  priority?: 1 | 2 | 3;
  /** the width the column takes with its usual values, in px (DEFAULT_WIDTH when not given): what FIT_WIDTH counts */
  width?: number;
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
  /** its width in px (DEFAULT_ACTION_WIDTH when not given): one button, or the labelled Actions menu */
  width?: number;
}

/** What a user can do next from an empty list: a button (onClick) or a link (to) to the page's create action. */
export interface NextAction {
  label: string;
  onClick?: () => void;
  to?: string;
  icon?: ReactNode;
}

/**
 * What an empty list says (MSG.noRecord unless `text`) and offers: while filters, a search or a status narrow the
 * list, `clear` (a Clear filters button); otherwise the page's create actions, given only to a user allowed to use
 * them.
 */
export interface EmptyState {
  text?: string;
  clear?: () => void;
  create?: readonly NextAction[];
}

/** the width of a list's card at 1366 px with the side menu open (1366 - menu - page margins), less a margin */
export const FIT_WIDTH = 1030;
export const DEFAULT_WIDTH = 130;
export const DEFAULT_ACTION_WIDTH = 130;

/**
 * The columns that start hidden: the ones marked hidden, then, while the shown ones (and the row action) are wider
 * than FIT_WIDTH, the priority 3 columns from the last one on. Key columns never start hidden.
 */
export function hiddenByDefault<T>(columns: readonly Column<T>[], actionWidth = 0): string[] {
  const hidden = columns.filter((c) => c.hidden && !c.pinned).map((c) => c.id);
  const widthOf = (c: Column<T>) => c.width ?? DEFAULT_WIDTH;
  let total = actionWidth + columns.filter((c) => !hidden.includes(c.id)).reduce((s, c) => s + widthOf(c), 0);
  for (const c of [...columns].reverse()) {
    if (total <= FIT_WIDTH) break;
    if (c.priority !== 3 || c.pinned || hidden.includes(c.id)) continue;
    hidden.push(c.id);
    total -= widthOf(c);
  }
  return hidden;
}

/** The defaults of the table preferences from the columns. */
export const defaultsOf = <T>(columns: readonly Column<T>[], action?: RowAction<T>) => ({
  ids: columns.map((c) => c.id),
  pinned: columns.filter((c) => c.pinned).map((c) => c.id),
  hidden: hiddenByDefault(columns, action ? (action.width ?? DEFAULT_ACTION_WIDTH) : 0),
});
