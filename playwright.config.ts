import { defineConfig } from '@playwright/test';

// Playwright cannot download its own browsers here: we drive Debian's chromium
// (installed by `node scripts/bootstrap.mjs --browser`) against the production build.
const PORT = Number(process.env.PW_PORT ?? process.env.E2E_PORT ?? 4179);

export default defineConfig({
  testDir: 'e2e',
  outputDir: 'test-results',
  // A hang detector, not a speed check: tests wait for states, and a whole test (several
  // pages, an upload, 40 steps) took over 30 s at load average 23 on the 2-core machine.
  timeout: 90_000,
  expect: { timeout: 10_000 },
  // Tests, not files, are shared out between the workers: each test opens its own page (or
  // the worker's blank shared page, e2e/helpers.ts) and nothing passes between tests. With
  // files as the unit, the last file (viz.spec.ts, 15 tests, 61 s) ran alone on one worker
  // while the other had nothing left (session 26's idle run: 509 of 525 s by the files'
  // order, 480 s shared test by test).
  fullyParallel: true,
  // One worker a core: the 2-core CI machine ran the suite in 9.4 min with two (12.9 min with
  // one), and passed with both cores held by two busy loops (15.6 min, load 13-16).
  // PW_WORKERS=1 for a serial run.
  workers: Number(process.env.PW_WORKERS ?? 2),
  retries: 0,
  forbidOnly: !!process.env.CI,
  reporter: [['list']],
  use: {
    baseURL: `http://127.0.0.1:${PORT}`,
    viewport: { width: 1280, height: 720 },
    browserName: 'chromium',
    launchOptions: {
      executablePath: process.env.CHROMIUM_PATH || '/usr/bin/chromium',
      args: [
        '--no-sandbox',
        '--disable-gpu',
        '--disable-background-networking',
        '--disable-component-update',
        '--no-first-run',
        '--disable-sync',
        '--disable-quic',
      ],
    },
    trace: 'off',
    screenshot: 'only-on-failure',
  },
  webServer: {
    command: `npx vite preview --host 127.0.0.1 --port ${PORT} --strictPort`,
    url: `http://127.0.0.1:${PORT}`,
    reuseExistingServer: !process.env.CI,
    // Start-up only (a preview server on a busy 2-core CI machine can be slow to bind).
    timeout: 180_000,
    stdout: 'ignore',
    stderr: 'pipe',
  },
});
