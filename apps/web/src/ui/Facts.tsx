import { Box, Typography } from '@mui/material';
import type { ReactNode } from 'react';

/** One fact of a details view: its label and its value. */
export type Fact = readonly [label: string, value: ReactNode];

/**
 * A record's details as a definition list: labels in one column, values beside them, a long id or e-mail wrapping
 * anywhere rather than widening the dialog.
 */
export function Facts({ facts, variant = 'body1' }: { facts: readonly Fact[]; variant?: 'body1' | 'body2' }) {
  return (
    <Box
      component="dl"
      sx={{ display: 'grid', gridTemplateColumns: 'max-content minmax(0, 1fr)', columnGap: 3, rowGap: 1, m: 0 }}
    >
      {facts.map(([label, value]) => (
        <Box key={label} sx={{ display: 'contents' }}>
          <Typography component="dt" variant={variant} color="textSecondary">
            {label}
          </Typography>
          <Typography component="dd" variant={variant} sx={{ m: 0, overflowWrap: 'anywhere' }}>
            {value}
          </Typography>
        </Box>
      ))}
    </Box>
  );
}
