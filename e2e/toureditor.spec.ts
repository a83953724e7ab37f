// Issue 39's done-when: a teacher authors a three-stop tour from scratch on BAST in the app
// (by clicking: stops at moments, a highlight picked on the chip, a prediction), saves it,
// reopens it from the file and from its link in fresh pages, plays it to the end and prints
// it. And nothing is lost: the draft survives a reload, closing asks before discarding.
import { mkdirSync, readFileSync } from 'node:fs';
import AxeBuilder from '@axe-core/playwright';
import { expect, type Page } from '@playwright/test';
import { sharedTest as test, ready, readyAt, settled, stepTo, watch } from './helpers';

const SHOTS = 'test-results/toureditor';
test.beforeAll(() => mkdirSync(SHOTS, { recursive: true }));

/** BAST with 2 log blocks on the classroom chip, at request 16. */
async function bast(page: Page) {
  await ready(page);
  await page.getByTestId('preset').selectOption('bast-thrashing');
  await page.getByTestId('apply').click();
  await expect(page.getByTestId('scenario-line')).toContainText('BAST');
  await settled(page);
  // To the moment after the sixteen writes, from the scrubber (a request boundary).
  await page.getByTestId('scrubber').fill('16');
  await expect(page.getByTestId('step-counter')).toHaveAttribute('data-step', '16');
  await expect(page.getByTestId('step-counter')).toHaveAttribute('data-op', '0');
  await settled(page);
}

async function newTour(page: Page) {
  await page.getByTestId('tour-menu').click();
  await page.getByTestId('tour-new').click();
  await expect(page.getByTestId('tour-editor')).toBeVisible();
}

/** Step `n` whole requests, each time waiting until the app has settled on the next one. */
async function stepRequests(page: Page, n: number) {
  const { step: at } = await settled(page);
  for (let i = 1; i <= n; i++) expect(await stepTo(page, 'btn-step-request')).toBe(`${at + i}:0`);
}

const stops = (page: Page) => page.getByTestId('ted-stop-item');

test('author a three-stop BAST tour by clicking, save it, reopen it from the file and its link, play it to the end and print it', async ({
  page,
  context,
}) => {
  const problems = watch(page);
  await bast(page);
  await newTour(page);
  await expect(page.getByTestId('ted-empty')).toBeVisible();
  await page.getByTestId('ted-title').fill('BAST thrashing, my way');
  await page.screenshot({ path: `${SHOTS}/empty.png` });

  // Stop 1 at request 16: the data blocks; block 0 and one page of block 1 picked by clicking.
  await page.getByTestId('ted-add').click();
  await expect(stops(page)).toHaveCount(1);
  await expect(page.getByTestId('ted-stop-at')).toContainText('At request 16');
  await page.getByTestId('ted-stop-title').fill('Sixteen pages in place');
  // Try it before writing: every problem is named, nothing plays.
  await page.getByTestId('ted-try').click();
  await expect(page.getByTestId('ted-problems')).toContainText('Stop 1 · text: write what the students');
  await expect(page.getByTestId('tour-panel')).toHaveCount(0);
  await page.screenshot({ path: `${SHOTS}/errors.png` });
  await page
    .getByTestId('ted-stop-text')
    .fill('Each logical page went *in place* into its [data block](glossary:block-data).\n\n- block 0 holds LPNs 0–3');
  await expect(page.getByTestId('ted-preview').locator('em')).toHaveText('in place');
  await expect(page.getByTestId('ted-preview').locator('li')).toHaveCount(1);
  await page.getByTestId('ted-pick').click();
  const grid = page.locator('.chip-area [data-testid=device-grid]');
  await grid.locator('g.block[data-block="0"] .role-band').click();
  await page.getByTestId('ted-pick-pages').check();
  await grid.locator('g.block[data-block="1"] g.page-cell[data-page="2"] rect.page').click();
  await page.getByTestId('ted-pick').click();
  await expect(page.getByTestId('ted-picked')).toContainText('block 0');
  await expect(page.getByTestId('ted-picked')).toContainText('block 1 page 2');
  // The chip shows the highlight as the tour will: the block and the page, nothing else.
  await expect(grid.locator('g.block.tour-hi')).toHaveCount(1);
  await expect(grid.locator('g.block.tour-hi')).toHaveAttribute('data-block', '0');
  await expect(grid.locator('g.block[data-block="1"] g.page-cell.tour-hi-page')).toHaveAttribute('data-page', '2');
  await page.screenshot({ path: `${SHOTS}/highlight.png` });

  // Stop 2 two requests on, with a prediction; stop 3 one request after.
  await stepRequests(page, 2);
  await page.getByTestId('ted-add').click();
  await expect(stops(page)).toHaveCount(2);
  await page.getByTestId('ted-stop-title').fill('Both log blocks in use');
  await page.getByTestId('ted-stop-text').fill('S0 and S4 each took a log block. What will **S8** do?');
  await page.getByTestId('ted-predict-kind').check();
  await page.getByTestId('ted-predict-copies').check();
  await stepRequests(page, 1);
  await page.getByTestId('ted-add').click();
  await page.getByTestId('ted-stop-title').fill('A full merge');
  await page.getByTestId('ted-stop-text').fill('A log block was merged back to make room.');
  await expect(stops(page)).toHaveCount(3);
  await expect(page.getByTestId('tour-editor')).toHaveAttribute('data-stops', '3');
  await page.screenshot({ path: `${SHOTS}/stops.png` });

  // Save: checked, then written as a file that holds what was clicked.
  const download = page.waitForEvent('download');
  await page.getByTestId('ted-save').click();
  const saved = await download;
  expect(saved.suggestedFilename()).toBe('bast-thrashing-my-way.tour.json');
  const text = readFileSync((await saved.path())!, 'utf8');
  const file = JSON.parse(text);
  expect(file.scenario.scheme).toBe('bast');
  expect(file.stops.map((s: { at: unknown }) => s.at)).toEqual([
    { step: 16, op: 0 },
    { step: 18, op: 0 },
    { step: 19, op: 0 },
  ]);
  expect(file.stops[0].highlight).toEqual({ blocks: [0], pages: [[1, 2]] });
  expect(file.stops[1].predict).toEqual(['kind', 'copies']);
  await expect(page.getByTestId('ted-status')).toContainText('Saved bast-thrashing-my-way.tour.json');

  // Try it: the tour plays; its share box gives the link.
  await page.getByTestId('ted-try').click();
  const panel = page.getByTestId('tour-panel');
  await expect(panel).toHaveAttribute('data-tour', 'bast-thrashing-my-way');
  await expect(page.getByTestId('tour-editor')).toHaveCount(0);
  await page.getByTestId('tour-share').click();
  await page.getByTestId('tour-copy-link').click();
  const link = await page.getByTestId('tour-link').inputValue();
  expect(link).toMatch(/#tourfile=/);
  // Embed code for a course page: the iframe plays the tour inside the page.
  await page.getByTestId('tour-copy-embed').click();
  const code = await page.getByTestId('tour-embed').inputValue();
  expect(code).toMatch(/^<iframe src="http:[^"]*\?embed=1#tourfile=[^"]+" width="960" height="600"/);
  await page.screenshot({ path: `${SHOTS}/embed-code.png` });
  const course = await context.newPage();
  const courseProblems = watch(course);
  await course.setContent(`<h1>Lecture 7: BAST</h1>${code}`);
  const frame = course.frameLocator('iframe');
  await expect(frame.getByTestId('tour-panel')).toHaveAttribute('data-tour', 'bast-thrashing-my-way');
  await expect(frame.locator('.app')).toHaveAttribute('data-embed', 'true');
  await expect(frame.getByTestId('tour-edit')).toBeHidden();
  await course.screenshot({ path: `${SHOTS}/embedded.png` });
  expect(courseProblems).toEqual([]);
  await course.close();

  // A fresh page: the saved file opened from the Tours menu, played to the end.
  const fromFile = await context.newPage();
  const fileProblems = watch(fromFile);
  await ready(fromFile);
  await fromFile.getByTestId('tour-menu').click();
  const chooser = fromFile.waitForEvent('filechooser');
  await fromFile.getByTestId('tour-open-file').click();
  await (
    await chooser
  ).setFiles({ name: saved.suggestedFilename(), mimeType: 'application/json', buffer: Buffer.from(text) });
  await playThrough(fromFile);
  expect(fileProblems).toEqual([]);

  // A fresh page from the link: played to the end and printed.
  const fresh = await context.newPage();
  const freshProblems = watch(fresh);
  await fresh.goto(link);
  await playThrough(fresh);
  await fresh.getByTestId('tour-print').click();
  await expect(fresh.getByTestId('print-tour')).toHaveAttribute('data-ready', 'true');
  await expect(fresh.getByTestId('print-stop')).toHaveCount(3);
  await expect(fresh.getByTestId('print-stop').first()).toContainText('Sixteen pages in place');
  // The picked block is highlighted in print too.
  await expect(fresh.getByTestId('print-stop').first().locator('g.block.tour-hi')).toHaveAttribute('data-block', '0');
  await expect(
    fresh.getByTestId('print-stop').first().locator('g.block[data-block="1"] g.page-cell.tour-hi-page'),
  ).toHaveAttribute('data-page', '2');
  await fresh.screenshot({ path: `${SHOTS}/print.png`, fullPage: true });
  expect(freshProblems).toEqual([]);
  expect(problems).toEqual([]);
});

/** Play the authored tour from its first stop to its last. */
async function playThrough(page: Page) {
  const panel = page.getByTestId('tour-panel');
  await expect(panel).toHaveAttribute('data-tour', 'bast-thrashing-my-way');
  await expect(panel).toHaveAttribute('data-stops', '3');
  const grid = page.locator('.chip-area [data-testid=device-grid]');
  await expect(panel).toHaveAttribute('data-stop', '0');
  await expect(page.getByTestId('tour-text').locator('em')).toHaveText('in place');
  await expect(grid.locator('g.block.tour-hi')).toHaveAttribute('data-block', '0');
  await expect(grid.locator('g.block[data-block="1"] g.page-cell.tour-hi-page')).toHaveAttribute('data-page', '2');
  await page.getByTestId('tour-play').click();
  await expect(panel).toHaveAttribute('data-stop', '1');
  // The prediction is asked, and the core answers it.
  await expect(page.getByTestId('predict')).toBeVisible();
  await page.getByTestId('tour-next').click();
  await expect(panel).toHaveAttribute('data-stop', '2');
  await expect(page.getByTestId('tour-next')).toHaveText('Finish tour');
  await expect(page.getByTestId('step-counter')).toHaveAttribute('data-step', '19');
}

test('the draft survives a reload; stops reorder from the keyboard; closing asks before discarding', async ({
  page,
}) => {
  const problems = watch(page);
  await bast(page);
  await newTour(page);
  await page.getByTestId('ted-add').click();
  await page.getByTestId('ted-stop-title').fill('First written');
  await stepRequests(page, 1);
  await page.getByTestId('ted-add').click();
  await page.getByTestId('ted-stop-title').fill('Second written');
  await expect(stops(page)).toHaveCount(2);

  await page.reload();
  await expect(page.getByTestId('tour-editor')).toBeVisible();
  await expect(stops(page)).toHaveCount(2);
  await expect(stops(page).nth(1)).toContainText('Second written');

  // Keyboard: focus "Move stop 2 up" and press Enter.
  await page.getByRole('button', { name: 'Move stop 2 up' }).focus();
  await page.keyboard.press('Enter');
  await expect(stops(page).nth(0)).toContainText('Second written');
  await expect(stops(page).nth(1)).toContainText('First written');
  await page.getByRole('button', { name: 'Delete stop 2' }).click();
  await expect(stops(page)).toHaveCount(1);

  await page.getByTestId('ted-close').click();
  await expect(page.getByTestId('ted-confirm')).toBeVisible();
  await expect(page.getByTestId('ted-confirm-no')).toBeFocused();
  await page.keyboard.press('Enter');
  await expect(page.getByTestId('tour-editor')).toBeVisible();
  await expect(stops(page)).toHaveCount(1);
  await page.getByTestId('ted-close').click();
  await page.getByTestId('ted-confirm-yes').click();
  await expect(page.getByTestId('tour-editor')).toHaveCount(0);
  await page.reload();
  await expect(page.locator('[data-testid=device-grid] rect.page').first()).toBeVisible();
  await expect(page.getByTestId('tour-editor')).toHaveCount(0);
  expect(problems).toEqual([]);
});

test('the Tours menu fits a 720 px window: the list scrolls inside it, every entry reachable from the keyboard', async ({
  page,
}) => {
  const problems = await readyAt(page, { width: 1280, height: 720 });
  await page.getByTestId('tour-menu').click();
  const list = page.locator('.tour-list');
  await expect(list.locator('button').first()).toBeVisible();
  const bottom = await page.evaluate(() => document.querySelector('.menu-popup')!.getBoundingClientRect().bottom);
  expect(bottom).toBeLessThanOrEqual(720);
  await expect(page.getByTestId('tour-new')).toBeInViewport();
  await expect(page.getByTestId('tour-open-file')).toBeInViewport();
  // Tab from the menu button through every tour: each focused entry is scrolled into view.
  const n = await list.locator('button').count();
  expect(n).toBeGreaterThanOrEqual(9);
  await page.getByTestId('tour-menu').focus();
  for (let i = 0; i < n; i++) {
    await page.keyboard.press('Tab');
    await expect(list.locator('button').nth(i)).toBeFocused();
    await expect(list.locator('button').nth(i)).toBeInViewport();
  }
  await page.keyboard.press('Tab');
  await expect(page.getByTestId('tour-new')).toBeFocused();
  // The page itself did not scroll to show the menu.
  expect(await page.evaluate(() => document.scrollingElement!.scrollTop)).toBe(0);
  await page.keyboard.press('Escape');
  await expect(list).toHaveCount(0);
  await expect(page.getByTestId('tour-menu')).toBeFocused();
  expect(problems).toEqual([]);
});

test('Edit this tour: a built-in tour becomes your copy; Try it and back keeps the draft; hostile text previews as text', async ({
  page,
}) => {
  const problems = watch(page);
  page.on('dialog', (d) => problems.push(`dialog: ${d.message()}`));
  await page.goto('/#tour=intro-ftl');
  const panel = page.getByTestId('tour-panel');
  await expect(panel).toHaveAttribute('data-stop', '0');
  await page.getByTestId('tour-edit').click();
  const editor = page.getByTestId('tour-editor');
  await expect(editor).toHaveAttribute('data-stops', '8');
  await expect(panel).toHaveCount(0);
  await expect(page.getByTestId('ted-title')).toHaveValue('My copy of What a flash translation layer does (3 minutes)');
  // The copy keeps the built-in's highlight (roles), shown as removable.
  await expect(page.getByTestId('ted-picked')).toContainText('role free');
  await page.getByTestId('ted-title').fill('Intro, my order');
  await page.getByRole('button', { name: 'Delete stop 8' }).click();
  await expect(editor).toHaveAttribute('data-stops', '7');
  await page
    .getByTestId('ted-stop-text')
    .fill('<script>window.__pwned = 1</script><img src=x onerror="window.__pwned = 2">');
  await expect(page.getByTestId('ted-preview').locator('.tour-text')).toHaveText(
    '<script>window.__pwned = 1</script><img src=x onerror="window.__pwned = 2">',
  );
  await expect(page.getByTestId('ted-preview').locator('script, img')).toHaveCount(0);

  await page.getByTestId('ted-try').click();
  await expect(panel).toHaveAttribute('data-tour', 'intro-my-order');
  await expect(panel).toHaveAttribute('data-stops', '7');
  // The built-in tour is untouched.
  await page.getByTestId('tour-edit').click();
  await expect(editor).toHaveAttribute('data-stops', '7');
  await expect(page.getByTestId('ted-confirm')).toHaveCount(0);
  await expect(page.getByTestId('ted-title')).toHaveValue('Intro, my order');
  await page.getByTestId('ted-close').click();
  await page.getByTestId('ted-confirm-yes').click();
  await page.getByTestId('tour-menu').click();
  await page.getByTestId('tour-intro-ftl').click();
  await expect(panel).toHaveAttribute('data-tour', 'intro-ftl');
  await expect(panel).toHaveAttribute('data-stops', '8');
  expect(await page.evaluate(() => (window as unknown as { __pwned?: number }).__pwned)).toBeUndefined();
  expect(problems).toEqual([]);
});

test('the editor has no axe violations, light and dark, with a stop, problems listed and the picker on', async ({
  page,
}) => {
  const problems = watch(page);
  await bast(page);
  await newTour(page);
  await page.getByTestId('ted-add').click();
  await page.getByTestId('ted-try').click();
  await expect(page.getByTestId('ted-problems')).toBeVisible();
  await page.getByTestId('ted-pick').click();
  await page.getByTestId('ted-pick-block').fill('3');
  await page.getByTestId('ted-pick-add').click();
  await expect(page.getByTestId('ted-picked')).toContainText('block 3');
  const axe = async () =>
    (await new AxeBuilder({ page }).include('.tour-editor').analyze()).violations.map(
      (v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`,
    );
  expect(await axe()).toEqual([]);
  await page.getByRole('button', { name: 'Dark theme' }).click();
  await expect(page.locator('html')).toHaveAttribute('data-theme', 'dark');
  expect(await axe()).toEqual([]);
  await page.screenshot({ path: `${SHOTS}/dark.png` });
  expect(problems).toEqual([]);
});
