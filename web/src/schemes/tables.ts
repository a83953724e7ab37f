// Reading the scheme panels' data out of the core's view() tables (docs/schemes/*.md,
// "What the app should show"). Titles are matched by their stable prefixes.
import type { ViewTable } from '../sim/protocol';
import { hasPanel } from '../scenario/model';
import { LTFTL_TABLES } from './timeShift';

/** Real-time schemes: response times per request and their histogram (panel kind). */
export const rftlLike = (scheme: string) => hasPanel(scheme, 'response_times');
/** K-associative log blocks: the log strip, relative addressing, mapping RAM (panel kind). */
export const kraftLike = (scheme: string) => hasPanel(scheme, 'kraft_log_blocks');

const str = (v: unknown) => (v === null || v === undefined ? '' : String(v));

export interface BlockUse {
  pbn: number;
  used: number;
  of: number;
}

export interface RftlGroup {
  lbn: number;
  primary: BlockUse | null;
  replacement: BlockUse | null;
  buffer: BlockUse | null;
  /** e.g. "primary GC: step 2 of 8", or null */
  gc: string | null;
  gcStep: number | null;
  gcOf: number | null;
}

/** "12 (5/32)" → {pbn 12, used 5, of 32} */
export function parseBlockUse(v: unknown): BlockUse | null {
  const m = str(v).match(/^(\d+)\s*\((\d+)\/(\d+)\)$/);
  return m ? { pbn: Number(m[1]), used: Number(m[2]), of: Number(m[3]) } : null;
}

export function rftlGroups(tables: ViewTable[]): RftlGroup[] | null {
  const t = tables.find((x) => x.title.startsWith('Block map (RAM): primary / replacement / buffer'));
  if (!t) return null;
  return t.rows.map((r) => {
    const gc = str(r[4]);
    const m = gc.match(/step (\d+) of (\d+)/);
    return {
      lbn: Number(r[0]),
      primary: parseBlockUse(r[1]),
      replacement: parseBlockUse(r[2]),
      buffer: parseBlockUse(r[3]),
      gc: gc && gc !== '-' ? gc : null,
      gcStep: m ? Number(m[1]) : null,
      gcOf: m ? Number(m[2]) : null,
    };
  });
}

export interface LogBlock {
  slot: number;
  pbn: number;
  associativity: number;
  lbns: number[];
  free: boolean;
  serial: boolean | null;
  top: number;
  lastUsed: number;
}

export interface LogBlocks {
  k: number;
  logBlocks: LogBlock[];
}

export function kraftLogBlocks(tables: ViewTable[]): LogBlocks | null {
  const t = tables.find((x) => x.title.startsWith('Log blocks (K = '));
  if (!t) return null;
  const k = Number(t.title.match(/K = (\d+)/)?.[1] ?? 0);
  return {
    k,
    logBlocks: t.rows.map((r) => {
      const assoc = str(r[3]);
      const free = assoc === 'free';
      const serial = str(r[4]);
      return {
        slot: Number(r[0]),
        pbn: Number(r[1]),
        associativity: Number(r[2]),
        lbns: free || !assoc ? [] : assoc.split(/\s+/).map(Number),
        free,
        serial: serial === 'yes' ? true : serial === 'no' ? false : null,
        top: Number(r[5]),
        lastUsed: Number(r[6]),
      };
    }),
  };
}

export interface RelativeRow {
  psn: number;
  page: number;
  /** null: a page a fill left erased ("(skipped)") */
  ri: number | null;
  lbn: number | null;
  rlsn: number | null;
  lsn: number | null;
  formula: string;
}

export interface RelativeTable {
  slot: number;
  pbn: number;
  lbns: number[];
  rows: RelativeRow[];
}

const num = (v: unknown): number | null => {
  const s = str(v);
  return /^\d+$/.test(s) ? Number(s) : null;
};

export function relativeTables(tables: ViewTable[]): RelativeTable[] {
  const out: RelativeTable[] = [];
  for (const t of tables) {
    const m = t.title.match(/^Relative addressing, log block (\d+) \(pbn (\d+)\): LBN\[\] = \[([^\]]*)\]/);
    if (!m) continue;
    out.push({
      slot: Number(m[1]),
      pbn: Number(m[2]),
      lbns: m[3].trim() ? m[3].split(',').map((x) => Number(x.trim())) : [],
      rows: t.rows.map((r) => {
        const formula = str(r[5]);
        return {
          psn: Number(r[0]),
          page: Number(r[1]),
          ri: num(r[2]),
          lbn: num(r[3]),
          rlsn: num(r[4]),
          lsn: num(formula.split('=').pop()?.trim()),
          formula,
        };
      }),
    });
  }
  return out;
}

export function ramTable(tables: ViewTable[]): ViewTable | null {
  return tables.find((x) => x.title.startsWith('Mapping RAM by the KRAFT')) ?? null;
}

/** Tables the scheme panels draw themselves (the generic table list leaves them out). */
export function tablesShownElsewhere(scheme: string, tables: ViewTable[]): ViewTable[] {
  if (hasPanel(scheme, 'rftl_block_map'))
    return tables.filter((t) => !t.title.startsWith('Block map (RAM): primary / replacement / buffer'));
  if (kraftLike(scheme)) {
    return tables.filter(
      (t) =>
        !t.title.startsWith('Log blocks (K = ') &&
        !t.title.startsWith('Relative addressing, log block') &&
        !t.title.startsWith('Mapping RAM by the KRAFT'),
    );
  }
  if (hasPanel(scheme, 'frozen_states')) return tables.filter((t) => !LTFTL_TABLES.some((p) => t.title.startsWith(p)));
  return tables;
}

/** Worst-case response time bounds of the RFTL paper's Table 2, in µs. */
export interface Timing {
  read_us: number;
  read_oob_us: number;
  program_us: number;
  erase_us: number;
}

export function rftlBound(t: Timing): number {
  return Math.max(t.erase_us + t.program_us + t.read_oob_us, t.read_us + t.read_oob_us);
}

export function gftlBound(t: Timing, pagesPerBlock: number): number {
  return t.erase_us + Math.max(t.read_us + pagesPerBlock * t.read_oob_us, t.program_us);
}
