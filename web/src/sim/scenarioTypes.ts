// The scenario as it crosses to the core: exactly the JSON the wasm `Session` constructor
// takes (docs/session-api.md), so it lives with the other wire types in the shared layer
// (sim/ and every feature read it), with the chip presets. The types are generated from the
// core's (core-wasm/crates/sim/src/scenario/, ts-rs: scripts/gen-types.mjs); only the
// page-side fields of an uploaded trace are declared here. Its model (defaults, checks,
// descriptions, the catalog's schemes) is web/src/scenario/model.ts, which re-exports these.
import type { ChipPreset } from './generated/ChipPreset';
import type { Scenario as CoreScenario } from './generated/Scenario';
import type { SchemeParams as CoreSchemeParams } from './generated/SchemeParams';
import type { Workload as CoreWorkload } from './generated/Workload';

export type { ScenarioChip as ChipConfig } from './generated/ScenarioChip';
export type { ChipPreset };
export type { Precondition } from './generated/Precondition';
export type { SchemeParamKey } from './generated/SchemeParamKey';
export type { TimingConfig } from './generated/TimingConfig';
export type { WorkloadSpace } from './generated/WorkloadSpace';

/**
 * An uploaded trace: the core's trace workload plus fields the page keeps beside it, which
 * never reach the core (sim/traceTypes.ts `coreScenario` removes them). Its requests live
 * with the upload (never in a link): a link carries only `{kind: 'trace', name, missing: true}`,
 * and the app asks for the file again.
 */
export type TraceWorkload = Extract<CoreWorkload, { kind: 'trace' }> & {
  /** the file name, for people */
  name: string;
  /** set when the trace was left out of a link or file and must be provided again */
  missing?: boolean;
  /** the parser's id in the worker (sim/traceTypes.ts UploadWorkload) */
  upload?: number;
  /** the column mapping as JSON */
  mapping?: string;
  /** the file's size and SHA-256 (hex): a link reopened with another file is refused */
  size?: number;
  sha256?: string;
};

/** The core's workloads, its trace workload with the page-side fields. */
export type Workload = Exclude<CoreWorkload, { kind: 'trace' }> | TraceWorkload;

export type WorkloadKind = Workload['kind'];

/**
 * The core's parameters (generated from `SchemeParams`, one field per `scheme_params!`
 * declaration), addressable by a key read at run time: the form, compare and links take
 * the keys from the catalog's parameter specs or a link, as strings. A key the core does
 * not declare is kept and refused by the core with its message (links stay as written).
 */
export type SchemeParams = CoreSchemeParams & { [key: string]: number | undefined };

/** The core's scenario (absent precondition: a fresh chip; absent timing: the closed model). */
export type Scenario = Omit<CoreScenario, 'workload' | 'params'> & { params: SchemeParams; workload: Workload };

/** The chip presets the core knows (its `nand` presets), as the pickers offer them. */
export interface ChipSpec {
  id: ChipPreset;
  label: string;
  /** the preset's own geometry (the Rust presets are authoritative) */
  blocks: number;
  pages_per_block: number;
  /** blocks the form suggests, so the whole chip fits the device view */
  suggestedBlocks: number;
}

export const CHIPS: ChipSpec[] = [
  { id: 'classroom', label: 'Classroom (4 pages/block)', blocks: 16, pages_per_block: 4, suggestedBlocks: 16 },
  {
    id: 'fast2007',
    label: 'FAST 2007 (512 B, 32 pages/block)',
    blocks: 4096,
    pages_per_block: 32,
    suggestedBlocks: 32,
  },
  {
    id: 'rftl-small',
    label: 'RFTL small-block (512 B, 32 pages/block)',
    blocks: 1024,
    pages_per_block: 32,
    suggestedBlocks: 32,
  },
  {
    id: 'rftl-large',
    label: 'RFTL large-block (2 KB, 32 pages/block)',
    blocks: 2048,
    pages_per_block: 32,
    suggestedBlocks: 32,
  },
  {
    id: 'fastcheck',
    label: 'FastCheck (4 KB, 128 pages/block)',
    blocks: 16384,
    pages_per_block: 128,
    suggestedBlocks: 16,
  },
];

export function chipSpec(id: string): ChipSpec | undefined {
  return CHIPS.find((c) => c.id === id);
}
