import { Typography } from '@mui/material';

export function PageTitle({ children }: { children: string }) {
  return (
    <Typography component="h1" variant="h5" sx={{ fontWeight: 600, mb: 2 }}>
      {children}
    </Typography>
  );
}
