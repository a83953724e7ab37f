// The whole resolved configuration of a run, for metrics exports (CSV / JSON): what was
// asked (scenario) and what the core made of it (chip, logical space, log blocks used,
// fit, preconditioning, trace).
import type { Scenario } from '../scenario/model';
import type { Plan, SessionInfo } from '../sim/protocol';
import type { TraceSummary } from '../trace/types';

export interface ResolvedConfig {
  scheme: string;
  params: Record<string, unknown>;
  chip: { preset: string; name?: string; blocks?: number; pages_per_block?: number; page_bytes?: number };
  logical_pages?: number;
  log_blocks_used?: number | null;
  workload: Record<string, unknown>;
  workload_logical_pages?: number;
  fit?: string;
  fit_note?: string;
  precondition: Scenario['precondition'] | null;
  trace?: { name?: string; bytes?: number; sha256?: string; requests?: number; footprint_pages?: number };
  comparison?: string;
}

export function resolvedConfig(o: {
  scenario: Scenario;
  info?: SessionInfo;
  plan?: Plan;
  trace?: TraceSummary;
  traceSha256?: string;
}): ResolvedConfig {
  const { scenario: s, info } = o;
  const w: Record<string, unknown> = Object.fromEntries(Object.entries(s.workload));
  // Trace contents never go into an export: its name, size and hash identify it.
  const { text: _t, upload: _u, ...workload } = w;
  void _t;
  void _u;
  const ws = (s as { workload_space?: { logical_pages: number } }).workload_space;
  const out: ResolvedConfig = {
    scheme: s.scheme,
    // The parameters the core actually used (defaults filled in: log blocks etc.).
    params: (info?.params as Record<string, unknown>) ?? { ...s.params },
    chip: {
      preset: s.chip.preset,
      name: info?.chip.name,
      blocks: info?.chip.blocks ?? s.chip.blocks,
      pages_per_block: info?.chip.pages_per_block ?? s.chip.pages_per_block,
      page_bytes: info?.chip.page_bytes,
    },
    logical_pages: info?.logical_pages,
    log_blocks_used: info?.log_blocks_used ?? null,
    workload,
    workload_logical_pages: ws?.logical_pages ?? info?.logical_pages,
    precondition: s.precondition ?? null,
  };
  if (w.kind === 'trace') {
    out.fit = typeof w.fit === 'string' ? w.fit : 'none';
    out.fit_note = o.trace?.fit_note ?? undefined;
    out.trace = {
      name: typeof w.name === 'string' ? w.name : undefined,
      bytes: o.trace?.bytes,
      sha256: o.traceSha256,
      requests: o.trace?.requests,
      footprint_pages: (o.trace as { fitted_footprint_pages?: number } | undefined)?.fitted_footprint_pages,
    };
  }
  if (o.plan) out.comparison = o.plan.note;
  return out;
}
