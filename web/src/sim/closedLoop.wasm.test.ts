// The closed loop a scheme compiles for itself on wasm32 only (issue 37: LTFTL's and page
// mapping's read-ahead, core-wasm/crates/sim/src/ftl/ltftl/ahead.rs and page.rs `touch_group`)
// and FAST's merges' read-ahead (ftl/fast/merge.rs, ftl/host.rs `read_ahead`: wasm32 only)
// run in no native test: here, in the built wasm, a full-speed run (that loop) must leave the
// chip and the metrics exactly as the player's path, request by request, leaves them.
import { describe, expect, it } from 'vitest';
import { loadNodeCore } from '../scenario/testing/nodeCore';

const core = loadNodeCore();

const CHIP = { preset: 'classroom', blocks: 64, pages_per_block: 8 };
const WORKLOADS = [
  { kind: 'uniform', n: 6000, seed: 3, read_ratio: 0.2 },
  { kind: 'hotcold', n: 6000, seed: 4, read_ratio: 0.3, hot_fraction: 0.1, hot_ratio: 0.9 },
  { kind: 'sequential', n: 3000 },
];

/** Everything a run leaves: metrics, each page's state and LPN, each block's erases. */
function runOnce(json: string, fullSpeed: boolean) {
  const s = new core.Session(json);
  try {
    if (fullSpeed) s.set_full_speed(true);
    expect(s.run(s.total())).toBe(s.total());
    return {
      metrics: JSON.parse(s.metrics()) as Record<string, unknown>,
      states: Array.from(s.page_states()),
      lpns: Array.from(s.page_lpns()),
      erases: Array.from(s.block_erase_counts()),
    };
  } finally {
    s.free();
  }
}

describe('a scheme-compiled closed loop in wasm leaves what the request-by-request path leaves', () => {
  for (const scheme of ['ltftl', 'page', 'nftl', 'rftl', 'fast', 'ofast', 'fastcheck']) {
    for (const workload of WORKLOADS) {
      it(`${scheme}, ${workload.kind}`, () => {
        const json = JSON.stringify({ scheme, chip: CHIP, workload });
        const full = runOnce(json, true);
        const logged = runOnce(json, false);
        expect(full.metrics.wrong_reads).toBe(0);
        expect(full.metrics.erases as number).toBeGreaterThan(0);
        expect(full).toEqual(logged);
      });
    }
  }
});
