import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['**/*.test.ts'],
    exclude: ['node_modules/**', 'web/dist/**', 'data/**'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    pool: 'forks',
    // Two cores: more workers only add scheduling noise to the timing-sensitive audio and voice suites.
    maxWorkers: 2,
  },
});
