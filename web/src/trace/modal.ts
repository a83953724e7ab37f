// Keyboard handling of the (modal) trace dialog, and closing it for a navigation.
import { useEffect, useEffectEvent } from 'react';

/** Keep Tab inside the dialog (it is modal). */
export function trapFocus(e: KeyboardEvent, root: HTMLElement | null): void {
  if (!root) return;
  const items = [
    ...root.querySelectorAll<HTMLElement>('button, input, select, textarea, summary, [tabindex]:not([tabindex="-1"])'),
  ].filter((el) => !(el as HTMLButtonElement).disabled && el.offsetParent !== null);
  if (items.length === 0) return;
  const first = items[0];
  const last = items[items.length - 1];
  if (e.shiftKey && (document.activeElement === first || document.activeElement === root)) {
    e.preventDefault();
    last.focus();
  } else if (!e.shiftKey && document.activeElement === last) {
    e.preventDefault();
    first.focus();
  }
}

// The modal dialogs open now, each with its own close. A navigation (the address bar's hash
// changed: useHashRoute) closes them: what the link opens would otherwise load behind the
// dialog, unseen (docs/links-tours-compare.md, "Changing the address while a dialog is open").
const openModals = new Set<() => void>();

/** While the calling dialog is mounted, a navigation closes it with `close`. */
export function useClosedByNavigation(close: () => void): void {
  const onNavigate = useEffectEvent(close);
  useEffect(() => {
    const entry = () => onNavigate();
    openModals.add(entry);
    return () => {
      openModals.delete(entry);
    };
  }, []);
}

/** Close every open modal dialog for a navigation; how many were open. */
export function closeModalsForNavigation(): number {
  const open = [...openModals];
  for (const close of open) close();
  return open.length;
}
