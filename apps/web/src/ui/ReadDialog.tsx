import { Button, Dialog, DialogActions, DialogContent, DialogTitle, type Breakpoint } from '@mui/material';
import { useId, type ReactNode } from 'react';

/**
 * A dialog to read, not to fill (details, a history, keys): its title, what it shows, and Close; Escape and a
 * click outside close it too. `dividers` rules off a long content from the title and the button.
 */
export function ReadDialog({
  open = true,
  title,
  onClose,
  maxWidth = 'sm',
  dividers,
  children,
}: {
  open?: boolean;
  title: ReactNode;
  onClose: () => void;
  maxWidth?: Breakpoint;
  dividers?: boolean;
  children: ReactNode;
}) {
  const id = useId();
  return (
    <Dialog open={open} onClose={onClose} fullWidth maxWidth={maxWidth} aria-labelledby={`${id}-title`}>
      <DialogTitle id={`${id}-title`}>{title}</DialogTitle>
      <DialogContent dividers={dividers}>{children}</DialogContent>
      <DialogActions>
        <Button onClick={onClose}>Close</Button>
      </DialogActions>
    </Dialog>
  );
}
