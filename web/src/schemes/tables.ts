// The scheme panels of the core's view() (core: ftl/panel.rs; docs/schemes/*.md, "What the
// app should show"): typed data, one kind per panel. The scheme panels pick theirs by kind;
// every kind also reads as a plain table (the generic table list) with the text it has
// always shown.
import type { Panel } from '../sim/generated/Panel';
import type { PanelData } from '../sim/generated/PanelData';
import type { BlockFill } from '../sim/generated/BlockFill';
import type { GroupGc } from '../sim/generated/GroupGc';
import type { SectorEntry } from '../sim/generated/SectorEntry';
import type { GcPhase } from '../sim/generated/GcPhase';
import type { AssociativeLog } from '../sim/generated/AssociativeLog';
import type { RelativeRow as CoreRelativeRow } from '../sim/generated/RelativeRow';
import { hasPanel, type PanelKind } from '../scenario/model';

/** Real-time schemes: response times per request and their histogram (panel kind). */
export const rftlLike = (scheme: string) => hasPanel(scheme, 'response_times');
/** K-associative log blocks: the log strip, relative addressing, mapping RAM (panel kind). */
export const kraftLike = (scheme: string) => hasPanel(scheme, 'kraft_log_blocks');

export type PanelDataKind = PanelData['kind'];
export type PanelOf<K extends PanelDataKind> = Extract<PanelData, { kind: K }>;

const isKind = <K extends PanelDataKind>(d: PanelData, kind: K): d is PanelOf<K> => d.kind === kind;

/** The data of every panel of kind `kind`, in view order. */
export function panelsOf<K extends PanelDataKind>(panels: Panel[], kind: K): PanelOf<K>[] {
  const out: PanelOf<K>[] = [];
  for (const p of panels) if (isKind(p.data, kind)) out.push(p.data);
  return out;
}

/** The data of the first panel of kind `kind`, or null. */
export function panelOf<K extends PanelDataKind>(panels: Panel[], kind: K): PanelOf<K> | null {
  return panelsOf(panels, kind)[0] ?? null;
}

export type BlockUse = BlockFill;

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

const GC_KIND: Record<GroupGc['kind'], string> = {
  primary: 'primary',
  primary_and_buffer: 'primary+buffer',
  replacement: 'replacement',
};

/** "primary+buffer GC: step 5 of 8" */
export const gcText = (g: GroupGc) => `${GC_KIND[g.kind]} GC: step ${g.step} of ${g.of}`;

export function rftlGroups(panels: Panel[]): RftlGroup[] | null {
  const t = panelOf(panels, 'block_groups');
  if (!t) return null;
  return t.groups.map((g) => ({
    lbn: g.lbn,
    primary: g.primary,
    replacement: g.replacement,
    buffer: g.buffer,
    gc: g.gc ? gcText(g.gc) : null,
    gcStep: g.gc?.step ?? null,
    gcOf: g.gc?.of ?? null,
  }));
}

export interface LogBlock extends Omit<AssociativeLog, 'last_used'> {
  lastUsed: number;
}

export interface LogBlocks {
  k: number;
  logBlocks: LogBlock[];
}

export function kraftLogBlocks(panels: Panel[]): LogBlocks | null {
  const t = panelOf(panels, 'associative_log_blocks');
  if (!t) return null;
  return { k: t.k, logBlocks: t.log_blocks.map(({ last_used, ...l }) => ({ ...l, lastUsed: last_used })) };
}

export interface RelativeRow extends CoreRelativeRow {
  /** "7·8 + 6 = 62", or "(skipped)" for a page a fill left erased */
  formula: string;
}

export interface RelativeTable {
  slot: number;
  pbn: number;
  lbns: number[];
  rows: RelativeRow[];
}

const formula = (r: CoreRelativeRow, n: number) =>
  r.lsn === null ? '(skipped)' : `${r.lbn}·${n} + ${r.rlsn} = ${r.lsn}`;

export function relativeTables(panels: Panel[]): RelativeTable[] {
  return panelsOf(panels, 'relative_addressing').map((t) => ({
    slot: t.slot,
    pbn: t.pbn,
    lbns: t.lbns,
    rows: t.rows.map((r) => ({ ...r, formula: formula(r, t.pages_per_block) })),
  }));
}

/** The mapping-RAM comparison as the RAM panel lists it (rows of label, FAST, KRAFT). */
export function ramTable(panels: Panel[]): PlainTable | null {
  const p = panels.find((x) => x.data.kind === 'mapping_ram');
  return p ? panelTable(p) : null;
}

/** Panel kinds each scheme panel draws itself (the generic table list leaves them out). */
const DRAWN: { panel: PanelKind; kinds: PanelDataKind[] }[] = [
  { panel: 'rftl_block_map', kinds: ['block_groups'] },
  { panel: 'kraft_log_blocks', kinds: ['associative_log_blocks', 'relative_addressing', 'mapping_ram'] },
  { panel: 'frozen_states', kinds: ['frozen_states', 'intent_log', 'log_buffer', 'revert_diff'] },
];

/** Panels the scheme panels do not draw themselves: the generic table list shows them. */
export function tablesShownElsewhere(scheme: string, panels: Panel[]): Panel[] {
  const drawn = new Set(DRAWN.filter((d) => hasPanel(scheme, d.panel)).flatMap((d) => d.kinds));
  return panels.filter((p) => !drawn.has(p.data.kind));
}

/** A panel as a plain table: heading, column names and the text of each cell. */
export interface PlainTable {
  title: string;
  columns: string[];
  rows: string[][];
}

const dash = (v: number | null | undefined) => (v === null || v === undefined ? '-' : String(v));
const fill = (b: BlockFill) => `${dash(b.pbn)} (${b.used}/${b.of})`;
/** Column names written `a|b|c` (a scheme id may be a column name: the catalog test greps quoted ids). */
const cols = (names: string) => names.split('|');
const list = (v: (number | string)[]) => v.join(' ');
/** One decimal as the core printed it (Rust's `{:.1}`): an exact tie (x.25, x.75) goes to the
 *  even digit, where toFixed goes up. */
export function fixed1(v: number): string {
  if (Number.isInteger(v * 4) && !Number.isInteger(v * 2)) {
    const f = Math.floor(v * 10);
    return ((f % 2 === 0 ? f : f + 1) / 10).toFixed(1);
  }
  return v.toFixed(1);
}
const pct = (v: number) => `${fixed1(v * 100)}%`;

/** A log page's sector-map entry: its LSN, −1 once merged out, · while empty (null). */
export const sectorText = (e: SectorEntry) => (e === null ? '·' : String(e));

const PHASE: Record<GcPhase['phase'], string> = {
  start: 'Start',
  scan: 'Scan',
  copy: 'Copy',
  erase_old: 'EraseOld',
  erase_buffer: 'EraseBuf',
};
const phaseText = (p: GcPhase) =>
  p.phase === 'scan' || p.phase === 'copy' ? `${PHASE[p.phase]}(${p.page})` : PHASE[p.phase];

function cells(d: PanelData): { columns: string[]; rows: (string | number)[][] } {
  switch (d.kind) {
    case 'page_map':
      return {
        columns: cols('lpn|pbn|page'),
        rows: d.entries.map((e) => [e.lpn, dash(e.at?.pbn), dash(e.at?.page)]),
      };
    case 'data_block_map':
      return { columns: ['lbn', 'pbn'], rows: d.entries.map((e) => [e.lbn, dash(e.pbn)]) };
    case 'data_and_log_map':
      return {
        columns: ['lbn', 'data pbn', 'log'],
        rows: d.entries.map((e) => [e.lbn, dash(e.data), dash(e.log)]),
      };
    case 'replacement_map':
      return {
        columns: ['lbn', 'data', 'replacement', 'replacement used'],
        rows: d.entries.map((e) => {
          const r = e.replacement;
          return [e.lbn, dash(e.data), dash(r.pbn), r.pbn === null ? '-' : `${r.used}/${r.of}`];
        }),
      };
    case 'buffered_block_map':
      return {
        columns: ['lbn', 'data', 'buffer', 'buffered pages'],
        rows: d.entries.map((e) => [
          e.lbn,
          fill(e.data),
          e.full_buffers.map((b) => `${b} → `).join('') + fill(e.buffer),
          e.buffered_pages,
        ]),
      };
    case 'gc_queue':
      return {
        columns: ['#', 'lbn', 'phase', 'steps'],
        rows: d.jobs.map((j, i) => [i, j.lbn, phaseText(j.phase), `${j.steps} of at most ${d.max_steps}`]),
      };
    case 'block_groups':
      return {
        columns: ['lbn', 'primary', 'replacement', 'buffer', 'GC'],
        rows: d.groups.map((g) => [
          g.lbn,
          fill(g.primary),
          fill(g.replacement),
          fill(g.buffer),
          g.gc ? gcText(g.gc) : '-',
        ]),
      };
    case 'sub_table_index':
      return {
        columns: ['lbn', ...d.sub_tables.map((r, g) => `sub-table ${g} (BO ${r.first}..${r.last})`)],
        rows: d.rows.map((r) => [r.lbn, ...r.at.map((a) => (a ? `${a.pbn}:${a.page}` : '-'))]),
      };
    case 'dedicated_log_blocks':
      return {
        columns: ['slot', 'pbn', 'lbn', 'lsns'],
        rows: d.slots.map((s) =>
          s.pbn === null
            ? [s.slot, '-', '-', '']
            : [
                s.slot,
                s.pbn,
                dash(s.lbn),
                list([
                  ...s.lsns.map(String),
                  ...Array<string>(Math.max(0, d.pages_per_block - s.lsns.length)).fill('·'),
                ]),
              ],
        ),
      };
    case 'sequential_log_block':
      return {
        columns: ['pbn', 'owner lbn', 'last lsn', 'sectors'],
        rows: [d.log ? [d.log.pbn, d.log.lbn, d.log.last_lsn, d.log.sectors] : ['-', '-', '-', '0']],
      };
    case 'shared_log_blocks':
      return {
        columns: ['order', 'pbn', 'lsns'],
        rows: d.blocks.map((b) => [b.order, b.pbn, b.lsns.map(sectorText).join(' ')]),
      };
    case 'associative_log_blocks':
      return {
        columns: ['log', 'pbn', 'associativity', 'LBN[0..K)', 'serial', 'top', 'last used'],
        rows: d.log_blocks.map((l) => [
          l.slot,
          l.pbn,
          l.associativity,
          l.free ? 'free' : list(l.lbns),
          l.free ? '-' : l.serial ? 'yes' : 'no',
          l.top,
          l.last_used,
        ]),
      };
    case 'relative_addressing':
      return {
        columns: cols('PSN|page|RI|LBN[RI]|RLSN|LSN = LBN[RI]·N + RLSN'),
        rows: d.rows.map((r) => [r.psn, r.page, dash(r.ri), dash(r.lbn), dash(r.rlsn), formula(r, d.pages_per_block)]),
      };
    case 'mapping_ram':
      return {
        columns: ['', 'FAST / KAST', 'KRAFT'],
        rows: [
          [
            'bits per log block',
            `${d.fast_log_bits_per_block} (PBN ${d.pbn_bits} + ${d.pages_per_block}×LSN ${d.lsn_bits})`,
            `${d.kraft_log_bits_per_block} (PBN ${d.pbn_bits} + ${d.k}×LBN ${d.lbn_bits} + ${d.pages_per_block}×(RI ${d.ri_bits} + RLSN ${d.rlsn_bits}))`,
          ],
          [`RAM with ${d.fast_log_blocks} log blocks (bytes)`, d.fast_bytes, d.kraft_bytes_same_log_blocks],
          ["log blocks within FAST's RAM", d.fast_log_blocks, d.kraft_log_blocks],
        ],
      };
    case 'metadata_area':
      return {
        columns: ['part', 'where'],
        rows: [
          ['map directory (fixed)', `${d.directory.pbn} page ${d.directory.page}`],
          ['map block', d.map ? `${d.map.pbn} page ${d.map.page}` : '-'],
          [d.holds === 'checkpoints' ? 'checkpoint blocks' : 'log / dump blocks', list(d.blocks)],
          ...(d.records ? [['records in RAM', `${d.records.held} of ${d.records.per_page} per page`]] : []),
        ],
      };
    case 'log_regions':
      return {
        columns: ['pbn', 'region', 'lbMSN', 'state', 'lpns'],
        rows: d.blocks.map((b) => [
          b.pbn,
          b.region,
          dash(b.lbmsn),
          b.checkpointed ? 'checkpointed' : 'in RAM only',
          b.lsns.map(sectorText).join(' '),
        ]),
      };
    case 'frozen_states':
      return {
        columns: ['id', 'epoch', 'pages pinned (retractable)'],
        rows: d.states.map((s) => [s.id, `S${s.epoch}`, s.pinned]),
      };
    case 'intent_log':
    case 'log_buffer':
      return {
        columns: ['#', 'kind', 'sector', 'old page', 'new page', 'global_time'],
        rows: d.entries.map((e) => [
          e.n,
          e.moved ? 'gc move' : 'write',
          e.sector,
          e.old ?? 'φ',
          e.new ?? 'φ',
          e.global_time,
        ]),
      };
    case 'revert_diff':
      return {
        columns: ['state', 'sector', 'page now', 'page after revert'],
        rows: d.rows.map((r) => [r.state, r.sector, dash(r.now), dash(r.after)]),
      };
    case 'sections': {
      const s = d.shares;
      return {
        columns: ['section', 'blocks'],
        rows: [
          ['metadata', list(d.metadata)],
          ['mapping', list(d.mapping)],
          ['data', `${d.data_blocks} blocks`],
          ['log', list(d.log)],
          ['valid / invalid / retractable', `${pct(s.valid)} / ${pct(s.invalid)} / ${pct(s.retractable)}`],
          ['log / map / metadata / free', `${pct(s.log)} / ${pct(s.map)} / ${pct(s.meta)} / ${pct(s.free)}`],
        ],
      };
    }
    case 'table':
      return { columns: d.columns, rows: d.rows };
  }
}

/** Any panel as the plain table the generic list shows. */
export function panelTable(p: Panel): PlainTable {
  const t = cells(p.data);
  return { title: p.title, columns: t.columns, rows: t.rows.map((r) => r.map(String)) };
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
