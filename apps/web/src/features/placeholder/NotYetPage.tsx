import { Paper, Typography } from '@mui/material';
import { PageTitle } from '../../ui/PageTitle.tsx';

/** A screen that a later issue builds: its title, and an honest word that it is not here yet. */
export function NotYetPage({ title }: { title: string }) {
  return (
    <>
      <PageTitle>{title}</PageTitle>
      <Paper sx={{ p: 3 }}>
        <Typography color="text.secondary">This screen is not available yet.</Typography>
      </Paper>
    </>
  );
}
