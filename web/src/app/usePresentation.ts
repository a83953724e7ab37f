// Presentation mode: large type, full screen, editing hidden; Escape (or leaving full
// screen) ends it. Also the presenter's text size and side panel.
import { useCallback, useEffect, useRef, useState } from 'react';
import { DEFAULT_PRESENT_SCALE } from '../classroom/PresentTools';

export function usePresentation() {
  const [present, setPresent] = useState(false);
  const [scale, setScale] = useState(DEFAULT_PRESENT_SCALE);
  const [sideOpen, setSideOpen] = useState(false);

  const presentRef = useRef(present);
  presentRef.current = present;
  const toggle = useCallback(() => {
    const next = !presentRef.current;
    setPresent(next);
    try {
      if (next && document.fullscreenEnabled && !document.fullscreenElement)
        void document.documentElement.requestFullscreen().catch(() => undefined);
      if (!next && document.fullscreenElement) void document.exitFullscreen().catch(() => undefined);
    } catch {
      // full screen is optional
    }
  }, []);

  useEffect(() => {
    if (!present) return;
    const onKey = (e: KeyboardEvent) => {
      if (e.key !== 'Escape' || e.defaultPrevented) return;
      if (document.fullscreenElement) void document.exitFullscreen().catch(() => undefined);
      setPresent(false);
    };
    const onFs = () => {
      if (!document.fullscreenElement) setPresent(false);
    };
    window.addEventListener('keydown', onKey);
    document.addEventListener('fullscreenchange', onFs);
    return () => {
      window.removeEventListener('keydown', onKey);
      document.removeEventListener('fullscreenchange', onFs);
    };
  }, [present]);

  return { present, setPresent, toggle, scale, setScale, sideOpen, setSideOpen };
}

export type Presentation = ReturnType<typeof usePresentation>;
