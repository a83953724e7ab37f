// Every construct of the inline pattern language (core-wasm/crates/sim/src/trace/pattern.rs),
// as data: PatternHelp.tsx lists it and patternHelp.test.ts runs each example through the
// core's own parser, with the request count it must expand to.
export interface PatternConstruct {
  syntax: string;
  example: string;
  /** requests the example expands to (checked against the core) */
  requests: number;
  meaning: string;
}

export const PATTERN_CONSTRUCTS: PatternConstruct[] = [
  { syntax: 'w<page>', example: 'w5', requests: 1, meaning: 'write logical page (LPN) 5' },
  { syntax: 'r<page>', example: 'r3', requests: 1, meaning: 'read logical page 3' },
  {
    syntax: 'S<sector>',
    example: 'S4',
    requests: 1,
    meaning: 'write sector 4 — the FAST paper’s notation, the same as w4',
  },
  {
    syntax: 'w<a>-<b>',
    example: 'w0-15',
    requests: 16,
    meaning: 'write pages 0, 1, … 15 in order (r0-3 reads a range, S0-3 writes one)',
  },
  {
    syntax: '( … )x<n>',
    example: '(w0 w1)x3',
    requests: 6,
    meaning: 'repeat the group n times; groups nest: ((w0)x2 w1)x2',
  },
  {
    syntax: 'freeze',
    example: 'w0 freeze w0',
    requests: 3,
    meaning: 'LTFTL: record the current state (state 1, 2, …) so it can be gone back to',
  },
  {
    syntax: 'revert <id>',
    example: 'freeze w0 revert 1',
    requests: 3,
    meaning: 'LTFTL: go back to frozen state <id>, undoing the writes since',
  },
  {
    syntax: 'unfreeze <id>',
    example: 'freeze w0 unfreeze 1',
    requests: 3,
    meaning: 'LTFTL: drop frozen state <id>; its old pages become invalid',
  },
  { syntax: '# …', example: 'w0 # first write', requests: 1, meaning: 'a comment, to the end of the line' },
  {
    syntax: 'spaces , ;',
    example: 'w0, w4; w8',
    requests: 3,
    meaning: 'items are separated by spaces, new lines, commas or semicolons',
  },
];
