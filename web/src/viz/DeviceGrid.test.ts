import { describe, expect, it } from 'vitest';
import { gridLayout } from './DeviceGrid';
import { BLOCK_ROLES, PAGE_STATES, bandTextColor, pageStyle, roleStyle } from './palette';

describe('gridLayout', () => {
  it('wraps a 16×4 classroom chip into rows that fill a 720×480 box', () => {
    const l = gridLayout(16, 4, 720, 480);
    expect(l.cols * l.rows).toBeGreaterThanOrEqual(16);
    expect(l.rows).toBeGreaterThan(1);
    expect(l.cell).toBeGreaterThan(40);
  });

  it('always fits every block', () => {
    for (const [blocks, ppb] of [
      [2, 1],
      [7, 4],
      [32, 32],
      [128, 128],
    ]) {
      const l = gridLayout(blocks, ppb, 700, 450);
      expect(l.cols * l.rows).toBeGreaterThanOrEqual(blocks);
      expect(l.cell).toBeGreaterThan(0);
    }
  });
});

describe('palette', () => {
  it('covers every page state and block role of the Session API', () => {
    expect(PAGE_STATES.map((s) => s.id)).toEqual([0, 1, 2, 3, 4, 5]);
    expect(BLOCK_ROLES.map((r) => r.id)).toEqual([...Array(14).keys()]);
    expect(new Set(BLOCK_ROLES.map((r) => r.short)).size).toBe(BLOCK_ROLES.length);
  });

  it('never relies on colour alone for invalid pages', () => {
    expect(pageStyle(2).pattern).toBe('hatch');
  });

  it('falls back for unknown codes', () => {
    expect(pageStyle(99).label).toBe('State 99');
    expect(roleStyle(42).short).toBe('R42');
    expect(bandTextColor(roleStyle(1))).toBe('#ffffff');
    expect(bandTextColor(roleStyle(2))).toBe('#000000');
  });
});
