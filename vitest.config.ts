import { defineConfig } from 'vitest/config';

// Files that replace a module (vi.mock) need a module registry of their own; every other file
// shares its worker's, so the server's modules are loaded once per worker instead of once per
// file (PGlite suite: 181 s instead of ~380 s; the imports alone cost 159 s of CPU a run).
const OWN_MODULES = ['apps/server/src/modules/registration/registration.test.ts'];

const shared = {
  environment: 'node',
  // Generous: CI runs two Vitest legs and their server processes on two cores, and a first
  // start (initdb, migrations) took 27-35 s there; at 60 s, a busy machine failed tests that
  // were only slow (operator.test.ts, openapi.test.ts at a load of 15). A hung test still ends.
  testTimeout: 180_000,
  hookTimeout: 240_000,
  pool: 'forks',
} as const;

export default defineConfig({
  test: {
    // One migrated database of each kind, copied for every test database.
    globalSetup: ['apps/server/src/test/global-setup.ts'],
    // Two cores: more workers only fight over argon2 and the embedded databases.
    maxWorkers: 2,
    projects: [
      {
        test: {
          ...shared,
          name: 'shared-modules',
          include: ['packages/shared/src/**/*.test.ts', 'apps/server/src/**/*.test.ts', 'apps/web/src/**/*.test.ts'],
          exclude: [...OWN_MODULES, '**/node_modules/**'],
          isolate: false,
        },
      },
      { test: { ...shared, name: 'own-modules', include: OWN_MODULES, isolate: true } },
    ],
  },
});
