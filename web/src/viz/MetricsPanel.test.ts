import { describe, expect, it } from 'vitest';
import type { Metrics } from '../sim/protocol';
import { fmtUs, metricRows } from './MetricsPanel';

// The panel's figures are formatted by kept Intl.NumberFormats (one per number of digits):
// the text must be what en-US grouping and fixed digits give, whatever was formatted before.
describe('MetricsPanel figures', () => {
  const metrics = {
    host_writes: 1234567,
    host_reads: 0,
    page_programs: 2469134,
    write_amplification: 2,
    elapsed_us: 1234.5,
    erase_count: { min: 3, max: 12, mean: 7.25 },
    ram_bytes: 262144,
    log_utilisation: 0.5,
  } as unknown as Metrics;
  const value = (key: string) => metricRows(metrics).find((r) => r.key === key)?.value;

  it('groups thousands and keeps the digits asked for', () => {
    // twice, so the second reads come from the kept formatters
    for (let i = 0; i < 2; i++) {
      expect(value('host_writes')).toBe('1,234,567');
      expect(value('host_reads')).toBe('0');
      expect(value('write_amplification')).toBe('2.00');
      expect(value('elapsed_us')).toBe('1.23 ms');
      expect(value('erase_count')).toBe('3–12 (mean 7.3)');
      expect(value('ram_bytes')).toBe('262,144 B');
      expect(value('log_utilisation')).toBe('0.50');
      expect(value('page_reads')).toBe('—');
    }
  });

  it('formats times in µs, ms and s', () => {
    expect(fmtUs(999)).toBe('999 µs');
    expect(fmtUs(12_345)).toBe('12.35 ms');
    expect(fmtUs(2_500_000)).toBe('2.50 s');
    expect(fmtUs(undefined)).toBe('—');
  });
});
