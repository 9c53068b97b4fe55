// Lazy route module (see router.tsx): every screen but the landing page renders inside it.
import { QueryClientProvider } from '@tanstack/react-query';
import { useEffect } from 'react';
import { Outlet } from 'react-router';
import { queryClient } from '../lib/query-client';
import { registerServiceWorker } from '../lib/service-worker';

export default function QueryLayout() {
  useEffect(registerServiceWorker, []);
  return (
    <QueryClientProvider client={queryClient}>
      <Outlet />
    </QueryClientProvider>
  );
}
