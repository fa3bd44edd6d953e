import type { Permission } from '@obol/contract';
import { Box, Button, Paper, Typography } from '@mui/material';
import type { ReactNode } from 'react';
import { Navigate, useNavigate } from 'react-router';
import { useSession } from '../lib/session.ts';
import { firstPermittedPath } from './paths.ts';

export function RequireAuth({ children }: { children: ReactNode }) {
  const session = useSession();
  if (!session) return <Navigate to="/signin" replace />;
  return <>{children}</>;
}

/** A guarded screen: without its permission the user sees why, and a way back. */
export function Guard({ permission, children }: { permission: Permission; children: ReactNode }) {
  const session = useSession();
  if (!session) return <Navigate to="/signin" replace />;
  if (!session.permissions.includes(permission)) return <NoAccess />;
  return <>{children}</>;
}

export function NoAccess() {
  const session = useSession();
  const navigate = useNavigate();
  return (
    <Box sx={{ display: 'flex', justifyContent: 'center', mt: 8 }}>
      <Paper sx={{ p: 4, maxWidth: 480, textAlign: 'center' }}>
        <Typography component="h1" variant="h5" gutterBottom>
          No access
        </Typography>
        <Typography color="textSecondary" sx={{ mb: 3 }}>
          You do not have access to this page. Ask an administrator for the permission if you need it.
        </Typography>
        <Button variant="contained" onClick={() => navigate(firstPermittedPath(session?.permissions ?? []))}>
          Back to my start page
        </Button>
      </Paper>
    </Box>
  );
}
