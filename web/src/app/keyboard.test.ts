import { describe, expect, it } from 'vitest';
import { isTypingTarget, spacePresses } from './keyboard';

function el(matches: boolean, editable = false) {
  return { isContentEditable: editable, closest: () => (matches ? {} : null) } as unknown as EventTarget;
}

/** A real-ish element: `closest` answers for the selectors it matches. */
function tag(name: string, type?: string) {
  return {
    isContentEditable: false,
    getAttribute: (a: string) => (a === 'type' ? (type ?? null) : null),
    closest(sel: string) {
      const parts = sel.split(',').map((x) => x.trim());
      return parts.includes(name) || (type !== undefined && parts.includes(`${name}[type=${type}]`)) ? this : null;
    },
  } as unknown as EventTarget;
}

describe('isTypingTarget: text fields only', () => {
  it('text and number inputs, sliders and textareas take the keys', () => {
    expect(isTypingTarget(tag('input', 'text'))).toBe(true);
    expect(isTypingTarget(tag('input'))).toBe(true);
    expect(isTypingTarget(tag('input', 'number'))).toBe(true);
    expect(isTypingTarget(tag('input', 'range'))).toBe(true);
    expect(isTypingTarget(tag('textarea'))).toBe(true);
  });
  it('a select, a checkbox or a button does not: ←/→/Space still step and play', () => {
    expect(isTypingTarget(tag('select'))).toBe(false);
    expect(isTypingTarget(tag('input', 'checkbox'))).toBe(false);
    expect(isTypingTarget(tag('button'))).toBe(false);
  });
});

describe('isTypingTarget', () => {
  it('is true inside textareas and editable content', () => {
    expect(isTypingTarget(el(true))).toBe(true);
    expect(isTypingTarget(el(false, true))).toBe(true);
  });

  it('is false for buttons, the page body and non-elements', () => {
    expect(isTypingTarget(el(false))).toBe(false);
    expect(isTypingTarget(null)).toBe(false);
    expect(isTypingTarget({} as EventTarget)).toBe(false);
  });
});

describe('spacePresses: Space presses a focused button, not Play (issue 25)', () => {
  it('buttons, tabs and checkboxes take Space; a select and the page do not', () => {
    expect(spacePresses(tag('button'))).toBe(true);
    expect(spacePresses(tag('input', 'checkbox'))).toBe(true);
    expect(spacePresses(tag('select'))).toBe(false);
    expect(spacePresses(tag('div'))).toBe(false);
    expect(spacePresses(null)).toBe(false);
  });
});
