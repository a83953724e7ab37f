import { describe, expect, it } from 'vitest';
import { flattenMetrics, metricsCsv, toCsv } from './export';
import { fileStem } from '../ui/download';

describe('export', () => {
  it('flattens nested metrics with dotted keys', () => {
    expect(flattenMetrics({ erases: 3, latency_us: { write: { mean: 1.5 } }, by: [1, 2], label: 'x' })).toEqual([
      ['erases', 3],
      ['latency_us.write.mean', 1.5],
      ['by.0', 1],
      ['by.1', 2],
      ['label', 'x'],
    ]);
  });

  it('writes CSV with quoting and one column per run', () => {
    expect(toCsv([['a', 'b,c', 'say "hi"']])).toBe('a,"b,c","say ""hi"""\r\n');
    expect(
      metricsCsv([
        { name: 'BAST · 4', metrics: { erases: 3, merges: { full: 1 } } },
        { name: 'FAST', metrics: { erases: 1, ram: 9 } },
      ]),
    ).toBe('metric,BAST · 4,FAST\r\nerases,3,1\r\nmerges.full,1,\r\nram,,9\r\n');
  });

  it('makes safe file names', () => {
    expect(fileStem('ftlscope', 'bast', 'rftl-small', 'step12')).toBe('ftlscope-bast-rftl-small-step12');
    expect(fileStem('a b/c', undefined, '')).toBe('a-b-c');
  });
});
