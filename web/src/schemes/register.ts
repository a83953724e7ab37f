// The schemes whose panels live here, added to the scenario pickers when the scenario
// model does not list them yet (it fills its list from the core's catalog() once that
// lands; entries already present are left alone).
import { SCHEMES, type SchemeSpec } from '../scenario/model';

const UTILISATION = { key: 'utilisation', label: 'Utilisation', min: 0.05, max: 1, step: 0.05, default: 1 } as const;
const LOG_BLOCKS = {
  key: 'log_blocks',
  label: 'Log blocks',
  min: 1,
  max: 4096,
  step: 1,
  default: 2,
  integer: true,
} as const;
const K = { key: 'k', label: 'Associativity K', min: 1, max: 1024, step: 1, default: 2, integer: true } as const;

export const SCHEME_SPECS: SchemeSpec[] = [
  {
    id: 'rftl',
    label: 'RFTL (real-time)',
    description: 'RFTL: primary / replacement / buffer blocks, OOB sub-tables, distributed partial GC (real-time)',
    params: [UTILISATION],
    cleaning: 'gc',
  },
  {
    id: 'gftl',
    label: 'GFTL',
    description: 'GFTL as the RFTL paper describes it: buffer blocks, central GC queue, partial block cleaning',
    params: [UTILISATION],
    cleaning: 'gc',
  },
  {
    id: 'nftl',
    label: 'NFTL',
    description: 'NFTL: block mapping with a replacement block; merge when both are full',
    params: [UTILISATION],
    cleaning: 'merges',
  },
  {
    id: 'kraft',
    label: 'KRAFT',
    description: 'KRAFT: K-associative log blocks kept serial, relative addressing (Kang et al.)',
    params: [LOG_BLOCKS, K],
    cleaning: 'merges',
  },
  {
    id: 'ltftl',
    label: 'LTFTL',
    description: 'LTFTL: page mapping with time shift (freeze / unfreeze / revert) and power-loss roll-back',
    params: [{ key: 'op', label: 'Over-provisioning', min: 0.05, max: 0.9, step: 0.05, default: 0.25 }],
    cleaning: 'gc',
  },
  {
    id: 'kast',
    label: 'KAST (K-associative)',
    description: 'KAST-style K-associative log blocks (KRAFT without seriality maintenance)',
    params: [LOG_BLOCKS, K],
    cleaning: 'merges',
  },
];

export function registerSchemes(): void {
  for (const s of SCHEME_SPECS) if (!SCHEMES.some((x) => x.id === s.id)) SCHEMES.push(s);
}

registerSchemes();

import { PRESETS } from '../scenario/presets';
import { SCHEME_PRESETS } from './presets';

/** Add the scheme presets to the picker (once; ids already there are left alone). */
export function registerPresets(): void {
  for (const p of SCHEME_PRESETS) if (!PRESETS.some((x) => x.id === p.id)) PRESETS.push(p);
}

registerPresets();
