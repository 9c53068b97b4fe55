// Lazy route module (see router.tsx): every screen but the landing page renders inside it.
import { QueryClientContext, QueryClientProvider } from '@tanstack/react-query';
import { useContext, useEffect } from 'react';
import { Outlet } from 'react-router';
import { queryClient } from '../lib/query-client';
import { registerServiceWorker } from '../lib/service-worker';

export default function QueryLayout() {
  useEffect(registerServiceWorker, []);
  // A server render brings its own client, one per request (entry-server.tsx); the browser
  // has one for the page's life.
  const client = useContext(QueryClientContext) ?? queryClient;
  return (
    <QueryClientProvider client={client}>
      <Outlet />
    </QueryClientProvider>
  );
}
