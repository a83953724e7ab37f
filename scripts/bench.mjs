#!/usr/bin/env node
// Placeholder: benchmarks (CLI sweeps over the Rust core, UI frame timings) come in a later issue.
console.log('[bench] no benchmarks yet; see the issue tracker.');
