import { type ComponentType, type ReactNode, StrictMode } from 'react';
import type { User } from '../lib/auth';
import { Providers } from './providers';
import { AppRoutes } from './router';

/**
 * The whole client under the router it is given: <BrowserRouter> in the browser (main.tsx),
 * a <StaticRouter> at "/" when the build prerenders the landing page (entry-server.tsx).
 * One tree for both, so hydrateRoot finds exactly the markup the build wrote and keeps it.
 * `session`: the signed-in rider a page was rendered for by the server (My Profile).
 */
export function App({ Router, session }: { Router: ComponentType<{ children: ReactNode }>; session?: User }) {
  return (
    <StrictMode>
      <Providers session={session}>
        <Router>
          <AppRoutes />
        </Router>
      </Providers>
    </StrictMode>
  );
}
