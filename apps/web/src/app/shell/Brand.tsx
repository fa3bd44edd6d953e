import { Box, Typography } from '@mui/material';
import { Link as RouterLink } from 'react-router';

/** The coin mark of the favicon, in the theme's primary colour. */
export function LogoMark({ size = 28 }: { size?: number }) {
  return (
    <Box
      component="svg"
      viewBox="0 0 32 32"
      aria-hidden
      sx={{
        width: size,
        height: size,
        flexShrink: 0,
        color: 'primary.main',
        '& circle': { stroke: (t) => (t.vars ?? t).palette.primary.contrastText },
      }}
    >
      <rect width="32" height="32" rx="8" fill="currentColor" />
      <circle cx="16" cy="16" r="8" fill="none" strokeWidth="3.5" />
    </Box>
  );
}

/** The product's name and mark, leading home. */
export function Brand({ rail = false, home }: { rail?: boolean; home: string }) {
  return (
    <Box
      component={RouterLink}
      to={home}
      aria-label="Obol home"
      sx={{
        display: 'flex',
        alignItems: 'center',
        gap: 1.25,
        color: 'text.primary',
        textDecoration: 'none',
        borderRadius: 1,
        px: rail ? 0 : 0.5,
      }}
    >
      <LogoMark />
      {rail ? null : (
        <Typography component="span" sx={{ fontWeight: 700, fontSize: '1.125rem', letterSpacing: '-0.01em' }}>
          Obol
        </Typography>
      )}
    </Box>
  );
}
