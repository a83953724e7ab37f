// A comparison's results and the charts over them (shared by CompareView and its parts).
import type { LatencyHistogram, Metrics, SeriesPoint, SessionInfo, Thumb } from '../sim/protocol';
import type { Scenario } from '../scenario/model';

/** Above this many pages a run's grid is a canvas (as in the single view). */
export const SVG_MAX_PAGES = 4096;
/**
 * Big chips: each block drawn as this many cells summarising its pages (a 300-pixel
 * thumbnail cannot show 128 pages a block anyway), and the summaries kept at this many
 * evenly spaced requests, so the scrubber moves every run at once without replaying.
 */
export const SUMMARY_CELLS = 8;
export const FRAME_COUNT = 20;

export interface Result {
  label: string;
  sid?: number;
  error?: string;
  total: number;
  metrics?: Metrics;
  series?: SeriesPoint[];
  latency?: LatencyHistogram;
  info?: SessionInfo;
  scenario?: Scenario;
  frames?: Thumb[];
}

export type ChartKey = 'erases' | 'page_programs' | 'elapsed_us' | 'wa' | 'cdf_write' | 'cdf_read';
export const CHARTS: { key: ChartKey; title: string; y: string; value?: (p: SeriesPoint) => number }[] = [
  { key: 'erases', title: 'Cumulative block erases', y: 'erases', value: (p) => p.erases },
  { key: 'page_programs', title: 'Cumulative page programs', y: 'programs', value: (p) => p.page_programs },
  { key: 'elapsed_us', title: 'Cumulative flash time (ms)', y: 'ms', value: (p) => p.elapsed_us / 1000 },
  {
    key: 'wa',
    title: 'Write amplification so far',
    y: 'programs ÷ host writes',
    value: (p) => (p.host_writes > 0 ? p.page_programs / p.host_writes : 0),
  },
  { key: 'cdf_write', title: 'Write response-time CDF', y: 'writes (% ≤ time)' },
  { key: 'cdf_read', title: 'Read response-time CDF', y: 'reads (% ≤ time)' },
];
