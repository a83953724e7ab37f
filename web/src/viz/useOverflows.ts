import { useEffect, useRef, useState } from 'react';

/**
 * Whether a fixed-size box's content is taller than the box (it then scrolls, and should
 * be reachable with the keyboard: tabIndex 0). Checked when `content` changes and on resize.
 */
export function useOverflows<T extends HTMLElement>(content: unknown) {
  const ref = useRef<T>(null);
  const [overflows, setOverflows] = useState(false);
  useEffect(() => {
    const el = ref.current;
    if (!el) return;
    const update = () => setOverflows(el.scrollHeight > el.clientHeight + 1);
    update();
    const ro = new ResizeObserver(update);
    ro.observe(el);
    return () => ro.disconnect();
  }, [content]);
  return [ref, overflows] as const;
}
