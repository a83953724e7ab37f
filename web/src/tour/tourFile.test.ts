// Tour files: the built-in tours round-trip through the format, and a file from anyone is
// data only (hostile text is inert, sizes are bounded, every problem is named with its path).
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { renderToStaticMarkup } from 'react-dom/server';
import { createElement } from 'react';
import { describe, expect, it } from 'vitest';
import { loadNodeCore } from '../scenario/testing/nodeCore';
import { setPageCore } from '../sim/pageCore';
import { parseMarkdown } from './markdown';
import { tourCoreProblems } from './tourCheck';
import { LIMITS, tourFromJson, tourFromObject, tourToFile, type TourProblem } from './tourFile';
import { TourText } from './TourText';
import { TOURS } from './tours';

loadNodeCore();

const small = () => ({
  format: 'ftlscope-tour',
  version: 1,
  id: 'mine',
  title: 'Mine',
  summary: 'A short one',
  scenario: {
    scheme: 'bast',
    params: { log_blocks: 2 },
    chip: { preset: 'classroom', blocks: 16, pages_per_block: 4 },
    workload: { kind: 'pattern', text: 'w0-15 S0 S4' },
  },
  stops: [
    { title: 'One', at: { step: 16, op: 0 }, text: 'The *data* blocks, see [garbage collection](glossary:gc).' },
    { title: 'Two', at: { step: 18, op: 0 }, text: '- a\n- b', highlight: { roles: ['log'] }, predict: ['kind'] },
  ],
});

const html = (text: string) => renderToStaticMarkup(createElement(TourText, { text }));
const paths = (p: TourProblem[]) => p.map((x) => x.path);

describe('tour files', () => {
  it('every built-in tour reads back from its file as the same tour', () => {
    for (const t of TOURS) {
      const again = tourFromJson(JSON.stringify(tourToFile(t)));
      expect(again.problems).toEqual([]);
      expect(again.tour).toEqual(t);
      expect(tourCoreProblems(t), t.id).toEqual([]);
    }
  });

  it('a small tour reads, with its schemes from its scenarios', () => {
    const { tour, problems } = tourFromObject(small());
    expect(problems).toEqual([]);
    expect(tour?.schemes).toEqual(['bast']);
    expect(tourCoreProblems(tour!)).toEqual([]);
  });

  it('names every problem with its path', () => {
    const f = small() as Record<string, unknown> & ReturnType<typeof small>;
    f.colour = 'red';
    (f.stops[0] as Record<string, unknown>).sound = 'loud';
    f.stops[0].text = 'See [nothing](glossary:no-such-term) and [x](https://example.com)';
    f.stops[1].at = { step: -1, op: 0.5 };
    f.stops[1].highlight = { roles: ['purple'] };
    f.stops[1].title = 'x'.repeat(LIMITS.title + 1);
    const { tour, problems } = tourFromObject(f);
    expect(tour).toBeUndefined();
    expect(paths(problems)).toEqual([
      'colour',
      'stops[0].sound',
      'stops[0].text',
      'stops[0].text',
      'stops[1].title',
      'stops[1].at.step',
      'stops[1].at.op',
      'stops[1].highlight.roles[0]',
      'stops[1].predict',
    ]);
    expect(problems[2].message).toMatch(/unknown glossary term "no-such-term"/);
    expect(problems[3].message).toMatch(/not a glossary term/);
    expect(problems[4].message).toMatch(/too long: 201 characters/);
  });

  it('a stop beyond the workload, and a scenario the core cannot run, are named', () => {
    const f = small();
    f.stops[1].at = { step: 40, op: 0 };
    expect(tourCoreProblems(tourFromObject(f).tour!)).toEqual([
      { path: 'stops[1].at.step', message: 'request 40 is beyond the workload (18 requests)' },
    ]);
    const g = small();
    g.scenario.scheme = 'nope';
    expect(paths(tourCoreProblems(tourFromObject(g).tour!))).toEqual(['scenario']);
  });

  it('a hostile file gives one clear error: 10 MB, 100,000 stops, not JSON, a trace', () => {
    const big = JSON.stringify({ ...small(), title: 'x'.repeat(10_000_000) });
    expect(tourFromJson(big).problems).toEqual([
      { path: '', message: `the file is too large: ${big.length} characters (at most ${LIMITS.fileChars})` },
    ]);
    const many = { ...small(), stops: Array.from({ length: 100_000 }, () => small().stops[0]) };
    expect(tourFromObject(many).problems).toEqual([{ path: 'stops', message: 'too many stops: 100000 (at most 60)' }]);
    expect(tourFromJson('{"title": ').problems[0].message).toMatch(/^not valid JSON/);
    expect(tourFromJson('[]').problems).toEqual([{ path: '', message: 'a tour file is a JSON object' }]);
    const trace = small();
    trace.scenario.workload = { kind: 'trace', text: 'x' } as never;
    expect(paths(tourFromObject(trace).problems)).toEqual(['scenario.workload.kind']);
    // a flood of problems is cut short
    const bad = { ...small(), stops: Array.from({ length: 60 }, () => ({ title: 1, at: 2, text: 3 })) };
    const p = tourFromObject(bad).problems;
    expect(p.length).toBe(41);
    expect(p[40].message).toMatch(/^and \d+ more problems$/);
  });

  it('text is rendered inert: no markup, no script, no link out', () => {
    const out = html('<script>alert(1)</script> <img src=x onerror=alert(1)> [click](javascript:alert(1))');
    expect(out).not.toMatch(/<script|<img|href|javascript:/);
    expect(out).toContain('&lt;script&gt;alert(1)&lt;/script&gt;');
    expect(out).toContain('click');
    // 10 MB of text is cut, with a note, not drawn whole
    const huge = html('a'.repeat(10_000_000));
    expect(huge.length).toBeLessThan(30_000);
    expect(huge).toContain('The text is cut here');
  });

  it('renders the subset: paragraphs, lists, emphasis, glossary links', () => {
    expect(parseMarkdown('one\ntwo\n\n- a\n- *b*\n\n1. x\n2. **y**')).toEqual([
      { kind: 'p', inline: [{ kind: 'text', text: 'one two' }] },
      { kind: 'ul', items: [[{ kind: 'text', text: 'a' }], [{ kind: 'em', text: 'b' }]] },
      { kind: 'ol', items: [[{ kind: 'text', text: 'x' }], [{ kind: 'strong', text: 'y' }]] },
    ]);
    const out = html('A [merge](glossary:full) and [gone](glossary:nope), *em* **strong**');
    expect(out).toMatch(/<span role="button"[^>]*data-term="full"[^>]*>merge<\/span>/);
    expect(out).toContain('gone');
    expect(out).not.toContain('glossary:');
    expect(out).toContain('<em>em</em> <strong>strong</strong>');
  });
});

describe('docs/tours.md', () => {
  it("its example is a valid tour, and its checked facts are the core's", () => {
    const doc = readFileSync(fileURLToPath(new URL('../../../docs/tours.md', import.meta.url)), 'utf8');
    const json = /```json\n([\s\S]*?)```/.exec(doc)![1];
    const { tour, problems } = tourFromJson(json);
    expect(problems).toEqual([]);
    expect(tourCoreProblems(tour!)).toEqual([]);
    const core = loadNodeCore();
    for (const stop of tour!.stops) {
      const s = new core.Session(JSON.stringify(tour!.scenario));
      try {
        s.goto(stop.at.step, stop.at.op);
        const m = JSON.parse(s.metrics());
        for (const [path, want] of Object.entries(stop.expect ?? {}))
          expect(path.split('.').reduce((o, k) => o[k], m)).toBe(want);
      } finally {
        s.free();
      }
    }
  });
});

describe('device stops (issue 40)', () => {
  const onDevice = (device: unknown, stop: Record<string, unknown> = {}) => {
    const f = small();
    const scenario = { ...f.scenario, device };
    return { ...f, stops: [f.stops[0], { title: 'D', at: { step: 0, op: 3 }, text: 'dies', scenario, ...stop }] };
  };

  it('reads a stop on 8 dies, its at.op the device operation', () => {
    const { tour, problems } = tourFromObject(onDevice({ channels: 8, dies_per_channel: 1, stripe: 'block' }));
    expect(problems).toEqual([]);
    expect(tour!.stops[1].scenario!.device).toEqual({ channels: 8, dies_per_channel: 1, stripe: 'block' });
    expect(tourFromObject(tourToFile(tour!)).tour).toEqual(tour);
  });

  it('names a damaged device and the chip-view fields a device stop cannot have', () => {
    expect(
      paths(tourFromObject(onDevice({ channels: 0, dies_per_channel: 65, stripe: 'diagonal', bus: 1 })).problems),
    ).toEqual([
      'stops[1].scenario.device.bus',
      'stops[1].scenario.device.channels',
      'stops[1].scenario.device.dies_per_channel',
      'stops[1].scenario.device.stripe',
    ]);
    const bad = onDevice(
      { channels: 4, dies_per_channel: 2, stripe: 'block' },
      { at: { step: 5, op: 0 }, highlight: { roles: ['log'] }, predict: ['kind'], blocks: [{ block: 0 }] },
    );
    expect(paths(tourFromObject(bad).problems)).toEqual([
      'stops[1].at.step',
      'stops[1].highlight',
      'stops[1].predict',
      'stops[1].blocks',
    ]);
    // One die is the chip view: a plain stop.
    expect(
      tourFromObject(onDevice({ channels: 1, dies_per_channel: 1, stripe: 'page' }, { at: { step: 5, op: 0 } }))
        .problems,
    ).toEqual([]);
  });

  it('the core refuses page striping of a block-mapped scheme, with its path', () => {
    setPageCore(loadNodeCore());
    const { tour } = tourFromObject(onDevice({ channels: 8, dies_per_channel: 1, stripe: 'page' }));
    expect(tourCoreProblems(tour!).map((p) => p.path)).toEqual(['stops[1].scenario.device.stripe']);
  });
});
