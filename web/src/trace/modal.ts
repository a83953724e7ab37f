// Keyboard handling of the (modal) trace dialog.

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
