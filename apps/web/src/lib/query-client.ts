import { QueryClient } from '@tanstack/react-query';
import { ApiError } from './api-client';
import { seedQueryClient } from './query-seed';

export const queryClient = new QueryClient({
  defaultOptions: {
    queries: {
      staleTime: 30_000,
      // Riders are on patchy mobile data: retry network hiccups, but never a 4xx answer,
      // which will not change by asking again.
      retry: (failureCount, error) => !(error instanceof ApiError && error.status < 500) && failureCount < 2,
      refetchOnWindowFocus: false,
    },
    mutations: { retry: false },
  },
});

// Seeded as the module loads, before any screen (or the router's preload) can use the client:
// a server-rendered page's answers are there from the start, so neither the hydrating
// screen nor preloadScreen's prefetch asks for them again.
seedQueryClient(queryClient);
