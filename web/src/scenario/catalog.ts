// The scheme catalog the core serves (catalog(), docs/session-api.md): every scheme's
// labels, parameter specs, cleaning and panel kinds, applied once the core has loaded
// (scenario/loadCore.ts). The forms, pickers and panels read it; the web names no scheme.
import type { Catalog } from '../sim/generated/Catalog';
import type { CatalogParamSpec } from '../sim/generated/CatalogParamSpec';
import type { Cleaning } from '../sim/generated/Cleaning';
import type { PanelKind } from '../sim/generated/PanelKind';

/** The core's catalog() (types generated from its Rust: scripts/gen-types.mjs). */
export type { Catalog, CatalogParamSpec, Cleaning, PanelKind };

export interface ParamSpec {
  key: string;
  label: string;
  min: number;
  max: number;
  step: number | 'any';
  /** undefined: the field may be left empty, and the core picks its own default */
  default?: number;
  integer?: boolean;
  hint?: string;
}

/**
 * How the form edits each parameter, as the core's catalog() last described it (the
 * registry's ParamSpec, core-wasm/crates/sim/src/ftl/registry.rs); filled by applyCatalog.
 * Per key, the range every scheme reading it accepts (a scheme may narrow it: FAST needs
 * 2 log blocks) and the default they share (none when they differ).
 */
export const PARAM_SPECS: Record<string, ParamSpec> = {};
/** The same per scheme (a scheme may narrow a range or set its own default). */
const SCHEME_PARAM_SPECS: Record<string, Record<string, ParamSpec>> = {};

/** The spec of a parameter; one the UI does not know yet is a plain optional number. */
export function paramSpec(key: string): ParamSpec {
  return (
    PARAM_SPECS[key] ?? {
      key,
      label: key.charAt(0).toUpperCase() + key.slice(1).replace(/_/g, ' '),
      min: 0,
      max: Number.MAX_SAFE_INTEGER,
      step: 'any',
      hint: 'core default',
    }
  );
}

export interface SchemeSpec {
  id: string;
  label: string;
  /** the shortest name ("O-FAST") */
  shortLabel?: string;
  description: string;
  params: ParamSpec[];
  /**
   * How the scheme cleans: "gc" (garbage collection runs, counted in gc_runs) or
   * "merges" (log-block merges, counted in merges; gc_runs stays 0). Absent: "gc".
   */
  cleaning?: Cleaning;
  /** its scheme-specific panels (absent: none) */
  panels?: PanelKind[];
}

/**
 * The form's spec of a catalog parameter. The form steps on a grid, so an excluded bound
 * becomes the next value of the grid (op < 1 → at most 1 − step); a bound derived from the
 * chip is left to the core (its message names it). A default derived from the chip leaves
 * the field empty: the core picks it (scheme_defaults() tells the value on a chip).
 */
export function formParamSpec(c: CatalogParamSpec): ParamSpec {
  const min = c.min === null ? 0 : c.min_exclusive ? round(c.min + c.step) : c.min;
  const max = c.max === null ? Number.MAX_SAFE_INTEGER : c.max_exclusive ? round(c.max - c.step) : c.max;
  const spec: ParamSpec = { key: c.key, label: c.label, min, max, step: c.step, hint: c.help };
  if (c.default !== null) spec.default = c.default;
  if (c.integer) spec.integer = true;
  return spec;
}

const round = (v: number) => Math.round(v * 1e9) / 1e9;

/** One sentence per workload generator, from the core's catalog(). */
const GENERATOR_HELP: Record<string, string> = {};
export function generatorHelp(kind: string): string | undefined {
  return GENERATOR_HELP[kind];
}

/** Each generator's defaults as the core states them (one set for app and CLI, issue 27). */
const GENERATOR_DEFAULTS: Record<string, Record<string, number>> = {};
export function generatorDefaults(kind: string): Record<string, number> | undefined {
  return GENERATOR_DEFAULTS[kind];
}

/**
 * Schemes the core implements: filled from catalog() when the core loads (applyCatalog);
 * empty until then (the app loads the core before it offers a scheme).
 */
export const SCHEMES: SchemeSpec[] = [];

/** Replace the scheme list by the core's catalog (in place, so importers see it). */
export function applyCatalog(cat: Catalog): void {
  if (!cat || !Array.isArray(cat.schemes) || cat.schemes.length === 0) return;
  const next: SchemeSpec[] = cat.schemes.map((s) => {
    const specs = (SCHEME_PARAM_SPECS[s.id] ??= {});
    // Read defensively: a test (or an older core) may leave a list out.
    for (const c of s.param_specs ?? []) {
      specs[c.key] = formParamSpec(c);
      const seen = PARAM_SPECS[c.key];
      if (seen && seen !== specs[c.key]) {
        const merged: ParamSpec = {
          ...seen,
          min: Math.max(seen.min, specs[c.key].min),
          max: Math.min(seen.max, specs[c.key].max),
        };
        if (seen.default !== specs[c.key].default) delete merged.default;
        PARAM_SPECS[c.key] = merged;
      } else PARAM_SPECS[c.key] = specs[c.key];
    }
    const spec: SchemeSpec = {
      id: s.id,
      label: s.label,
      description: s.description,
      params: s.params.map((k) => specs[k] ?? paramSpec(k)),
      cleaning: s.cleaning,
      panels: s.panels ?? [],
    };
    if (s.short_label) spec.shortLabel = s.short_label;
    return spec;
  });
  SCHEMES.splice(0, SCHEMES.length, ...next);
  for (const g of cat.generators ?? []) {
    GENERATOR_HELP[g.kind] = g.description;
    if (g.defaults) GENERATOR_DEFAULTS[g.kind] = g.defaults;
  }
}

export function hasScheme(id: string): boolean {
  return SCHEMES.some((s) => s.id === id);
}

/** How a scheme cleans, as the core's catalog says ("gc" when it does not say). */
export function schemeCleaning(id: string): Cleaning {
  return SCHEMES.find((s) => s.id === id)?.cleaning ?? 'gc';
}

/** Whether a scheme has a panel of this kind (the catalog's `panels`). */
export function hasPanel(id: string, kind: PanelKind): boolean {
  return SCHEMES.find((s) => s.id === id)?.panels?.includes(kind) ?? false;
}

export function schemeSpec(id: string): SchemeSpec | undefined {
  return SCHEMES.find((s) => s.id === id);
}
