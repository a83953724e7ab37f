// The preset picker names the scenario the form shows by value (session 17, p-ui6): a link to
// a preset's exact scenario is a new object, and compared by identity the picker said
// "Choose a preset…" for it.
import { expect } from '@playwright/test';
import lz from 'lz-string';
import { sharedTest as test, settled, watch } from './helpers';

test('a link to a preset’s scenario names the preset; one edited field un-names it', async ({ page }) => {
  const problems = watch(page);
  // The FAST merges preset (presets.ts), its fields written in another order than the preset's.
  const state = {
    v: 1,
    at: { op: 0, step: 16 },
    scenario: {
      workload: { text: 'w0-15 S4 S5 S6 S7 S0 S1 S8 S1 S5 S13 S2 S6 S14 S3 S7 S15', kind: 'pattern' },
      chip: { pages_per_block: 4, blocks: 16, preset: 'classroom' },
      params: { log_blocks: 3 },
      scheme: 'fast',
    },
  };
  await page.goto(`/#v1=${lz.compressToEncodedURIComponent(JSON.stringify(state))}`);
  await expect(page.getByTestId('scenario-line')).toHaveAttribute('data-scheme', 'fast');
  await settled(page);
  const picker = page.getByTestId('preset');
  await expect(picker).toHaveValue('fast-merges');
  await expect(picker.locator('option:checked')).toHaveText(/^FAST: switch, partial and full merges/);

  // One field edited: the form no longer shows the preset's scenario.
  await page.getByTestId('pattern').fill('w0-15 S4 S5');
  await expect(picker).toHaveValue('');
  await expect(picker.locator('option:checked')).toHaveText('Choose a preset…');
  // Put back as it was: the preset's again.
  await page.getByTestId('pattern').fill(state.scenario.workload.text);
  await expect(picker).toHaveValue('fast-merges');
  expect(problems).toEqual([]);
});
