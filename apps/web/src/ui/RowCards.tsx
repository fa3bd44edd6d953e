import { Box, CircularProgress, Paper, Stack, Table, Typography } from '@mui/material';
import type { ReactNode } from 'react';
import type { Column, EmptyState, RowAction } from './columns.ts';
import { EmptyMessage } from './EmptyState.tsx';

/** a card's actions share its width, wrapping onto more lines when their labels do not fit one */
const cardActions = {
  mt: 1.5,
  display: 'flex',
  flexWrap: 'wrap',
  gap: 1,
  '& > *, & > .MuiStack-root > *': { flex: '1 1 auto' },
  '& > .MuiStack-root': { flexWrap: 'wrap', gap: 1, '& > *': { m: 0 } },
  '& .MuiButton-root': { width: '100%' },
} as const;

/**
 * The rows of a list on a phone: one card each, its title (the name) and status on top, the other chosen
 * columns as label: value lines, the actions as buttons filling the bottom line(s).
 */
export function RowCards<T>({
  label,
  columns,
  rows,
  rowKey,
  action,
  lead,
  content,
  loading,
  empty,
  footer,
}: {
  label: string;
  columns: readonly Column<T>[];
  rows: readonly T[];
  rowKey: (row: T) => string | number;
  action?: RowAction<T>;
  lead?: (row: T) => ReactNode;
  content: (row: T, c: Column<T>) => ReactNode;
  loading: boolean;
  empty?: EmptyState;
  footer?: ReactNode;
}) {
  const title = columns.find((c) => c.card === 'title') ?? columns[0];
  const status = columns.find((c) => c.card === 'status');
  const lines = columns.filter((c) => c !== title && c !== status);
  if (loading || !rows.length)
    return (
      <Box data-empty-state sx={{ py: 4, textAlign: 'center' }}>
        {loading ? <CircularProgress size={24} aria-label="Loading" /> : <EmptyMessage empty={empty} />}
      </Box>
    );
  return (
    <>
      <Stack component="ul" aria-label={label} spacing={1.5} sx={{ listStyle: 'none', p: 1.5, m: 0 }}>
        {rows.map((r) => (
          <Paper component="li" variant="outlined" key={rowKey(r)} data-row-card sx={{ p: 1.5 }}>
            <Stack direction="row" spacing={1} sx={{ alignItems: 'flex-start', mb: 1 }}>
              {lead ? lead(r) : null}
              <Typography component="div" sx={{ flex: 1, minWidth: 0, fontWeight: 600, wordBreak: 'break-word' }}>
                {title ? content(r, title) : null}
              </Typography>
              {status ? content(r, status) : null}
            </Stack>
            <Box
              component="dl"
              sx={{
                display: 'grid',
                // minmax(0, …): a one-line value (OneLine) is cut with its ellipsis instead of widening the card
                gridTemplateColumns: 'minmax(96px, max-content) minmax(0, 1fr)',
                gap: 0.5,
                columnGap: 2,
                m: 0,
              }}
            >
              {lines.map((c) => (
                <Box key={c.id} sx={{ display: 'contents' }}>
                  <Typography component="dt" variant="body2" color="textSecondary">
                    {c.label}
                  </Typography>
                  <Typography component="dd" variant="body2" sx={{ m: 0, wordBreak: 'break-word' }}>
                    {content(r, c)}
                  </Typography>
                </Box>
              ))}
            </Box>
            {action ? <Box sx={cardActions}>{action.cell(r)}</Box> : null}
          </Paper>
        ))}
      </Stack>
      {footer ? <Table size="small">{footer}</Table> : null}
    </>
  );
}
