import type { BatchAmount, StagedRow } from '@obol/contract';
import DeleteIcon from '@mui/icons-material/Delete';
import EditIcon from '@mui/icons-material/Edit';
import {
  Checkbox,
  Chip,
  IconButton,
  Table,
  TableBody,
  TableCell,
  TableContainer,
  TableHead,
  TableRow,
  Tooltip,
} from '@mui/material';
import { COLUMNS, RowEditorActions, RowEditorCells, startEditing, type Editing } from './RowEditor.tsx';
import { TotalsBar } from './TotalsBar.tsx';

interface Props {
  rows: StagedRow[];
  totals: BatchAmount | undefined;
  selected: number[];
  onSelect: (ids: number[]) => void;
  editing: Editing | null;
  onEdit: (editing: Editing | null) => void;
  onSave: () => void;
  onDelete: (ids: number[]) => void;
}

/** The staged rows of a page: selectable, each editable in place or deleted; their errors marked per field. */
export function StagedTable({ rows, totals, selected, onSelect, editing, onEdit, onSave, onDelete }: Props) {
  return (
    <TableContainer>
      <Table size="small">
        <TableHead>
          <TableRow>
            <TableCell padding="checkbox">
              <Checkbox
                inputProps={{ 'aria-label': 'Select all on this page' }}
                checked={!!rows.length && rows.every((r) => selected.includes(r.id))}
                onChange={(e) => onSelect(e.target.checked ? rows.map((r) => r.id) : [])}
              />
            </TableCell>
            {COLUMNS.map(([, label]) => (
              <TableCell key={label}>{label}</TableCell>
            ))}
            <TableCell>Status</TableCell>
            <TableCell align="right">Actions</TableCell>
          </TableRow>
        </TableHead>
        <TableBody>
          {!rows.length ? (
            <TableRow>
              <TableCell colSpan={9} align="center">
                No Record Found
              </TableCell>
            </TableRow>
          ) : (
            rows.map((r) => (
              <TableRow key={r.id} hover selected={selected.includes(r.id)}>
                <TableCell padding="checkbox">
                  <Checkbox
                    inputProps={{ 'aria-label': `Select row ${r.row_number}` }}
                    checked={selected.includes(r.id)}
                    onChange={(e) =>
                      onSelect(e.target.checked ? [...selected, r.id] : selected.filter((x) => x !== r.id))
                    }
                  />
                </TableCell>
                {editing?.id === r.id ? (
                  <RowEditorCells editing={editing} onChange={onEdit} />
                ) : (
                  <StagedCells row={r} />
                )}
                <TableCell>
                  <Chip size="small" color={r.status === 'Pending' ? 'warning' : 'error'} label={r.status} />
                </TableCell>
                <TableCell align="right" sx={{ whiteSpace: 'nowrap' }}>
                  {editing?.id === r.id ? (
                    <RowEditorActions rowNumber={r.row_number} onSave={onSave} onCancel={() => onEdit(null)} />
                  ) : (
                    <>
                      <IconButton aria-label={`Edit row ${r.row_number}`} onClick={() => onEdit(startEditing(r))}>
                        <EditIcon />
                      </IconButton>
                      <IconButton aria-label={`Delete row ${r.row_number}`} onClick={() => onDelete([r.id])}>
                        <DeleteIcon />
                      </IconButton>
                    </>
                  )}
                </TableCell>
              </TableRow>
            ))
          )}
        </TableBody>
        <TotalsBar totals={totals} />
      </Table>
    </TableContainer>
  );
}

/** A staged row's values; a value that breaks a rule is marked, its error in a tooltip. */
function StagedCells({ row }: { row: StagedRow }) {
  return (
    <>
      {COLUMNS.map(([c]) => (
        <TableCell key={c} sx={row[c].error ? { color: 'error.main', fontWeight: 600 } : undefined}>
          {row[c].error ? (
            <Tooltip title={row[c].error}>
              <span>{row[c].value || '(empty)'}</span>
            </Tooltip>
          ) : (
            row[c].value
          )}
        </TableCell>
      ))}
    </>
  );
}
