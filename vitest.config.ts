import { defineConfig } from 'vitest/config';

// Three projects, so the fast loop stays fast (`npm run test:unit`, seconds) and `npm test` still
// runs everything:
// - unit: in-process tests beside the code (src/**) and the catalog check; no build needed.
// - e2e: the built bin/ah.cjs and real processes (test/e2e, test/integration, test/fuzz, the
//   packed tarball).
// - slow: real outside components: the MCP conformance suite, Chromium, a systemd user manager,
//   the real agent clients. Suites here may need a system program (test/helpers/requires.ts).
const SLOW = [
  'test/conformance/**/*.test.ts',
  'test/e2e/secrets-browser.test.ts',
  'test/e2e/clients.test.ts',
  'test/e2e/ai-install-clients.test.ts',
  'test/integration/service-systemd.test.ts',
  'test/integration/ai-install-managed.test.ts',
];

export default defineConfig({
  test: {
    exclude: ['**/node_modules/**', 'dist/**'],
    testTimeout: 30_000,
    hookTimeout: 30_000,
    pool: 'forks',
    maxWorkers: 2,
    // Process-level suites spawn servers; keep them from starving each other on 2 cores.
    fileParallelism: true,
    projects: [
      { extends: true, test: { name: 'unit', include: ['src/**/*.test.ts', 'test/catalog.test.ts'] } },
      {
        extends: true,
        test: {
          name: 'e2e',
          include: ['test/e2e/**/*.test.ts', 'test/integration/**/*.test.ts', 'test/fuzz/**/*.test.ts'],
          exclude: ['**/node_modules/**', ...SLOW],
        },
      },
      { extends: true, test: { name: 'slow', include: SLOW } },
    ],
  },
});
