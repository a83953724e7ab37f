// Issue 39: a teacher's own tour travels as a file and as a link, and is played and printed
// like a built-in one; a hostile file is one clear error, or inert text.
import { mkdirSync, readFileSync } from 'node:fs';
import { expect, type Page } from '@playwright/test';
import lz from 'lz-string';
import { sharedTest as test, still, watch } from './helpers';

const SHOTS = 'test-results/tourfiles';
test.beforeAll(() => mkdirSync(SHOTS, { recursive: true }));

/** Three stops on BAST, with a highlight and a prediction (the format of docs/tours.md). */
const MINE = {
  format: 'ftlscope-tour',
  version: 1,
  id: 'my-bast-lecture',
  title: 'BAST in three stops',
  summary: 'Data blocks, a log block each, and the full merge that evicts one.',
  scenario: {
    scheme: 'bast',
    params: { log_blocks: 2 },
    chip: { preset: 'classroom', blocks: 16, pages_per_block: 4 },
    workload: { kind: 'pattern', text: 'w0-15 S0 S4 S8 S12' },
  },
  stops: [
    {
      title: 'The data blocks are written',
      at: { step: 16, op: 0 },
      text: 'Each logical page went *in place* into its data block.',
      highlight: { roles: ['data'] },
    },
    {
      title: 'Two log blocks in use',
      at: { step: 18, op: 0 },
      text: 'S0 and S4 each got a log block. What will S8 do?\n\n- no log block is free\n- see [full merge](glossary:full)',
      highlight: { roles: ['log'] },
      predict: ['kind', 'copies'],
    },
    {
      title: 'One write, two erases',
      at: { step: 19, op: 0 },
      text: 'The evicted log block held **one** sector.',
      highlight: { touched: true },
    },
  ],
};

const file = (name: string, body: unknown) => ({
  name,
  mimeType: 'application/json',
  buffer: Buffer.from(typeof body === 'string' ? body : JSON.stringify(body)),
});

async function openFile(page: Page, f: ReturnType<typeof file>) {
  await page.getByTestId('tour-menu').click();
  const chooser = page.waitForEvent('filechooser');
  await page.getByTestId('tour-open-file').click();
  await (await chooser).setFiles(f);
}

async function ready(page: Page) {
  await page.goto('/');
  await expect(page.locator('[data-testid=device-grid] rect.page').first()).toBeVisible();
}

/** Play the tour from its first stop to its last, checking the highlight at each. */
async function playThrough(page: Page) {
  const panel = page.getByTestId('tour-panel');
  await expect(panel).toHaveAttribute('data-tour', MINE.id);
  for (let i = 0; i < MINE.stops.length; i++) {
    await expect(panel).toHaveAttribute('data-stop', String(i));
    await expect(page.getByTestId('tour-next')).toBeEnabled();
    await expect(page.locator('.chip-area g.block.tour-hi').first()).toBeAttached();
    if (i === 1) await expect(page.getByTestId('tour-text').locator('li')).toHaveCount(2);
    if (i < MINE.stops.length - 1) await page.getByTestId('tour-play').click();
  }
  await expect(page.getByTestId('tour-next')).toHaveText('Finish tour');
}

test('a teacher’s tour: opened from a file, saved, reopened from the saved file (dropped) and from its link in fresh pages, played to the end and printed', async ({
  page,
  context,
}) => {
  const problems = watch(page);
  await ready(page);
  await openFile(page, file('my-bast-lecture.tour.json', MINE));
  await expect(page.getByTestId('tour-panel')).toHaveAttribute('data-tour', MINE.id);
  await expect(page.getByTestId('tour-text').locator('em')).toHaveText('in place');
  await page.screenshot({ path: `${SHOTS}/opened.png` });

  // Save: the file is the tour as opened.
  await page.getByTestId('tour-share').click();
  const download = page.waitForEvent('download');
  await page.getByTestId('tour-save').click();
  const saved = await download;
  expect(saved.suggestedFilename()).toBe('my-bast-lecture.tour.json');
  const savedText = readFileSync((await saved.path())!, 'utf8');
  expect(JSON.parse(savedText)).toEqual(MINE);

  // The link, shown beside the buttons (and copied when the clipboard allows).
  await page.getByTestId('tour-copy-link').click();
  const link = await page.getByTestId('tour-link').inputValue();
  expect(link).toMatch(/#tourfile=/);
  await page.screenshot({ path: `${SHOTS}/link.png` });

  // A fresh page, the saved file dropped on it.
  const dropped = await context.newPage();
  const droppedProblems = watch(dropped);
  await ready(dropped);
  const dt = await dropped.evaluateHandle((text) => {
    const d = new DataTransfer();
    d.items.add(new File([text], 'my-bast-lecture.tour.json', { type: 'application/json' }));
    return d;
  }, savedText);
  await dropped.dispatchEvent('main', 'drop', { dataTransfer: dt });
  await playThrough(dropped);
  await expect(dropped.getByTestId('trace-dialog')).toHaveCount(0);
  expect(droppedProblems).toEqual([]);

  // A fresh page from the link: played to the end, then printed.
  const fresh = await context.newPage();
  const freshProblems = watch(fresh);
  await fresh.goto(link);
  await playThrough(fresh);
  // the moment drawn, the chip still and the address bar written for it (not a stop before)
  const { hash } = await still(fresh);
  await fresh.screenshot({ path: `${SHOTS}/last-stop.png` });
  // A reload (the address now names the tour by id, at its last stop) finds it again in this tab.
  const state = JSON.parse(lz.decompressFromEncodedURIComponent(hash.replace(/^#v1=/, '')) ?? 'null') as {
    view?: { tour?: { index: number } };
  } | null;
  expect(state?.view?.tour?.index).toBe(2);
  await fresh.reload();
  await expect(fresh.getByTestId('tour-panel')).toHaveAttribute('data-tour', MINE.id);
  await expect(fresh.getByTestId('tour-panel')).toHaveAttribute('data-stop', '2');
  await fresh.getByTestId('tour-print').click();
  await expect(fresh.getByTestId('print-tour')).toHaveAttribute('data-ready', 'true');
  await expect(fresh.getByTestId('print-stop')).toHaveCount(3);
  await expect(fresh.locator('[data-testid=print-stop] [data-testid=device-grid]')).toHaveCount(3);
  await expect(fresh.getByTestId('print-stop').nth(1).locator('li')).toHaveCount(2);
  await fresh.screenshot({ path: `${SHOTS}/print.png`, fullPage: true });
  expect(freshProblems).toEqual([]);
  expect(problems).toEqual([]);
});

test('a hostile tour file is one clear error, and hostile text is shown as text', async ({ page }) => {
  const problems = watch(page);
  page.on('dialog', (d) => problems.push(`dialog: ${d.message()}`));
  await ready(page);
  const bad = {
    ...MINE,
    colour: 'red',
    stops: [{ ...MINE.stops[0], at: { step: 400, op: 0 }, text: '[x](javascript:alert(1))' }],
  };
  await openFile(page, file('bad.tour.json', bad));
  const error = page.getByTestId('tour-open-error');
  await expect(error).toContainText('“bad.tour.json” could not be opened');
  await expect(error).toContainText('colour: unknown field');
  await expect(error).toContainText('stops[0].text: the link [x](javascript:alert(1) is not a glossary term');
  await expect(page.getByTestId('tour-panel')).toHaveCount(0);
  await page.screenshot({ path: `${SHOTS}/error.png` });
  await error.getByRole('button', { name: 'Dismiss' }).click();

  const many = { ...MINE, stops: Array.from({ length: 100_000 }, () => MINE.stops[0]) };
  await openFile(page, file('many.tour.json', many));
  await expect(error).toContainText('too large');
  await error.getByRole('button', { name: 'Dismiss' }).click();
  const hundred = { ...MINE, stops: Array.from({ length: 100 }, () => MINE.stops[0]) };
  await openFile(page, file('hundred.tour.json', hundred));
  await expect(error).toContainText('stops: too many stops: 100 (at most 60)');
  await error.getByRole('button', { name: 'Dismiss' }).click();
  const outOfRange = { ...MINE, stops: [{ ...MINE.stops[0], at: { step: 40, op: 0 } }] };
  await openFile(page, file('range.tour.json', outOfRange));
  await expect(error).toContainText('stops[0].at.step: request 40 is beyond the workload (20 requests)');
  await error.getByRole('button', { name: 'Dismiss' }).click();

  const inert = {
    ...MINE,
    stops: [{ ...MINE.stops[0], text: '<script>window.__pwned = 1</script><img src=x onerror="window.__pwned = 2">' }],
  };
  await openFile(page, file('inert.tour.json', inert));
  await expect(page.getByTestId('tour-text')).toHaveText(
    '<script>window.__pwned = 1</script><img src=x onerror="window.__pwned = 2">',
  );
  await expect(page.getByTestId('tour-text').locator('script, img')).toHaveCount(0);
  expect(await page.evaluate(() => (window as unknown as { __pwned?: number }).__pwned)).toBeUndefined();
  expect(problems).toEqual([]);
});
