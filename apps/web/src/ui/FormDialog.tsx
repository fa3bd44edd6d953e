import { Dialog, DialogContent, DialogTitle, useMediaQuery, type Breakpoint, type Theme } from '@mui/material';
import { useId, type FormEventHandler, type ReactNode } from 'react';
import { FormActions } from './FormActions.tsx';

/**
 * A dialog that is one form: its title, its fields, Cancel and submit. Full screen on a phone; while the form is
 * busy it neither closes on a click outside nor on Escape, so a request in flight is not left without its answer.
 */
export function FormDialog({
  open = true,
  title,
  onClose,
  onSubmit,
  busy,
  submit,
  disabled,
  maxWidth = 'sm',
  children,
}: {
  open?: boolean;
  title: ReactNode;
  onClose: () => void;
  onSubmit: FormEventHandler<HTMLFormElement>;
  busy: boolean;
  submit: ReactNode;
  /** holds the submit back besides `busy` */
  disabled?: boolean;
  maxWidth?: Breakpoint;
  children: ReactNode;
}) {
  const id = useId();
  const phone = useMediaQuery((t: Theme) => t.breakpoints.down('sm'), { noSsr: true });
  return (
    <Dialog
      open={open}
      onClose={busy ? undefined : onClose}
      fullWidth
      maxWidth={maxWidth}
      fullScreen={phone}
      aria-labelledby={`${id}-title`}
    >
      <form onSubmit={onSubmit} noValidate>
        <DialogTitle id={`${id}-title`}>{title}</DialogTitle>
        <DialogContent>{children}</DialogContent>
        <FormActions onCancel={onClose} busy={busy} submit={submit} disabled={disabled} />
      </form>
    </Dialog>
  );
}
