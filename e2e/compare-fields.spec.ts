// Compare's parameter boxes show their whole placeholder (session 18): at 96 px they cut the
// core's help to "core defau…" at every window size (p-ui6's note, session 17).
import { expect } from '@playwright/test';
import { sharedTest as test, ready, watch } from './helpers';

test("compare's parameter boxes show their whole placeholder, for every scheme", async ({ page }) => {
  const problems = watch(page);
  await page.setViewportSize({ width: 1024, height: 768 });
  await ready(page);
  await page.getByTestId('compare-toggle').click();
  const picker = page.getByTestId('compare-scheme-1');
  const schemes = await picker.locator('option').evaluateAll((os) => os.map((o) => (o as HTMLOptionElement).value));
  expect(schemes.length).toBeGreaterThan(5);
  for (const scheme of schemes) {
    await picker.selectOption(scheme);
    const cut = await page
      .getByTestId('compare-run-1')
      .locator('input[type=number]')
      .evaluateAll((inputs) =>
        inputs.flatMap((el) => {
          const input = el as HTMLInputElement;
          // The placeholder's text set in the box's own font, against the box's text area
          // (its width less padding; the spin buttons take room while hovered or focused).
          const css = getComputedStyle(input);
          const span = document.createElement('span');
          span.textContent = input.placeholder;
          span.style.cssText = `position:absolute;white-space:pre;font-family:${css.fontFamily};font-size:${css.fontSize};font-weight:${css.fontWeight};letter-spacing:${css.letterSpacing}`;
          document.body.append(span);
          const need = span.getBoundingClientRect().width + 16;
          span.remove();
          const room = input.clientWidth - parseFloat(css.paddingLeft) - parseFloat(css.paddingRight);
          return need > room ? [`${input.placeholder}: ${Math.round(need)} > ${Math.round(room)} px`] : [];
        }),
      );
    expect(cut, scheme).toEqual([]);
  }
  expect(problems).toEqual([]);
});
