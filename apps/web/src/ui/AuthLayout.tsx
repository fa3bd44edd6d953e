import { Box, Paper, Typography } from '@mui/material';
import type { ReactNode } from 'react';
import { MAIN_ID } from './SkipLink.tsx';

/**
 * The frame of the signed-out pages (sign-in, password, a company's consent): the product's name and the page's
 * card, in the page's <main>.
 */
export function AuthLayout({
  title,
  subtitle,
  maxWidth = 420,
  children,
}: {
  title: string;
  subtitle?: string;
  maxWidth?: number;
  children: ReactNode;
}) {
  return (
    <Box
      component="main"
      id={MAIN_ID}
      tabIndex={-1}
      sx={{
        minHeight: '100vh',
        display: 'flex',
        alignItems: 'center',
        justifyContent: 'center',
        bgcolor: 'background.default',
        p: 2,
      }}
    >
      <Paper variant="outlined" sx={{ p: { xs: 3, sm: 4 }, width: '100%', maxWidth, boxShadow: 2 }}>
        <Typography component="p" sx={{ fontWeight: 700, fontSize: '1.5rem', mb: 2 }} color="primary">
          Obol
        </Typography>
        <Typography component="h1" variant="h5" sx={{ mb: subtitle ? 0.5 : 3 }}>
          {title}
        </Typography>
        {subtitle ? (
          <Typography color="textSecondary" sx={{ mb: 3 }} variant="body2">
            {subtitle}
          </Typography>
        ) : null}
        {children}
      </Paper>
    </Box>
  );
}
