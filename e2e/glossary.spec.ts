// The glossary of every term shown (issue 35): terms in the legend, the metrics, the panel
// headings and the narration show their definition on hover or focus and open the glossary
// at their entry on a click; headings keep the case of symbols (α, lbMSN).
import { mkdirSync } from 'node:fs';
import { expect } from '@playwright/test';
import { sharedTest as test, ready, still, watch } from './helpers';

const SHOTS = 'test-results/glossary';
test.beforeAll(() => mkdirSync(SHOTS, { recursive: true }));

test('legend, metrics and narration terms: a definition on hover and focus, the glossary on click', async ({
  page,
}) => {
  const problems = watch(page);
  await ready(page);
  const tip = page.getByTestId('glossary-tip');
  // Hover a legend entry.
  await page.locator('[data-testid=legend] .term[data-term=page-erased]').hover();
  await expect(tip).toBeVisible();
  await expect(tip).toContainText('Erased page');
  await expect(tip).toContainText('LTFTL §3.2');
  await page.screenshot({ path: `${SHOTS}/hover-legend.png` });
  // Focus a metric label from the keyboard: the same tip, described by it.
  const wa = page.locator('[data-testid=metric-write_amplification] .term');
  await wa.focus();
  await expect(tip).toHaveAttribute('data-term', 'wa');
  await expect(wa).toHaveAttribute('aria-describedby', 'glossary-tip');
  await page.screenshot({ path: `${SHOTS}/focus-metric.png` });
  await page.keyboard.press('Escape');
  await expect(tip).toBeHidden();
  // A narration term: step until the narration names one, then click it.
  await page.getByTestId('btn-step-op').click();
  await still(page);
  const term = page.locator('[data-testid=narration] .term').first();
  await expect(term).toBeVisible();
  const id = await term.getAttribute('data-term');
  await term.click();
  const entry = page.getByTestId(`glossary-${id}`);
  await expect(page.getByTestId('glossary')).toBeVisible();
  await expect(entry).toBeVisible();
  await expect(entry).toHaveClass(/current/);
  await page.screenshot({ path: `${SHOTS}/click-narration.png` });
  await page.keyboard.press('Escape');
  await expect(page.getByTestId('glossary')).toBeHidden();
  expect(problems).toEqual([]);
});

test('panel headings keep the case of symbols and link their terms (RFTL: α, sub-table)', async ({ page }) => {
  const problems = watch(page);
  await ready(page);
  await page.getByTestId('preset').selectOption('rftl-gc');
  await page.getByTestId('apply').click();
  await expect(page.getByTestId('scenario-line')).toContainText('RFTL');
  await page.getByTestId('btn-step-request').click();
  await still(page);
  // innerText applies text-transform: what the reader sees.
  const heading = page.locator('section.view-table h2', { hasText: 'Sub-table' }).first();
  await expect(heading).toBeVisible();
  expect(await heading.evaluate((h) => (h as HTMLElement).innerText)).toContain('α =');
  await heading.locator('.term[data-term=sub-table]').first().hover();
  await expect(page.getByTestId('glossary-tip')).toContainText('RFTL §4.1');
  await heading.scrollIntoViewIfNeeded();
  await page.screenshot({ path: `${SHOTS}/hover-heading-rftl.png` });
  expect(problems).toEqual([]);
});

test('a term is an inline button: the keyboard opens it, and a term of several words wraps with the line', async ({
  page,
}) => {
  const problems = watch(page);
  await ready(page);
  const welcome = page.getByTestId('welcome');
  // a button to assistive technology, named by its words
  const gc = welcome.getByRole('button', { name: 'garbage collection', exact: true });
  await expect(gc).toHaveAttribute('data-term', 'gc');
  // Tab reaches it (the term before it first), Enter opens the glossary at its entry
  await welcome.locator('.term').first().focus();
  for (let i = 0; i < 5 && !(await gc.evaluate((el) => el === document.activeElement)); i++)
    await page.keyboard.press('Tab');
  await expect(gc).toBeFocused();
  await expect(page.getByTestId('glossary-tip')).toHaveAttribute('data-term', 'gc');
  await page.keyboard.press('Enter');
  const entry = page.getByTestId('glossary-gc');
  await expect(entry).toBeVisible();
  await expect(entry).toHaveClass(/current/);
  await page.keyboard.press('Escape');
  await expect(page.getByTestId('glossary')).toBeHidden();
  // Space too, and it neither plays nor scrolls (the step counter stays at 0)
  await gc.focus();
  await page.keyboard.press(' ');
  await expect(entry).toBeVisible();
  await page.keyboard.press('Escape');
  await expect(page.getByTestId('glossary')).toBeHidden();
  await expect(page.getByTestId('step-counter')).toHaveAttribute('data-step', '0');
  // Narrowed step by step, the welcome's text breaks inside "garbage collection" at some
  // width: the term is then two boxes, one at the end of a line and one at the start of
  // the next (a <button> is one box and moved whole, leaving a short line above it).
  const split = await welcome.locator('p').evaluate(
    (p, widths) => {
      const term = p.querySelector<HTMLElement>('.term[data-term=gc]')!;
      for (const w of widths) {
        p.style.width = `${w}px`;
        const rects = Array.from(term.getClientRects()).filter((r) => r.width > 0);
        if (rects.length > 1) return { width: w, lines: rects.map((r) => Math.round(r.top)) };
      }
      return null;
    },
    Array.from({ length: 90 }, (_, i) => 600 - 5 * i),
  );
  expect(split, 'a width at which the term wraps').not.toBeNull();
  expect(new Set(split!.lines).size).toBeGreaterThan(1);
  expect(problems).toEqual([]);
});
