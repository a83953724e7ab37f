import { useEffect, useRef } from 'react';

export interface Shortcuts {
  togglePlay: () => void;
  stepForward: () => void;
  stepBack: () => void;
}

/** Inputs whose keys edit a value (typing, or a slider's own arrows). */
const VALUE_INPUTS = new Set([
  'text',
  'number',
  'search',
  'email',
  'url',
  'password',
  'tel',
  'date',
  'time',
  'datetime-local',
  'month',
  'week',
  'range',
  'file',
]);

/**
 * True when a key press belongs to a text field (input type text/number/..., a slider,
 * textarea, editable content). Not for a select, a button or a checkbox: there ←/→/Space
 * still step and play (a select's arrows would otherwise change, say, the speed).
 */
export function isTypingTarget(target: EventTarget | null): boolean {
  if (!target || typeof (target as Element).closest !== 'function') return false;
  const el = target as HTMLElement;
  if (el.isContentEditable) return true;
  if (el.closest('textarea, [contenteditable="true"], [contenteditable=""]') !== null) return true;
  const input = el.closest('input') as HTMLInputElement | null;
  if (!input) return false;
  return VALUE_INPUTS.has((input.getAttribute('type') ?? 'text').toLowerCase());
}

/**
 * True when Space belongs to the focused control: a button (or tab, link, summary, checkbox,
 * radio) is pressed by Space, as everywhere else on the web (issue 25). A select is not:
 * there Space still plays (its arrows would otherwise change, say, the speed).
 */
export function spacePresses(target: EventTarget | null): boolean {
  if (!target || typeof (target as Element).closest !== 'function') return false;
  return (
    (target as Element).closest(
      'button, a[href], summary, input[type=checkbox], input[type=radio], [role=button], [role=tab], [role=switch], [role=checkbox], [role=menuitem]',
    ) !== null
  );
}

/**
 * Space: play/pause; ←/→: step back/forward one flash operation. Ignored while focus
 * is in a text field (and with modifier keys, or when a widget handled the key itself,
 * as the scrubber does), so typing never steps. Every press counts: each one queues its
 * command (useSimulation serialises them), none is dropped while another is in flight.
 * Space on a focused button presses that button (spacePresses); on a select it plays/pauses.
 */
export function useShortcuts(shortcuts: Shortcuts) {
  const ref = useRef(shortcuts);
  ref.current = shortcuts;
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (e.defaultPrevented || e.altKey || e.ctrlKey || e.metaKey) return;
      if (isTypingTarget(e.target)) return;
      if (e.key === ' ' || e.code === 'Space') {
        if (spacePresses(e.target)) return;
        e.preventDefault();
        if (!e.repeat) ref.current.togglePlay();
      } else if (e.key === 'ArrowRight') {
        e.preventDefault();
        ref.current.stepForward();
      } else if (e.key === 'ArrowLeft') {
        e.preventDefault();
        ref.current.stepBack();
      }
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, []);
}
