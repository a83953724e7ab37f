// Shared by the e2e specs: what every test asserts about the page, and where it stands.
import { expect, type Page } from '@playwright/test';

/** Console errors and warnings, uncaught errors and any request off this machine. */
export function watch(page: Page) {
  const problems: string[] = [];
  page.on('console', (msg) => {
    if (msg.type() === 'error' || msg.type() === 'warning') problems.push(`console.${msg.type()}: ${msg.text()}`);
  });
  page.on('pageerror', (err) => problems.push(`pageerror: ${err.message}`));
  page.on('request', (req) => {
    const url = new URL(req.url());
    if (
      !['127.0.0.1', 'localhost'].includes(url.hostname) &&
      !url.protocol.startsWith('data') &&
      !url.protocol.startsWith('blob')
    ) {
      problems.push(`off-site request: ${req.url()}`);
    }
  });
  return problems;
}

/** The step counter: requests completed and flash operations revealed. */
export async function counter(page: Page) {
  const el = page.getByTestId('step-counter');
  return { step: Number(await el.getAttribute('data-step')), op: Number(await el.getAttribute('data-op')) };
}

/** The app opened on its default scenario, the chip drawn and stepping enabled. */
export async function ready(page: Page) {
  await page.goto('/');
  await expect(page.locator('[data-testid=device-grid] rect.page').first()).toBeVisible();
  await expect(page.getByTestId('btn-step-op')).toBeEnabled();
}
