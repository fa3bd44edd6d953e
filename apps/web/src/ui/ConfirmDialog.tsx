import { Button, Dialog, DialogActions, DialogContent, DialogContentText, DialogTitle } from '@mui/material';
import { useId, useState, type ReactNode } from 'react';

interface Props {
  open: boolean;
  title: string;
  text?: ReactNode;
  /** the label of the confirm button, e.g. "Clear batch" */
  confirmLabel: string;
  cancelLabel?: string;
  /** 'danger' (the default) for what destroys or cannot be taken back; 'neutral' for an ordinary change */
  tone?: 'danger' | 'neutral';
  onCancel: () => void;
  /** what the confirmation allows; the dialog waits for it and stays open while it runs */
  onConfirm: () => void | Promise<void>;
}

/**
 * Asks before an action. Esc, a click outside and Cancel do nothing but close it; the confirm button is in the
 * error colour unless the tone is neutral. Focus starts on Cancel, so Enter alone never destroys anything.
 */
export function ConfirmDialog({
  open,
  title,
  text,
  confirmLabel,
  cancelLabel = 'Cancel',
  tone = 'danger',
  onCancel,
  onConfirm,
}: Props) {
  const id = useId();
  const [busy, setBusy] = useState(false);
  const confirm = async () => {
    setBusy(true);
    try {
      await onConfirm();
    } finally {
      setBusy(false);
    }
  };
  return (
    <Dialog
      open={open}
      onClose={busy ? undefined : onCancel}
      aria-labelledby={`${id}-title`}
      aria-describedby={text ? `${id}-text` : undefined}
      role="alertdialog"
      maxWidth="xs"
      fullWidth
    >
      <DialogTitle id={`${id}-title`}>{title}</DialogTitle>
      {text ? (
        <DialogContent>
          <DialogContentText id={`${id}-text`}>{text}</DialogContentText>
        </DialogContent>
      ) : null}
      <DialogActions>
        <Button onClick={onCancel} disabled={busy} autoFocus>
          {cancelLabel}
        </Button>
        <Button
          color={tone === 'danger' ? 'error' : 'primary'}
          variant="contained"
          onClick={confirm}
          disabled={busy}
          // white on the dark theme's light red is under 4.5:1: the darker red keeps the label readable
          sx={(t) =>
            tone === 'danger' && t.palette.mode === 'dark' ? { bgcolor: 'error.dark', color: 'common.white' } : {}
          }
        >
          {confirmLabel}
        </Button>
      </DialogActions>
    </Dialog>
  );
}

/** A pending confirmation: what to ask and what to do once confirmed. */
export interface Confirmation {
  title: string;
  text?: ReactNode;
  confirmLabel: string;
  tone?: 'danger' | 'neutral';
  action: () => void | Promise<void>;
}

/** The question before an invitation mail goes again to `email` (its previous link stops working). */
export const resendInvitation = (email: string, action: Confirmation['action']): Confirmation => ({
  title: 'Resend invitation mail?',
  text: `A new invitation link goes to ${email}; the previous one stops working.`,
  confirmLabel: 'Resend mail',
  tone: 'neutral',
  action,
});

/** State for one ConfirmDialog shared by several actions: `ask(...)` opens it, `dialog` renders it. */
export function useConfirm() {
  const [pending, setPending] = useState<Confirmation | null>(null);
  // the last question stays rendered while the dialog fades out
  const [open, setOpen] = useState(false);
  const ask = (c: Confirmation) => {
    setPending(c);
    setOpen(true);
  };
  const dialog = (
    <ConfirmDialog
      open={open}
      title={pending?.title ?? ''}
      text={pending?.text}
      confirmLabel={pending?.confirmLabel ?? 'Confirm'}
      tone={pending?.tone}
      onCancel={() => setOpen(false)}
      onConfirm={async () => {
        await pending?.action();
        setOpen(false);
      }}
    />
  );
  return { ask, dialog };
}
