import { type ComponentType, type ReactNode, StrictMode } from 'react';
import { Providers } from './providers';
import { AppRoutes } from './router';

/**
 * The whole client under the router it is given: <BrowserRouter> in the browser (main.tsx),
 * a <StaticRouter> at "/" when the build prerenders the landing page (entry-server.tsx).
 * One tree for both, so hydrateRoot finds exactly the markup the build wrote and keeps it.
 */
export function App({ Router }: { Router: ComponentType<{ children: ReactNode }> }) {
  return (
    <StrictMode>
      <Providers>
        <Router>
          <AppRoutes />
        </Router>
      </Providers>
    </StrictMode>
  );
}
