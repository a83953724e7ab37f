import { describe, expect, it } from 'vitest';
import { lineErrorText } from './text';
import { chipPagesAfterFit } from './useTraceFit';

describe('trace dialog text', () => {
  it("formats line errors and sizes the chip from the core's scaled block count", () => {
    expect(lineErrorText({ line: 2, column: 9, message: "expected the opcode r or w, found 'x'" })).toBe(
      "line 2, column 9: expected the opcode r or w, found 'x'",
    );
    // "scaled the chip from 16 to 4096 blocks": the summary's scaled_blocks is 4096.
    expect(chipPagesAfterFit(4096, 16, 4)).toBe(16384);
    expect(chipPagesAfterFit(null, 16, 4)).toBe(64);
  });
});
