// The scheme presets, added to the scenario picker. The schemes themselves come from the
// core's catalog() (its ftl::REGISTRY; web/src/scenario/model.ts applyCatalog).
import { PRESETS } from '../scenario/presets';
import { SCHEME_PRESETS } from './presets';

/** Add the scheme presets to the picker (once; ids already there are left alone). */
export function registerPresets(): void {
  for (const p of SCHEME_PRESETS) if (!PRESETS.some((x) => x.id === p.id)) PRESETS.push(p);
}

registerPresets();
