// The web's scheme forms read the core's registry (ftl::REGISTRY through catalog()): for
// every scheme, the picker's label, description, parameters, ranges, defaults, cleaning
// and panels are the catalog's, and every default the form leaves to the core is one the
// core resolves (scheme_defaults) inside the range it accepts.
/// <reference types="node" />
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { loadNodeCore } from './testing/nodeCore';
import { CHIPS, SCHEMES, defaultParams, formParamSpec, schemeSpec, type Catalog } from './model';

const core = loadNodeCore();
const catalog: Catalog = core.catalog();

describe('the web’s scheme forms are the core’s catalog', () => {
  it('offers exactly the catalog’s schemes, in its order, with its labels, cleaning and panels', () => {
    expect(SCHEMES.map((s) => s.id)).toEqual(catalog.schemes.map((s) => s.id));
    expect(catalog.schemes.length).toBeGreaterThanOrEqual(12);
    for (const c of catalog.schemes) {
      const s = schemeSpec(c.id)!;
      expect(s.label, c.id).toBe(c.label);
      expect(s.shortLabel, c.id).toBe(c.short_label);
      expect(s.description, c.id).toBe(c.description);
      expect(s.cleaning, c.id).toBe(c.cleaning);
      expect(s.panels, c.id).toEqual(c.panels);
      expect(
        s.params.map((p) => p.key),
        c.id,
      ).toEqual(c.params);
    }
  });

  it('edits every parameter with the catalog’s range, step and default', () => {
    for (const c of catalog.schemes) {
      const s = schemeSpec(c.id)!;
      expect(c.param_specs!.map((p) => p.key)).toEqual(c.params);
      for (const [i, cp] of c.param_specs!.entries()) {
        const p = s.params[i];
        expect(p, `${c.id} ${cp.key}`).toEqual(formParamSpec(cp));
        expect(p.label).toBe(cp.label);
        expect(p.step).toBe(cp.step);
        expect(p.integer ?? false).toBe(cp.integer);
        // A fixed default is the form's; a chip-derived one is left to the core.
        expect(p.default, `${c.id} ${cp.key}`).toBe(cp.default ?? undefined);
        // The form's closed range lies inside the core's.
        if (cp.min !== null) expect(cp.min_exclusive ? p.min > cp.min : p.min === cp.min).toBe(true);
        if (cp.max !== null) expect(cp.max_exclusive ? p.max < cp.max : p.max === cp.max).toBe(true);
      }
      const fixed = Object.fromEntries(
        c.param_specs!.filter((p) => p.default !== null).map((p) => [p.key, p.default as number]),
      );
      expect(defaultParams(c.id), c.id).toEqual(fixed);
    }
  });

  it('the core’s defaults: K 8, one log-block budget (4) for every hybrid scheme, LTFTL’s log section from the chip', () => {
    const on = (scheme: string, chip: object) =>
      core.scheme_defaults(scheme, JSON.stringify(chip)) as Record<
        string,
        { min: number; max: number; default: number }
      >;
    expect(defaultParams('kraft')).toEqual({ log_blocks: 4, k: 8 });
    expect(defaultParams('kast')).toEqual({ log_blocks: 4, k: 8 });
    for (const scheme of ['bast', 'fast', 'ofast', 'fastcheck', 'fast-ltlog', 'kraft', 'kast'])
      for (const chip of CHIPS)
        expect(on(scheme, { preset: chip.id, blocks: chip.suggestedBlocks }).log_blocks.default, scheme).toBe(4);
    expect(on('kraft', { preset: 'classroom', blocks: 64 }).switch_max.default).toBe(2);
    expect(schemeSpec('ltftl')!.params.map((p) => p.key)).toEqual(['op', 'log_blocks']);
    expect(on('ltftl', { preset: 'classroom' }).log_blocks.default).toBeGreaterThanOrEqual(2);
    // Every default, on every chip preset, lies in the range the core accepts there.
    for (const c of catalog.schemes)
      for (const chip of CHIPS) {
        const d = on(c.id, { preset: chip.id, blocks: chip.suggestedBlocks });
        for (const cp of c.param_specs!) {
          const { min, max, default: v } = d[cp.key];
          expect(cp.min_exclusive ? v > min : v >= min, `${c.id} ${cp.key} on ${chip.id}`).toBe(true);
          expect(cp.max_exclusive ? v < max : v <= max, `${c.id} ${cp.key} on ${chip.id}`).toBe(true);
          if (cp.default !== null) expect(v).toBe(cp.default);
        }
      }
    expect(() => core.scheme_defaults('no-such-scheme', '{"preset":"classroom"}')).toThrow(/unknown scheme/);
  });
});

describe('no scheme id in web/src outside tours, presets, tests and fixtures', () => {
  it('names schemes only through the catalog', () => {
    const root = fileURLToPath(new URL('..', import.meta.url));
    const files: string[] = [];
    const walk = (dir: string) => {
      for (const f of readdirSync(dir)) {
        const path = join(dir, f);
        if (statSync(path).isDirectory()) walk(path);
        else if (/\.(ts|tsx)$/.test(f)) files.push(relative(root, path).replace(/\\/g, '/'));
      }
    };
    walk(root);
    // Data, not code: tours, presets, the papers' claims (scenarios of the papers' runs),
    // tests and their fakes, the generated wasm bindings.
    const exempt = /(^tour\/tours\/|presets\.ts$|^papers\/claims\/|\.test\.tsx?$|\/testing\/|^sim\/pkg\/)/;
    // Not scheme ids: the chip preset named like FastCheck, CSS classes; and the scenario
    // the app opens on (its default preset); a device's stripe unit (a page or a block, also
    // the generated DeviceStripe type).
    const allowed = [
      /ChipPreset = /,
      /\bstripe\b/,
      /DeviceStripe = /,
      /id: 'fastcheck',\s*$/,
      /cls: '/,
      /^\s*scheme: 'page',\s*$/,
    ];
    const ids = catalog.schemes.map((s) => s.id.replace(/[-]/g, '\\-')).join('|');
    const found: string[] = [];
    for (const f of files.filter((x) => !exempt.test(x)))
      readFileSync(join(root, f), 'utf8')
        .split('\n')
        .forEach((line, i) => {
          if (new RegExp(`'(${ids})'`).test(line) && !allowed.some((a) => a.test(line)))
            found.push(`${f}:${i + 1}: ${line.trim()}`);
        });
    expect(found).toEqual([]);
    // The one allowed default scenario stays the one in model.ts.
    const opening = files.filter(
      (f) => !exempt.test(f) && /^\s*scheme: 'page',\s*$/m.test(readFileSync(join(root, f), 'utf8')),
    );
    expect(opening).toEqual(['scenario/model.ts']);
  });
});
