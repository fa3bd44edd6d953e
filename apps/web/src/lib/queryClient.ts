import { QueryClient } from '@tanstack/react-query';

/** Lists do not retry a 401 (the session is gone) and do not refetch on every window focus. */
export function createQueryClient() {
  return new QueryClient({
    defaultOptions: {
      queries: {
        retry: (n, err) => n < 2 && ![400, 401, 403, 404].includes((err as { status?: number }).status ?? 0),
        refetchOnWindowFocus: false,
      },
    },
  });
}

/** The one query client of the running app. */
export const queryClient = createQueryClient();
