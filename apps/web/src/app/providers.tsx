import { CssBaseline, ThemeProvider } from '@mui/material';
import { QueryClientProvider, type QueryClient } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { queryClient as appQueryClient } from '../lib/queryClient.ts';
import { NotificationsProvider } from '../ui/notifications.tsx';
import { theme } from './theme.ts';

/** Theme, data cache and notifications. Goes inside a router (notifications navigate to the download lists). */
export function AppProviders({ children, client = appQueryClient }: { children: ReactNode; client?: QueryClient }) {
  return (
    <ThemeProvider theme={theme}>
      <CssBaseline />
      <QueryClientProvider client={client}>
        <NotificationsProvider>{children}</NotificationsProvider>
      </QueryClientProvider>
    </ThemeProvider>
  );
}
