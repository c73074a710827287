import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['**/*.test.ts'],
    exclude: ['node_modules/**', 'web/dist/**', 'data/**'],
    // Every answer a test gets through tests/helpers is checked against openapi/openapi.json.
    setupFiles: ['tests/helpers/answers-setup.ts'],
    // A loopback https certificate every test process trusts (stand-in https audio hosts).
    globalSetup: ['tests/helpers/loopback-tls.ts'],
    testTimeout: 30_000,
    // A poll waits for something the system does on its own time (a track starting, a push reaching a
    // page); under the full suite on two cores that can take several seconds, not the default one.
    expect: { poll: { timeout: 15_000 } },
    hookTimeout: 60_000,
    pool: 'forks',
    // Two cores: more workers only add scheduling noise to the timing-sensitive audio and voice suites.
    maxWorkers: 2,
  },
});
