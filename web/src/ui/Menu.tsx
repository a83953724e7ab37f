// A small disclosure menu for the header: a button that opens a list of actions.
// Escape or a click outside closes it; focus returns to the button.
import { useEffect, useId, useRef, useState, type ReactNode } from 'react';

export interface MenuProps {
  label: string;
  testId?: string;
  /** renders the items; call close() after an action */
  children: (close: () => void) => ReactNode;
  align?: 'left' | 'right';
}

export function Menu({ label, testId, children, align = 'left' }: MenuProps) {
  const [open, setOpen] = useState(false);
  const id = useId();
  const root = useRef<HTMLDivElement>(null);
  const button = useRef<HTMLButtonElement>(null);
  useEffect(() => {
    if (!open) return;
    const onDown = (e: PointerEvent) => {
      if (root.current && !root.current.contains(e.target as Node)) setOpen(false);
    };
    const onKey = (e: KeyboardEvent) => {
      if (e.key === 'Escape') {
        setOpen(false);
        button.current?.focus();
      }
    };
    document.addEventListener('pointerdown', onDown);
    document.addEventListener('keydown', onKey);
    return () => {
      document.removeEventListener('pointerdown', onDown);
      document.removeEventListener('keydown', onKey);
    };
  }, [open]);
  const close = () => {
    setOpen(false);
    button.current?.focus();
  };
  return (
    <div className="menu" ref={root}>
      <button
        ref={button}
        type="button"
        aria-expanded={open}
        aria-controls={id}
        onClick={() => setOpen((o) => !o)}
        data-testid={testId}
      >
        {label}
        <span aria-hidden="true"> ▾</span>
      </button>
      {open && (
        <div id={id} className={`menu-popup menu-${align}`} role="group" aria-label={label}>
          {children(close)}
        </div>
      )}
    </div>
  );
}
