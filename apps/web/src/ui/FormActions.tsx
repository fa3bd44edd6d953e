import { Button, DialogActions } from '@mui/material';
import type { ReactNode } from 'react';

/**
 * A form dialog's footer: Cancel, then the submit button of the dialog's <form>. Both wait while the form is
 * busy; `disabled` also holds the submit back (nothing changed yet, the input does not parse).
 */
export function FormActions({
  onCancel,
  busy,
  submit,
  disabled = false,
}: {
  onCancel: () => void;
  busy: boolean;
  submit: ReactNode;
  disabled?: boolean;
}) {
  return (
    <DialogActions>
      <Button onClick={onCancel} disabled={busy}>
        Cancel
      </Button>
      <Button type="submit" variant="contained" disabled={busy || disabled}>
        {submit}
      </Button>
    </DialogActions>
  );
}
