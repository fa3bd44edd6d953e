import { IconButton, Tooltip } from '@mui/material';
import type { ReactNode } from 'react';

/** A row's action as a compact icon with its name in a tooltip (a disabled one keeps its tooltip). */
export function ActionIcon(props: {
  title: string;
  label: string;
  disabled?: boolean;
  danger?: boolean;
  onClick: () => void;
  children: ReactNode;
}) {
  return (
    <Tooltip title={props.title}>
      <span>
        <IconButton
          size="small"
          aria-label={props.label}
          disabled={props.disabled}
          color={props.danger ? 'error' : 'primary'}
          onClick={props.onClick}
        >
          {props.children}
        </IconButton>
      </span>
    </Tooltip>
  );
}
