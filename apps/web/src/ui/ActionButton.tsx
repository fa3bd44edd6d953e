import { Box, Button, Tooltip } from '@mui/material';
import { useId, type ReactNode } from 'react';

/**
 * Says why a control is disabled: the reason on hover (on a wrapping span, since a disabled control gets no
 * pointer events) and as the control's description for screen readers. `children` gets the id to put in the
 * control's aria-describedby, undefined while it is enabled (no reason).
 */
export function DisabledWhy({
  reason,
  children,
}: {
  reason: string | null | undefined;
  children: (describedBy: string | undefined) => ReactNode;
}) {
  const id = useId();
  if (!reason) return children(undefined);
  return (
    <Tooltip title={reason} describeChild>
      <Box component="span" sx={{ display: 'inline-flex', flexShrink: 0 }}>
        {children(id)}
        <span id={id} hidden>
          {reason}
        </span>
      </Box>
    </Tooltip>
  );
}

/** One action of a row: its text, its name for the row, its icon, and why it is disabled if it is. */
export interface RowActionItem {
  /** the visible text, e.g. "Edit" */
  text: string;
  /** the accessible name, e.g. "Edit Acme" (contains the text) */
  label: string;
  icon: ReactNode;
  /** why the action cannot be used now; given, the action is disabled and says so */
  disabledReason?: string | null;
  danger?: boolean;
  onClick: () => void;
}

/**
 * A row's action: an icon with its short visible text, named for the row (`label`, e.g. "Edit Acme", which
 * contains the text). It is disabled only with a reason, which it gives (DisabledWhy).
 */
export function ActionButton(props: RowActionItem) {
  return (
    <DisabledWhy reason={props.disabledReason}>
      {(describedBy) => (
        <Button
          size="small"
          color={props.danger ? 'error' : 'primary'}
          startIcon={props.icon}
          aria-label={props.label}
          aria-describedby={describedBy}
          disabled={!!describedBy}
          onClick={props.onClick}
          sx={{ whiteSpace: 'nowrap', minWidth: 0, px: 1, flexShrink: 0 }}
        >
          {props.text}
        </Button>
      )}
    </DisabledWhy>
  );
}
