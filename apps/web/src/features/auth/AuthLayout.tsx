import { Box, Paper, Typography } from '@mui/material';
import type { ReactNode } from 'react';

export function AuthLayout({ title, subtitle, children }: { title: string; subtitle?: string; children: ReactNode }) {
  return (
    <Box
      sx={{
        minHeight: '100vh',
        display: 'flex',
        alignItems: 'center',
        justifyContent: 'center',
        bgcolor: 'grey.100',
        p: 2,
      }}
    >
      <Paper sx={{ p: 4, width: '100%', maxWidth: 420 }} elevation={3}>
        <Typography variant="h4" sx={{ fontWeight: 700, mb: 0.5 }} color="primary">
          Obol
        </Typography>
        <Typography component="h1" variant="h6" sx={{ mb: subtitle ? 0.5 : 3 }}>
          {title}
        </Typography>
        {subtitle ? (
          <Typography color="text.secondary" sx={{ mb: 3 }} variant="body2">
            {subtitle}
          </Typography>
        ) : null}
        {children}
      </Paper>
    </Box>
  );
}
