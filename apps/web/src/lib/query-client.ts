import { QueryClient } from '@tanstack/react-query';

import { ApiError } from './api-client';

/** One client for the app and for route loaders (which prefetch into the same cache). */
export const queryClient = new QueryClient({
  defaultOptions: {
    queries: {
      staleTime: 30_000,
      refetchOnWindowFocus: false,
      // 4xx answers are final (a missing resource stays missing); retry only transient failures once.
      retry: (count, error) => !(error instanceof ApiError && error.status >= 400 && error.status < 500) && count < 1,
    },
  },
});
