/// <reference lib="dom" />
// Bring your own trace (issue 17): map a CSV with unusual column names in the upload
// dialog, Apply keeps the upload, and a link reopened with the same file lands on the
// same moment while a different file is refused.
import { createHash } from 'node:crypto';
import { mkdirSync } from 'node:fs';
import { expect, type Page } from '@playwright/test';
import LZString from 'lz-string';
import { sharedTest as test, hashMoment, ready, settled, settledAt, stepTo, watch } from './helpers';

async function shot(page: Page, name: string) {
  mkdirSync('test-results', { recursive: true });
  await page.screenshot({ path: `test-results/${name}.png` });
}

/** A CSV whose header no parser knows: when_us;kind;blk;nbytes, op 1 = write, 0 = read, blk in sectors. */
function unusualCsv(rows: number, salt = 0): Buffer {
  const lines = ['when_us;kind;blk;nbytes'];
  for (let i = 0; i < rows; i++) {
    const page = (i * 37 + salt) % 40;
    lines.push(`${1000 + i * 10};${i % 4 === 3 ? 0 : 1};${page};512`);
  }
  return Buffer.from(lines.join('\n') + '\n');
}

const FILE = { name: 'odd-columns.csv', mimeType: 'text/csv', buffer: unusualCsv(600) };

async function uploadAndMap(page: Page) {
  await page.getByTestId('trace-input').setInputFiles(FILE);
  const dialog = page.getByTestId('trace-dialog');
  await expect(dialog).toBeVisible();
  // One error, naming the columns; the preview shows the rows.
  await expect(page.getByTestId('trace-error')).toContainText('CSV header not understood');
  await expect(page.getByTestId('trace-error')).toContainText('1 when_us, 2 kind, 3 blk, 4 nbytes');
  await expect(page.getByTestId('trace-line-errors')).toHaveCount(0);
  await expect(page.getByTestId('trace-preview')).toContainText('when_us');
  await expect(page.getByTestId('trace-preview').locator('tbody tr')).toHaveCount(6);
  await page.getByTestId('map-op').selectOption('2');
  await page.getByTestId('map-address').selectOption('3');
  await page.getByTestId('map-address-unit').selectOption('sectors');
  await page.getByTestId('map-size').selectOption('4');
  await page.getByTestId('map-size-unit').selectOption('bytes');
  await page.getByTestId('map-time').selectOption('1');
  // Op values 1 / 0 need mapping: until then, line errors name the value.
  await expect(page.getByTestId('trace-line-errors')).toContainText("found '1'");
  await page.getByTestId('map-write-ops').fill('1');
  await page.getByTestId('map-read-ops').fill('0');
  await page.getByTestId('map-read-ops').blur();
  await expect(page.getByTestId('trace-summary')).toBeVisible();
  await expect(page.getByTestId('trace-requests')).toHaveText('600');
  await expect(page.getByTestId('role-tag-op')).toBeVisible();
  return dialog;
}

test('map a CSV with unusual column names in the dialog, run it; Apply with another log-block count keeps it', async ({
  page,
}) => {
  const problems = watch(page);
  await ready(page);
  const dialog = await uploadAndMap(page);
  // The scheme's parameters are in the dialog.
  await page.getByTestId('trace-scheme').selectOption('bast');
  await page.getByTestId('trace-param-log_blocks').fill('3');
  await expect(page.getByTestId('trace-fit-preview')).toContainText('requests touched');
  await page.getByTestId('trace-dialog').evaluate((el) => (el.scrollTop = 0));
  await shot(page, 'byo-mapping-dialog');
  await page.getByTestId('trace-run').click();
  await expect(dialog).toBeHidden();
  await expect(page.getByTestId('scenario-line')).toContainText('odd-columns.csv');
  await expect(page.getByTestId('step-counter')).toContainText('/ 600');
  const before = (await page.getByTestId('scenario-line').textContent()) ?? '';
  // The form shows the trace as the workload; Apply with 5 log blocks keeps it.
  await expect(page.getByTestId('param-log_blocks')).toHaveValue('3');
  await page.getByTestId('param-log_blocks').fill('5');
  await page.getByTestId('apply').click();
  await expect(page.getByTestId('scenario-line')).toContainText('odd-columns.csv');
  await expect(page.getByTestId('scenario-line')).not.toHaveText(before);
  await expect(page.getByTestId('step-counter')).toContainText('/ 600');
  await shot(page, 'byo-applied');
  expect(problems).toEqual([]);
});

test('a link reopened with the same file lands on the same step with the same metrics; another file is refused', async ({
  page,
}) => {
  const problems = watch(page);
  await ready(page);
  await uploadAndMap(page);
  await page.getByTestId('trace-run').click();
  await expect(page.getByTestId('trace-dialog')).toBeHidden();
  // A moment inside the run: request 40 by the scrubber (a seek, not 40 reveals), then one
  // operation on, so the link carries an operation as well as a request.
  await page.getByTestId('scrubber').fill('40');
  await settledAt(page, { step: 40, op: 0 });
  await stepTo(page, 'btn-step-op');
  // The moment drawn once everything has landed, and the address bar written for it.
  const { hash, ...at } = await settled(page);
  expect(at.step).toBeGreaterThanOrEqual(40);
  expect(at).not.toEqual({ step: 40, op: 0 });
  expect(hashMoment(hash)).toEqual(at);
  const metrics = await page.locator('section.metrics dl.metrics-list').textContent();

  // A different file (same name) is refused.
  const other = await page.context().newPage();
  const p2 = watch(other);
  await other.goto(`/${hash}`);
  await expect(other.getByTestId('link-trace-missing')).toContainText('odd-columns.csv');
  const chooser = other.waitForEvent('filechooser');
  await other.getByTestId('upload-again').click();
  await (await chooser).setFiles({ ...FILE, buffer: unusualCsv(600, 1) });
  await expect(other.getByTestId('trace-refused')).toContainText('not the file the link was made with');
  await expect(other.getByTestId('trace-run')).toBeDisabled();
  await shot(other, 'byo-refused');
  await other.getByTestId('trace-dialog').getByRole('button', { name: 'Cancel' }).click();
  expect(p2).toEqual([]);
  await other.close();

  // The same file: it opens by itself on the link's moment, with the same metrics.
  const again = await page.context().newPage();
  const p3 = watch(again);
  await again.goto(`/${hash}`);
  await expect(again.getByTestId('link-trace-missing')).toBeVisible();
  const chooser2 = again.waitForEvent('filechooser');
  await again.getByTestId('upload-again').click();
  await (await chooser2).setFiles(FILE);
  await expect(again.getByTestId('trace-dialog')).toBeHidden();
  await expect(again.getByTestId('scenario-line')).toContainText('odd-columns.csv');
  await settledAt(again, at);
  await expect(again.locator('section.metrics dl.metrics-list')).toHaveText(metrics ?? '');
  await shot(again, 'byo-reopened');
  expect(p3).toEqual([]);
  expect(problems).toEqual([]);
});

test('a CloudPhysics CSV (SCSI hex ops) reads out of the box: guessed roles shown; a gzip file too', async ({
  page,
}) => {
  const problems = watch(page);
  await ready(page);
  await page.getByTestId('trace-input').setInputFiles('traces/camera.cloudphysics.csv');
  await expect(page.getByTestId('trace-summary')).toBeVisible();
  await expect(page.getByTestId('trace-requests')).toHaveText('3,000');
  await expect(page.getByTestId('trace-mapping')).toContainText('Roles guessed from the header');
  for (const r of ['op', 'address', 'size', 'time']) await expect(page.getByTestId(`role-tag-${r}`)).toContainText('?');
  await expect(page.getByTestId('map-address')).toHaveValue('5');
  await expect(page.getByTestId('op-values-seen')).toContainText('“2a”');
  await shot(page, 'byo-guessed');
  await page.getByTestId('trace-dialog').getByRole('button', { name: 'Cancel' }).click();
  await page.getByTestId('trace-input').setInputFiles('traces/oltp.csv.gz');
  await expect(page.getByTestId('trace-requests')).toHaveText('3,000');
  expect(problems).toEqual([]);
});

test('the fit preview is asked once: the file digest, known after it, does not ask it again', async ({ page }) => {
  // A link whose trace carries the file's SHA-256: reopened, the dialog waits for the digest
  // before it runs by itself. The digest changes no fit (issue 37, item 6: a preview keyed by
  // it was asked again when it came, a whole second fit of the trace).
  const problems = watch(page);
  await ready(page);
  await uploadAndMap(page);
  await page.getByTestId('trace-run').click();
  await expect(page.getByTestId('trace-dialog')).toBeHidden();
  const { hash } = await settled(page);
  const link = JSON.parse(LZString.decompressFromEncodedURIComponent(hash.replace(/^#?v1=/, ''))) as {
    scenario: { workload: Record<string, unknown> };
  };
  link.scenario.workload.sha256 = createHash('sha256').update(FILE.buffer).digest('hex');
  const again = await page.context().newPage();
  const p2 = watch(again);
  // Count the trace_fit requests to the worker, and hold the digest's answer until released.
  await again.addInitScript(() => {
    const w = window as unknown as {
      __fits: number;
      __order: string[];
      __held: (() => void)[];
      __release: () => void;
    };
    w.__fits = 0;
    w.__order = [];
    w.__held = [];
    let released = false;
    w.__release = () => {
      released = true;
      w.__held.splice(0).forEach((f) => f());
    };
    // Request ids per worker (each client numbers its own).
    const ids = new WeakMap<Worker, { hashes: Set<unknown>; fits: Set<unknown> }>();
    const of = (worker: Worker) => {
      if (!ids.has(worker)) ids.set(worker, { hashes: new Set(), fits: new Set() });
      return ids.get(worker)!;
    };
    const post = Worker.prototype.postMessage;
    Worker.prototype.postMessage = function (this: Worker, m: { id?: unknown; type?: string }, t?: unknown) {
      if (m?.type === 'trace_fit') {
        w.__fits++;
        of(this).fits.add(m.id);
      }
      if (m?.type === 'trace_hash') of(this).hashes.add(m.id);
      if (m?.type === 'trace_fit' || m?.type === 'trace_hash') w.__order.push(`> ${m.type}`);
      return post.call(this, m, t as StructuredSerializeOptions);
    } as Worker['postMessage'];
    const add = Worker.prototype.addEventListener;
    Worker.prototype.addEventListener = function (this: Worker, type: string, l: unknown, o?: unknown) {
      if (type !== 'message' || typeof l !== 'function') return add.call(this, type, l as EventListener, o as boolean);
      const held = (ev: MessageEvent) => {
        const d = ev.data as { id?: unknown; result?: unknown };
        if (of(this).fits.has(d?.id)) w.__order.push('< trace_fit');
        if (!released && of(this).hashes.has(d?.id) && typeof d.result === 'string')
          w.__held.push(() => l.call(this, ev));
        else l.call(this, ev);
      };
      return add.call(this, type, held as EventListener, o as boolean);
    };
  });
  await again.goto(`/#v1=${LZString.compressToEncodedURIComponent(JSON.stringify(link))}`);
  const chooser = again.waitForEvent('filechooser');
  await again.getByTestId('upload-again').click();
  await (await chooser).setFiles(FILE);
  // The preview answered, the digest held: the dialog waits for it.
  await expect(again.getByTestId('trace-fit-preview')).toContainText('requests touched');
  await expect(again.getByTestId('trace-reopen')).toContainText('Checking that this is the file');
  await expect.poll(() => again.evaluate(() => (window as unknown as { __held: unknown[] }).__held.length)).toBe(1);
  await again.evaluate(() => (window as unknown as { __release: () => void }).__release());
  // The digest matches: the dialog runs by itself, with no second fit asked.
  await expect(again.getByTestId('trace-dialog')).toBeHidden();
  await expect(again.getByTestId('scenario-line')).toContainText('odd-columns.csv');
  expect(await again.evaluate(() => (window as unknown as { __fits: number }).__fits)).toBe(1);
  // The digest was asked once the preview was answered (what a user reads first).
  const order = await again.evaluate(() => (window as unknown as { __order: string[] }).__order);
  expect(order.slice(0, 3)).toEqual(['> trace_fit', '< trace_fit', '> trace_hash']);
  expect(p2).toEqual([]);
  await again.close();
  expect(problems).toEqual([]);
});
