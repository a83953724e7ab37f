import { describe, expect, it } from 'vitest';
import { isTypingTarget } from './keyboard';

function el(matches: boolean, editable = false) {
  return { isContentEditable: editable, closest: () => (matches ? {} : null) } as unknown as EventTarget;
}

describe('isTypingTarget', () => {
  it('is true inside inputs, textareas, selects and editable content', () => {
    expect(isTypingTarget(el(true))).toBe(true);
    expect(isTypingTarget(el(false, true))).toBe(true);
  });

  it('is false for buttons, the page body and non-elements', () => {
    expect(isTypingTarget(el(false))).toBe(false);
    expect(isTypingTarget(null)).toBe(false);
    expect(isTypingTarget({} as EventTarget)).toBe(false);
  });
});
