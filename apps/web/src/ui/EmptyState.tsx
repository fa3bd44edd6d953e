import { MSG, ROUTE_PERMISSIONS, type GuardedPath } from '@obol/contract';
import FilterAltOffIcon from '@mui/icons-material/FilterAltOff';
import { Button, Stack, Typography } from '@mui/material';
import { Link } from 'react-router';
import type { ReactNode } from 'react';
import { hasPermission, useSession } from '../lib/session.ts';
import type { EmptyState, NextAction } from './columns.ts';

/** A link to another screen as an empty list's next action, for a user allowed to open that screen (else none). */
export function useLinkAction(path: GuardedPath, label: string, icon?: ReactNode): NextAction[] {
  const session = useSession();
  return hasPermission(session, ROUTE_PERMISSIONS[path]) ? [{ label, to: path, icon }] : [];
}

/**
 * The words of an empty list and the next step from there: Clear filters when the list is narrowed (nothing to
 * create would show through a filter), else the page's create actions. The same in the table and on the cards.
 */
export function EmptyMessage({ empty }: { empty?: EmptyState }) {
  const next = empty?.clear
    ? [{ label: 'Clear filters', onClick: empty.clear, icon: <FilterAltOffIcon />, to: undefined }]
    : (empty?.create ?? []);
  return (
    <Stack spacing={1.5} sx={{ alignItems: 'center' }}>
      <Typography component="p" variant="body2" sx={{ m: 0 }}>
        {empty?.text ?? MSG.noRecord}
      </Typography>
      {next.length ? (
        <Stack direction="row" spacing={1} useFlexGap sx={{ flexWrap: 'wrap', justifyContent: 'center' }}>
          {next.map((a) =>
            a.to ? (
              <Button key={a.label} variant="outlined" size="small" startIcon={a.icon} component={Link} to={a.to}>
                {a.label}
              </Button>
            ) : (
              <Button key={a.label} variant="outlined" size="small" startIcon={a.icon} onClick={a.onClick}>
                {a.label}
              </Button>
            ),
          )}
        </Stack>
      ) : null}
    </Stack>
  );
}
