import { Box, Button, Paper, Typography } from '@mui/material';
import { Link as RouterLink } from 'react-router';
import { useSession } from '../lib/session.ts';
import { PageTitle } from '../ui/PageTitle.tsx';
import { firstPermittedPath } from './paths.ts';

/** A path of the route table whose screen is not built: said plainly, with a way home. */
export function NotFoundPage() {
  const session = useSession();
  return (
    <Box sx={{ maxWidth: 520, mx: 'auto', mt: { xs: 2, md: 8 } }}>
      <Paper variant="outlined" sx={{ p: { xs: 3, md: 4 }, textAlign: 'center' }}>
        <Typography variant="overline" color="textSecondary" component="p">
          404
        </Typography>
        <PageTitle>Page not found</PageTitle>
        <Typography color="textSecondary" sx={{ mb: 3 }}>
          There is no page at this address. It may have moved, or the link may be mistyped.
        </Typography>
        <Button variant="contained" component={RouterLink} to={firstPermittedPath(session?.permissions ?? [])}>
          Go to my start page
        </Button>
      </Paper>
    </Box>
  );
}
