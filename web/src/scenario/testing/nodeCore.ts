/// <reference types="node" />
// For Vitest (Node): the real wasm core, initialised synchronously from the built file.
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import * as pkg from '../../sim/pkg/ftlscope_wasm.js';
import { setCoreFns } from '../loadCore';

let done = false;

/** Initialise the wasm module and apply catalog(); returns the module. */
export function loadNodeCore(): typeof pkg {
  if (!done) {
    const wasm = readFileSync(fileURLToPath(new URL('../../sim/pkg/ftlscope_wasm_bg.wasm', import.meta.url)));
    pkg.initSync({ module: wasm });
    setCoreFns({ catalog: pkg.catalog, check_pattern: pkg.check_pattern });
    done = true;
  }
  return pkg;
}
