// Snapshots by change (issue 26): on a big chip an op step sends only what changed and the
// canvas repaints only those blocks. After 50 random steps forward and back the drawing
// must equal a full repaint of the same arrays, and the arrays must equal those of a full
// snapshot of the same moment (the page opened afresh there). No timing here: the
// benchmark (npm run bench) measures the speed.
import { expect, test, type Page } from '@playwright/test';
import { counter, watch, poll } from './helpers';

function url(scenario: object, at = 0) {
  return `/?scenario=${encodeURIComponent(JSON.stringify(scenario))}${at ? `&at=${at}` : ''}`;
}

interface Probe {
  idle(): boolean;
  hash(): string;
  fullHash(): string;
  dataHash(): string;
  received(): number;
  drawn(): number;
  byChange(): number;
}

async function probe<T>(page: Page, f: (p: Probe) => T): Promise<T> {
  return page.getByTestId('device-canvas').evaluate((el, src) => {
    const p = (el as unknown as { __ftlGrid: Probe }).__ftlGrid;
    return (new Function('p', `return (${src})(p)`) as (p: Probe) => T)(p);
  }, f.toString());
}

/** Everything received is on screen and nothing is being redrawn. */
async function settled(page: Page) {
  await poll(() => probe(page, (p) => p.idle() && p.drawn() === p.received()), { timeout: 20_000 }).toBe(true);
}

const SCENARIOS = [
  {
    scheme: 'page',
    params: { op: 0.25 },
    chip: { preset: 'fastcheck', blocks: 16384, pages_per_block: 64 },
    workload: { kind: 'hotcold', n: 2_000_000, seed: 5, read_ratio: 0.2, hot_fraction: 0.1, hot_ratio: 0.9 },
  },
  {
    scheme: 'bast',
    params: { log_blocks: 16 },
    chip: { preset: 'fastcheck', blocks: 8192, pages_per_block: 64 },
    workload: { kind: 'uniform', n: 400_000, seed: 9, read_ratio: 0.2 },
  },
];
const AT = [1_100_000, 5_000];

for (const [i, scenario] of SCENARIOS.entries()) {
  test(`${scenario.scheme}: 50 random op steps forward and back draw what a full redraw draws`, async ({ page }) => {
    test.setTimeout(180_000);
    const problems = watch(page);
    await page.goto(url(scenario, AT[i]));
    await poll(async () => (await counter(page)).step, { timeout: 60_000 }).toBe(AT[i]);
    await expect(page.getByTestId('device-canvas')).toBeVisible();
    await expect(page.getByTestId('btn-step-op')).toBeEnabled();
    await settled(page);
    const byChange0 = await probe(page, (p) => p.byChange());

    // A seeded walk: mostly forward, a third back.
    let seed = 12345 + i;
    const rnd = () => (seed = (Math.imul(seed, 1103515245) + 12345) >>> 0) / 2 ** 32;
    for (let k = 0; k < 50; k++) {
      const before = await counter(page);
      const back = rnd() < 0.35 && (before.step > 0 || before.op > 0);
      await page.keyboard.press(back ? 'ArrowLeft' : 'ArrowRight');
      await poll(async () => JSON.stringify(await counter(page))).not.toBe(JSON.stringify(before));
    }
    await settled(page);
    expect(await probe(page, (p) => p.byChange())).toBeGreaterThan(byChange0 + 25);
    const [drawn, full] = await probe(page, (p) => [p.hash(), p.fullHash()]);
    expect(drawn).toBe(full);

    // Back to the start of the request, then compare with the page opened there afresh.
    while ((await counter(page)).op > 0) {
      const before = await counter(page);
      await page.keyboard.press('ArrowLeft');
      await poll(async () => JSON.stringify(await counter(page))).not.toBe(JSON.stringify(before));
    }
    await settled(page);
    const at = (await counter(page)).step;
    const mine = await probe(page, (p) => [p.dataHash(), p.hash(), p.fullHash()]);
    expect(mine[1]).toBe(mine[2]);

    await page.goto(url(scenario, at));
    await poll(async () => (await counter(page)).step, { timeout: 60_000 }).toBe(at);
    await settled(page);
    const fresh = await probe(page, (p) => [p.dataHash(), p.hash()]);
    expect(mine[0], 'the arrays rebuilt from deltas equal a full snapshot').toBe(fresh[0]);
    expect(mine[1], 'the drawing by change equals the full drawing').toBe(fresh[1]);
    expect(problems).toEqual([]);
  });
}
