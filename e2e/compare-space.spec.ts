// The compare view replays one request list by default (issue 38, item 2): every run in the
// smallest own logical space among them, its figures equal to `ftl sweep`'s rows
// (web/src/compare/fixtures/ftl-sweep-classroom.json), each row's own space, workload space
// and resolved parameters shown; "each scheme's own space" gives the paper defaults, equal to
// `ftl sweep --own-space`.
import { expect, type Page } from '@playwright/test';
import lz from 'lz-string';
import { mkdirSync, readFileSync } from 'node:fs';
import { sharedTest as test, watch, poll } from './helpers';

interface Row {
  scheme: string;
  params_resolved: Record<string, number>;
  logical_pages: number;
  workload_space: number;
  request_hash: string;
  erases: number;
  page_programs: number;
}
const fixture = JSON.parse(
  readFileSync(new URL('../web/src/compare/fixtures/ftl-sweep-classroom.json', import.meta.url), 'utf8'),
) as { common: Row[]; own: Row[] };

const state = {
  v: 1,
  scenario: {
    scheme: 'page',
    params: {},
    chip: { preset: 'classroom', blocks: 64, pages_per_block: 4 },
    workload: { kind: 'uniform', n: 2000, seed: 4, read_ratio: 0.2 },
  },
  at: { step: 0, op: 0 },
  compare: { runs: fixture.common.map((r) => ({ scheme: r.scheme, params: {} })) },
};

const cells = (page: Page, row: string) =>
  page
    .getByTestId(`compare-row-${row}`)
    .locator('td')
    .evaluateAll((tds) => tds.map((td) => td.textContent ?? ''));

async function runAndCheck(page: Page, rows: Row[]) {
  await page.getByTestId('compare-run').click();
  await expect(page.getByTestId('compare-status')).toContainText(`Done: ${rows.length} of ${rows.length} runs`, {
    timeout: 60_000,
  });
  await expect(page.getByTestId('compare-errors')).toHaveCount(0);
  const erases = await page
    .getByTestId('compare-row-erases')
    .locator('td')
    .evaluateAll((tds) => tds.map((td) => Number(td.getAttribute('data-value'))));
  expect(erases).toEqual(rows.map((r) => r.erases));
  const programs = await page
    .getByTestId('compare-row-page_programs')
    .locator('td')
    .evaluateAll((tds) => tds.map((td) => Number(td.getAttribute('data-value'))));
  expect(programs).toEqual(rows.map((r) => r.page_programs));
  expect(await cells(page, 'hash')).toEqual(rows.map((r) => r.request_hash));
  expect(await cells(page, 'logical')).toEqual(rows.map((r) => r.logical_pages.toLocaleString('en-US')));
  expect(await cells(page, 'workload-space')).toEqual(rows.map((r) => r.workload_space.toLocaleString('en-US')));
  const params = await cells(page, 'params');
  rows.forEach((r, i) => {
    for (const v of Object.values(r.params_resolved)) expect(params[i]).toContain(`${v} (default)`);
  });
}

test("compare: one request list by default, equal to ftl sweep; each scheme's own space on the switch", async ({
  page,
}) => {
  test.setTimeout(120_000);
  const problems = watch(page);
  await page.goto(`/#v1=${lz.compressToEncodedURIComponent(JSON.stringify(state))}`);
  await expect(page.getByTestId('compare-view')).toBeVisible({ timeout: 30_000 });
  await expect(page.getByTestId('compare-workload')).toContainText('one request list, in the smallest logical space');
  const own = page.getByRole('checkbox', { name: "Each scheme's own space (the paper defaults)" });
  await expect(own).not.toBeChecked();

  await runAndCheck(page, fixture.common);
  const head = page.getByTestId('compare-workload');
  await expect(head).toContainText('workload space 192 pages for every run, the smallest own space among them');
  expect(new Set(await cells(page, 'hash')).size).toBe(1);
  mkdirSync('test-results', { recursive: true });
  await page.getByTestId('compare-view').screenshot({ path: 'test-results/compare-space-common.png' });
  await page.getByTestId('compare-row-params').scrollIntoViewIfNeeded();
  await page.screenshot({ path: 'test-results/compare-space-table.png' });

  // The paper defaults: each scheme fills its own space (request lists differ), and a typed
  // space turns the switch off (it does not apply).
  await own.check();
  // The choice travels in the link.
  await poll(() =>
    page
      .evaluate(() => location.hash)
      .then((h) => {
        const json = lz.decompressFromEncodedURIComponent(h.replace(/^#v1=/, ''));
        return json ? (JSON.parse(json) as { compare?: { ownSpace?: boolean } }).compare?.ownSpace : undefined;
      }),
  ).toBe(true);
  await runAndCheck(page, fixture.own);
  await expect(head).toContainText("workload in each run's own logical space");
  expect(new Set(await cells(page, 'hash')).size).toBeGreaterThan(1);
  await page.getByTestId('compare-view').screenshot({ path: 'test-results/compare-space-own.png' });
  await page.getByTestId('compare-space').fill('100');
  await expect(own).toBeDisabled();
  await page.getByTestId('compare-space').fill('');
  await expect(own).toBeEnabled();
  expect(problems).toEqual([]);
});
