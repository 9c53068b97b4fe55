import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['packages/shared/src/**/*.test.ts', 'apps/server/src/**/*.test.ts', 'apps/web/src/**/*.test.ts'],
    environment: 'node',
    // One migrated database of each kind, copied for every test database.
    globalSetup: ['apps/server/src/test/global-setup.ts'],
    testTimeout: 60_000,
    hookTimeout: 120_000,
    pool: 'forks',
    // Two cores: more workers only fight over argon2 and the embedded databases.
    maxWorkers: 2,
  },
});
