import { describe, expect, it } from 'vitest';
import { GLOSSARY, splitTerms, termOf, unexplained } from './glossary';

describe('glossary', () => {
  it('has the issue’s terms', () => {
    const ids = GLOSSARY.map((g) => g.id);
    for (const id of ['lbn', 'lpn', 'pbn', 'oob', 'sw-log', 'rw-log', 'switch', 'partial', 'full', 'wa'])
      expect(ids).toContain(id);
  });

  it('marks each term at its first appearance, longest match first, text kept whole', () => {
    const text = 'A full merge copies LPNs into a new block; another full merge, then the SW log block of LBN 1.';
    const parts = splitTerms(text);
    expect(parts.map((p) => p.text).join('')).toBe(text);
    expect(parts.filter((p) => p.entry).map((p) => [p.text, p.entry!.id])).toEqual([
      ['full merge', 'full'],
      ['LPNs', 'lpn'],
      ['SW log block', 'sw-log'],
      ['LBN', 'lbn'],
    ]);
  });

  it('says when a GC run or a merge counts, and which schemes count which', () => {
    const e = GLOSSARY.find((g) => g.id === 'gc-runs')!;
    expect(e.term).toBe('GC runs and merges');
    expect(e.definition).toContain('A merge or a GC run counts at its first flash operation');
    expect(e.definition).toMatch(/Merge schemes .* count merges/);
    expect(e.definition).toMatch(/GC schemes .* count GC runs/);
    expect(splitTerms('Two GC runs.').find((p) => p.entry)?.entry?.id).toBe('gc-runs');
  });

  it('does not match inside words', () => {
    expect(splitTerms('LBNX and switchover').every((p) => !p.entry)).toBe(true);
  });
});

describe('glossary covers what the app shows (issue 25)', () => {
  it('has the structures, chip tags and metrics the issue names', () => {
    for (const text of [
      'map directory',
      'map block',
      'checkpoint block',
      'dbMSN',
      'lbMSN',
      'retractable page',
      'frozen state',
      'revert',
      'primary block',
      'replacement block',
      'buffer block',
      'associativity K',
      'relative addressing',
      'victim',
      'DEST',
      'ACT',
      'metadata page',
      'erase count',
      'Mapping RAM',
      'write amplification',
    ])
      expect(
        splitTerms(`(${text})`).some((p) => p.entry),
        text,
      ).toBe(true);
  });
});

describe('the glossary check (issue 35)', () => {
  it('finds technical words no entry covers, and none that one covers', () => {
    expect(unexplained('the XYZ table of the ABCs, ζ')).toEqual(['XYZ', 'ABCs']);
    expect(unexplained('MRG of the sub-table (α = 4) at p99, LPN 3 in the RW log')).toEqual([]);
    expect(unexplained('a case 9 epochal word')).toEqual([]);
    expect(unexplained('the zorch threshold of the sector')).toEqual([]);
    expect(unexplained('queued: a torn quux')).toEqual([]);
  });

  it('matches symbols whole, Unicode-aware, and keeps their case', () => {
    expect(termOf('α')?.id).toBe('sub-table');
    expect(termOf('lbMSN')?.id).toBe('msn');
    expect(termOf('RFTL L(p)')?.id).toBe('scheme-rftl');
    expect(splitTerms('L(p) bound').find((p) => p.entry)?.entry?.id).toBe('bound');
    expect(splitTerms('lbMSNs').some((p) => p.entry)).toBe(false);
  });

  it('every entry cites where it comes from: a paper section, or this app’s docs', () => {
    for (const e of GLOSSARY)
      expect(e.definition, e.id).toMatch(
        /(FAST|FastCheck|KRAFT|RFTL|LTFTL|BAST) (§|\d)|docs\/|Not a term of these papers|This app’s/,
      );
  });

  it('ids are unique and every pattern belongs to one entry', () => {
    expect(new Set(GLOSSARY.map((e) => e.id)).size).toBe(GLOSSARY.length);
    const all = GLOSSARY.flatMap((e) => e.patterns);
    expect(all.filter((p, i) => all.indexOf(p) !== i)).toEqual([]);
  });
});
