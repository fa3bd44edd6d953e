import { CssBaseline, ThemeProvider } from '@mui/material';
import { QueryClientProvider, type QueryClient } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { queryClient as appQueryClient } from '../lib/queryClient.ts';
import { NotificationsProvider } from '../ui/notifications.tsx';
import { ReceiptsProvider } from '../ui/receipts.tsx';
import { theme } from './theme.ts';

/** Where the chosen theme (system, light or dark) is remembered. */
export const THEME_MODE_KEY = 'obol.theme';

/**
 * Theme, data cache, notifications and receipts. Goes inside a router (notifications navigate to the download
 * lists).
 */
export function AppProviders({ children, client = appQueryClient }: { children: ReactNode; client?: QueryClient }) {
  return (
    <ThemeProvider theme={theme} modeStorageKey={THEME_MODE_KEY} defaultMode="system" disableTransitionOnChange>
      <CssBaseline enableColorScheme />
      <QueryClientProvider client={client}>
        <NotificationsProvider>
          <ReceiptsProvider>{children}</ReceiptsProvider>
        </NotificationsProvider>
      </QueryClientProvider>
    </ThemeProvider>
  );
}
