import { Stack } from '@mui/material';
import type { ReactNode } from 'react';
import { PageTitle } from './PageTitle.tsx';

/**
 * A list page's header: its title, and its controls (search toggle, sort, status, export) in a row that wraps;
 * side by side from the md breakpoint, stacked below it.
 */
export function ListHeader({ title, children }: { title: string; children: ReactNode }) {
  return (
    <Stack
      direction={{ xs: 'column', md: 'row' }}
      spacing={2}
      sx={{ alignItems: { md: 'center' }, justifyContent: 'space-between', mb: 2 }}
    >
      <PageTitle>{title}</PageTitle>
      <Stack direction="row" spacing={2} sx={{ alignItems: 'center', flexWrap: 'wrap' }} useFlexGap>
        {children}
      </Stack>
    </Stack>
  );
}

/**
 * A page's title with its create actions (Add, Invite ...) at the right, which wrap under it on a narrow screen;
 * no actions (none permitted): the title alone.
 */
export function TitleBar({ title, children }: { title: string; children?: ReactNode }) {
  return (
    <Stack direction="row" spacing={2} useFlexGap sx={{ alignItems: 'center', flexWrap: 'wrap', mb: 1 }}>
      <PageTitle>{title}</PageTitle>
      {children ? (
        <Stack direction="row" spacing={1} useFlexGap sx={{ ml: 'auto', flexWrap: 'wrap' }}>
          {children}
        </Stack>
      ) : null}
    </Stack>
  );
}
