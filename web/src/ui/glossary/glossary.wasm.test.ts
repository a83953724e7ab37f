/// <reference types="node" />
// Every term the app shows has a glossary entry (issue 35): for every scheme of the core's
// catalog and every tour, run the real core op by op — in the open timing model, with a
// power cut and its recovery where the scheme recovers — and collect what the screen shows:
// the legend's page states and block roles, the Metrics panel's labels, the panels' headings
// and columns (view() tables), the narration and the queue's sentence. Each legend entry and
// metric label must name an entry; no technical word (acronym, symbol, percentile, the words
// the issue found unexplained) may appear in a heading or the narration without one.
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import { Session } from '../../sim/pkg/ftlscope_wasm.js';
import { loadNodeCore } from '../../scenario/testing/nodeCore';
import { SCHEMES, defaultParams, type Scenario } from '../../scenario/model';
import { fitChip } from '../../sim/schemeFit';
import { TOURS } from '../../tour/tours';
import { BLOCK_ROLES, PAGE_STATES, causeLabel } from '../../viz/palette';
import { metricRows } from '../../viz/MetricsPanel';
import type { Metrics, QueueView } from '../../sim/protocol';
import { panelTable } from '../../schemes/tables';
import { findTerms, termOf, unexplained } from './glossary';

beforeAll(() => {
  loadNodeCore();
});

interface Shown {
  labels: Set<string>;
  texts: Set<string>;
}

/** What the screen shows over a run, op by op (at most `maxOps` operations). */
function walk(scenario: Scenario, shown: Shown, cutAt: number | null, maxOps = 4000) {
  const s = new Session(JSON.stringify(scenario));
  try {
    const look = () => {
      for (const st of new Set(s.page_states())) shown.labels.add(PAGE_STATES[st]?.label ?? `page state ${st}`);
      for (const r of new Set(s.block_roles())) shown.labels.add(BLOCK_ROLES[r]?.label ?? `block role ${r}`);
      const view = s.view();
      for (const t of view.panels.map(panelTable)) {
        shown.texts.add(t.title);
        for (const c of t.columns) shown.texts.add(c);
      }
      shown.texts.add(s.narration());
      const q: QueueView = s.queue();
      if (q.note) shown.texts.add(q.note);
    };
    let ops = 0;
    look();
    while (s.step() < s.total() && ops < maxOps) {
      if (cutAt !== null && ops === cutAt) {
        s.power_cut();
        look();
        s.recover();
      }
      if (!s.step_op()) break;
      ops++;
      look();
    }
    for (const r of metricRows(JSON.parse(s.metrics()) as Metrics, 'gc')) shown.labels.add(r.label);
    for (const r of metricRows(JSON.parse(s.metrics()) as Metrics, 'merges')) shown.labels.add(r.label);
    // the Metrics panel's operations-by-cause rows (issue 35: "full_merge" shown unlinked)
    const causes = (JSON.parse(s.metrics()) as { by_cause?: Record<string, unknown> }).by_cause ?? {};
    for (const c of Object.keys(causes)) shown.labels.add(causeLabel(c));
  } finally {
    s.free();
  }
}

function scenarioFor(id: string): Scenario {
  const base: Scenario = {
    scheme: id,
    params: defaultParams(id),
    chip: { preset: 'classroom', blocks: 16, pages_per_block: 4 },
    workload: { kind: 'hotcold', n: 300, seed: 3, read_ratio: 0.3, hot_fraction: 0.2, hot_ratio: 0.8 },
    timing: { model: 'open', rate: 4000, spacing: 'poisson', seed: 1 },
  };
  const fit = fitChip(loadNodeCore(), base);
  if ('error' in fit) throw new Error(`${id}: ${fit.error}`);
  return { ...base, chip: fit.chip };
}

describe('the glossary explains every term the app shows', () => {
  const shown: Shown = { labels: new Set(), texts: new Set() };

  it('walks every scheme (open model, a power cut) and every tour', () => {
    expect(SCHEMES.length).toBeGreaterThanOrEqual(12);
    for (const sch of SCHEMES) {
      walk(scenarioFor(sch.id), shown, null);
      walk(scenarioFor(sch.id), shown, 150);
    }
    for (const t of TOURS) {
      walk(t.scenario, shown, null);
      for (const stop of t.stops) if (stop.scenario) walk(stop.scenario, shown, null);
    }
    expect(shown.texts.size).toBeGreaterThan(200);
  }, 240_000);

  it('every legend entry and metric label names an entry', () => {
    const missing = [...shown.labels].filter((l) => !termOf(l));
    expect(missing).toEqual([]);
  });

  it('every technical word in headings, columns, narration and queue notes has an entry', () => {
    const missing = new Map<string, string>();
    for (const t of shown.texts) for (const w of unexplained(t)) if (!missing.has(w)) missing.set(w, t.slice(0, 140));
    expect([...missing.entries()].map(([w, t]) => `${w} — in “${t}”`)).toEqual([]);
  });

  it('every heading written in the app’s own components has its terms covered', () => {
    const root = fileURLToPath(new URL('../..', import.meta.url));
    const files = (readdirSync(root, { recursive: true }) as string[]).filter((f) => f.endsWith('.tsx'));
    const missing: string[] = [];
    let headings = 0;
    for (const f of files) {
      const src = readFileSync(join(root, f), 'utf8');
      for (const m of src.matchAll(/<h[23][^>]*>\s*([^<{]+)/g)) {
        headings++;
        for (const w of unexplained(m[1])) missing.push(`${w} — in ${f}: “${m[1].trim()}”`);
      }
    }
    expect(headings).toBeGreaterThan(15);
    expect(missing).toEqual([]);
  });

  it('headings and form labels link their terms (LabelTerm), never as plain text', () => {
    // Plain JSX text in an <h2>/<h3> or a <label> (tags and {…} expressions dropped) that
    // holds a glossary term is a term shown without its link (the Power heading, the
    // precondition label; issue 35).
    const root = fileURLToPath(new URL('../..', import.meta.url));
    const files = (readdirSync(root, { recursive: true }) as string[]).filter((f) => f.endsWith('.tsx'));
    const plain: string[] = [];
    let seen = 0;
    for (const f of files) {
      const src = readFileSync(join(root, f), 'utf8');
      for (const m of src.matchAll(/<(h[23]|label|th)\b([\s\S]*?)<\/\1>/g)) {
        // a <summary>'s heading has no buttons (a click there opens the panel)
        if (/<summary>\s*(\{[^}]*\}\s*)?$/.test(src.slice(Math.max(0, m.index - 120), m.index))) continue;
        seen++;
        let body = m[2];
        // drop {…} expressions (innermost first), then tags: what is left is JSX text
        for (let prev = ''; prev !== body;) [prev, body] = [body, body.replace(/\{[^{}]*\}/g, ' ')];
        const text = body
          .replace(/^[^>]*>/, ' ')
          .replace(/<[^>]*>/g, ' ')
          .replace(/\s+/g, ' ')
          .trim();
        for (const t of findTerms(text)) plain.push(`${text.slice(t.start, t.end)} — in ${f}: “${text}”`);
      }
    }
    expect(seen).toBeGreaterThan(40);
    expect(plain).toEqual([]);
  });

  it('every legend entry the palette can draw names an entry (also those not reached above)', () => {
    expect(
      ['host', 'gc', 'switch', 'partial_merge', 'full_merge', 'fill', 'map', 'log', 'recovery', 'wear_level'].filter(
        (c) => !termOf(causeLabel(c)),
      ),
    ).toEqual([]);
    expect(PAGE_STATES.filter((s) => !termOf(s.label)).map((s) => s.label)).toEqual([]);
    expect(BLOCK_ROLES.filter((r) => !termOf(r.label)).map((r) => r.label)).toEqual([]);
  });
});
