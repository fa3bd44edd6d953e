import { rowAmountIssue, trimRow, validateRow, type BatchColumn, type RawRow, type StagedRow } from '@obol/contract';
import SaveIcon from '@mui/icons-material/Check';
import CloseIcon from '@mui/icons-material/Close';
import { ActionButton } from '../../../ui/ActionButton.tsx';

/** The columns of a staged row, in the file's order, with their labels. */
export const COLUMNS: readonly (readonly [BatchColumn, string])[] = [
  ['beneficiary_name', 'Beneficiary name'],
  ['obol_id', 'Obol ID'],
  ['merchant_transaction_id', 'Merchant transaction id'],
  ['brand', 'Brand'],
  ['reference', 'Reference'],
  ['amount', 'Amount (cents)'],
];

/** A staged row being edited: its id and its values as typed. */
export interface Editing {
  id: number;
  values: RawRow;
}

export const startEditing = (r: StagedRow): Editing => ({
  id: r.id,
  values: Object.fromEntries(COLUMNS.map(([c]) => [c, r[c].value])) as RawRow,
});

/**
 * The errors of an edited row by the rules of the staging itself (the contract's validateRow) and the manual
 * payout's third amount rule (within the available balance, once it is known); what only the server knows (the
 * brand exists, the merchant transaction id is free) it says when the row is saved.
 */
export function rowErrors(values: RawRow, balance?: number) {
  const v = validateRow(trimRow(values));
  const over = v.errors.amount ? undefined : rowAmountIssue(v.amount, balance);
  return over ? { ...v.errors, amount: over } : v.errors;
}

/** The first error of an edited row, in the order of the columns. */
export function firstRowError(values: RawRow, balance?: number): string | undefined {
  const errors = rowErrors(values, balance);
  return COLUMNS.map(([c]) => errors[c]).find(Boolean);
}

/** Save and cancel, in the actions cell of the row being edited. */
export function RowEditorActions({
  rowNumber,
  onSave,
  onCancel,
}: {
  rowNumber: number;
  onSave: () => void;
  onCancel: () => void;
}) {
  return (
    <>
      <ActionButton text="Save" label={`Save row ${rowNumber}`} icon={<SaveIcon fontSize="small" />} onClick={onSave} />
      <ActionButton text="Cancel" label="Cancel edit" icon={<CloseIcon fontSize="small" />} onClick={onCancel} />
    </>
  );
}
