import { useEffect, useRef } from 'react';

export interface Shortcuts {
  togglePlay: () => void;
  stepForward: () => void;
  stepBack: () => void;
}

/** True when a key press belongs to a text field, select, slider or editable element. */
export function isTypingTarget(target: EventTarget | null): boolean {
  if (!target || typeof (target as Element).closest !== 'function') return false;
  const el = target as HTMLElement;
  if (el.isContentEditable) return true;
  return el.closest('input, textarea, select, [contenteditable="true"]') !== null;
}

/**
 * Space: play/pause; ←/→: step back/forward one flash operation. Ignored while focus
 * is in an input, textarea or select (and with modifier keys), so typing never steps.
 * Space on a focused button plays/pauses too; Enter still activates the button.
 */
export function useShortcuts(shortcuts: Shortcuts) {
  const ref = useRef(shortcuts);
  ref.current = shortcuts;
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (e.defaultPrevented || e.altKey || e.ctrlKey || e.metaKey) return;
      if (isTypingTarget(e.target)) return;
      if (e.key === ' ' || e.code === 'Space') {
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
