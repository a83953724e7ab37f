import { describe, expect, it } from 'vitest';
import { GLOSSARY, splitTerms } from './glossary';

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
