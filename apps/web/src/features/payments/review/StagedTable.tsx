import type { BatchAmount, BatchColumn, StagedRow } from '@obol/contract';
import DeleteIcon from '@mui/icons-material/Delete';
import EditIcon from '@mui/icons-material/Edit';
import { Box, Checkbox, TextField, Tooltip } from '@mui/material';
import { ActionButton } from '../../../ui/ActionButton.tsx';
import { ListTable, type Column } from '../../../ui/ListTable.tsx';
import { COLUMNS, RowEditorActions, rowErrors, startEditing, type Editing } from './RowEditor.tsx';
import { TotalsBar } from './TotalsBar.tsx';
import { StatusChip } from '../../../ui/StatusChip.tsx';

interface Props {
  rows: StagedRow[];
  totals: BatchAmount | undefined;
  selected: number[];
  onSelect: (ids: number[]) => void;
  editing: Editing | null;
  onEdit: (editing: Editing | null) => void;
  onSave: () => void;
  onDelete: (ids: number[]) => void;
  /** the paying account's available balance, once known: an edited amount may not exceed it */
  balance?: number;
}

/** A staged row's value; a value that breaks a rule is marked, its error in a tooltip. */
function StagedValue({ row, column }: { row: StagedRow; column: BatchColumn }) {
  const f = row[column];
  if (!f.error) return <>{f.value}</>;
  return (
    <Tooltip title={f.error}>
      <Box component="span" sx={{ color: 'error.main', fontWeight: 600 }}>
        {f.value || '(empty)'}
      </Box>
    </Tooltip>
  );
}

const KEY: readonly BatchColumn[] = ['beneficiary_name', 'amount'];
/**
 * The file's columns with the key ones first (the beneficiary, then the amount), the others in the file's order:
 * the table is wider than the page at 1366 px, most of all with a row's fields open for editing, and what is last
 * sits under the sticky Actions column until the user scrolls to it. The amount is what a reviewer checks and
 * edits most; it was last, its header cut and its field under the row's Save.
 */
const REVIEW_COLUMNS = [...COLUMNS.filter(([c]) => KEY.includes(c)), ...COLUMNS.filter(([c]) => !KEY.includes(c))];

// Status first: what a reviewer looks for, and never under the sticky Actions column when the table is wider than
// the page (at 1366 px with long ids it was, the chip cut to its first letters)
const STAGED_COLUMNS: Column<StagedRow>[] = [
  {
    id: 'status',
    label: 'Status',
    pinned: true,
    card: 'status',
    cell: (r) => <StatusChip status={r.status} />,
  },
  ...REVIEW_COLUMNS.map(([c, label]): Column<StagedRow> => ({
    id: c,
    label,
    pinned: KEY.includes(c),
    card: c === 'beneficiary_name' ? 'title' : undefined,
    nowrap: c === 'amount',
    cell: (r) => <StagedValue row={r} column={c} />,
  })),
];

/**
 * The staged rows of a page in the shared list table (columns, order and density of the user's choice; cards on a
 * phone): selectable, each editable in place or deleted; their errors marked per field.
 */
export function StagedTable({ rows, totals, selected, onSelect, editing, onEdit, onSave, onDelete, balance }: Props) {
  const errors = editing ? rowErrors(editing.values, balance) : {};
  return (
    <ListTable
      id="staged-transactions"
      label="Staged transactions"
      columns={STAGED_COLUMNS}
      rows={rows}
      rowKey={(r) => r.id}
      loading={false}
      rowSelected={(r) => selected.includes(r.id)}
      lead={{
        header: (
          <Checkbox
            slotProps={{ input: { 'aria-label': 'Select all on this page' } }}
            checked={!!rows.length && rows.every((r) => selected.includes(r.id))}
            onChange={(e) => onSelect(e.target.checked ? rows.map((r) => r.id) : [])}
          />
        ),
        cell: (r) => (
          <Checkbox
            slotProps={{ input: { 'aria-label': `Select row ${r.row_number}` } }}
            checked={selected.includes(r.id)}
            onChange={(e) => onSelect(e.target.checked ? [...selected, r.id] : selected.filter((x) => x !== r.id))}
          />
        ),
      }}
      cellOverride={(r, col) => {
        if (!editing || editing.id !== r.id || col.id === 'status') return undefined;
        const c = col.id as BatchColumn;
        return (
          <TextField
            size="small"
            value={editing.values[c]}
            error={!!errors[c]}
            helperText={errors[c] ?? null}
            onChange={(e) => onEdit({ ...editing, values: { ...editing.values, [c]: e.target.value } })}
            slotProps={{ htmlInput: { maxLength: c === 'amount' ? 10 : 50, 'aria-label': col.label } }}
          />
        );
      }}
      action={{
        label: 'Actions',
        cell: (r) =>
          editing?.id === r.id ? (
            <RowEditorActions rowNumber={r.row_number} onSave={onSave} onCancel={() => onEdit(null)} />
          ) : (
            <>
              <ActionButton
                text="Edit"
                label={`Edit row ${r.row_number}`}
                icon={<EditIcon fontSize="small" />}
                onClick={() => onEdit(startEditing(r))}
              />
              <ActionButton
                text="Delete"
                label={`Delete row ${r.row_number}`}
                icon={<DeleteIcon fontSize="small" />}
                danger
                onClick={() => onDelete([r.id])}
              />
            </>
          ),
      }}
      footer={<TotalsBar totals={totals} />}
    />
  );
}
