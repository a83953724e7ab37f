// The address bar and the app's state: open what the hash says (a shared state, a tour,
// or the default) once the worker and the core's catalog are there and on every
// hashchange; keep the hash following the state so a reload opens exactly here.
import {
  useCallback,
  useEffect,
  useEffectEvent,
  useLayoutEffect,
  useRef,
  type Dispatch,
  type SetStateAction,
} from 'react';
import type { LinkNoticeState } from '../scenario/LinkNotices';
import { DEFAULT_PRESET } from '../scenario/presets';
import { decodeHash, encodeHash, type CompareSpec, type ShareState } from '../scenario/share';
import type { DeviceShape } from '../sim/deviceTypes';
import { addOwnTour, tourById } from '../tour/tours';
import { problemsMessage, tourFromHash } from '../tour/tourShare';
import { closeModalsForNavigation } from '../trace/modal';
import { scenarioFromUrl, withoutScenarioQuery } from '../viz/urlScenario';
import { EMBED } from './embed';
import type { Theme } from './theme';
import type { Presentation } from './usePresentation';
import { SPEEDS, type Sim } from './useSimulation';
import type { TourPlayer } from './useTourPlayer';

/**
 * Address-bar writes allowed in any HASH_WINDOW_MS: Chromium throttles a page that
 * rewrites its URL 200 times in 10 s, so bursts are written at once up to half that and
 * only a long held key waits.
 */
export const HASH_BURST = 100;
/** The banner after a link opened while the upload dialog was open closed the dialog. */
export const NAVIGATION_CLOSED_DIALOG =
  'The upload dialog was closed to open the address you went to. Choose the file again to upload it.';
export const HASH_WINDOW_MS = 10_000;
/** While playing, the address bar trails the moment by this much (it moves too fast to copy). */
export const HASH_PLAYING_MS = 500;

/** The key of a moment (`step:op`), as the document's `data-hash-moment` holds it. */
export function momentKey(at: { step: number; op: number }): string {
  return `${at.step}:${at.op}`;
}

/**
 * How long to wait before writing the address bar at `now`, given the times of the
 * writes so far (oldest first; those older than the window are dropped from it).
 */
export function hashWriteDelay(writes: number[], now: number, playing: boolean): number {
  while (writes.length > 0 && writes[0] <= now - HASH_WINDOW_MS) writes.shift();
  if (playing) return HASH_PLAYING_MS;
  return writes.length < HASH_BURST ? 0 : writes[0] + HASH_WINDOW_MS - now;
}

/**
 * After a navigation closed the upload dialog, focus goes to what the link opened: the
 * tour's stop (its narration) or the view shown (compare, the device, the chip), not to the
 * upload button the dialog hands it back to (a keyboard user would start from the header).
 * Two frames on, so the opened view is drawn; not if the user has since focused elsewhere.
 */
export function focusOpened(): void {
  requestAnimationFrame(() =>
    requestAnimationFrame(() => {
      const at = document.activeElement;
      if (at && at !== document.body && !at.closest('.trace-upload')) return;
      const shown = (el: Element | null): el is HTMLElement =>
        el instanceof HTMLElement && el.getClientRects().length > 0;
      const target = [document.querySelector('[data-testid=tour-body]'), ...document.querySelectorAll('main')].find(
        shown,
      );
      target?.focus();
    }),
  );
}

export interface HashRouteDeps {
  sim: Sim;
  /** the worker and the core's catalog are there (or the catalog failed: open anyway) */
  ready: boolean;
  tour: TourPlayer;
  presentation: Presentation;
  theme: Theme;
  toggleTheme: () => void;
  compare: CompareSpec | null;
  setCompare: Dispatch<SetStateAction<CompareSpec | null>>;
  /** the device view's shape while it is open (issue 40), and opening / closing it */
  device?: DeviceShape | null;
  setDevice?: (d: DeviceShape | null) => void;
  notices: LinkNoticeState;
  setNotices: Dispatch<SetStateAction<LinkNoticeState>>;
  /** a first visit (no link, not embedded): show the welcome */
  onFirstVisit: () => void;
}

export function useHashRoute({
  sim,
  ready,
  tour,
  presentation,
  theme,
  toggleTheme,
  compare,
  setCompare,
  device,
  setDevice,
  notices,
  setNotices,
  onFirstVisit,
}: HashRouteDeps) {
  const { load, setSpeed } = sim;
  const { loaded, speed, playing } = sim.state;
  const { tourAt, setTourAt, start: startTour } = tour;
  const { present, setPresent } = presentation;
  const latest = useRef({ loaded, theme, speedId: speed.id });
  latest.current = { loaded, theme, speedId: speed.id };

  const applyView = useCallback(
    (state: ShareState) => {
      if (state.view.theme && state.view.theme !== latest.current.theme) toggleTheme();
      const t = state.view.tour && tourById(state.view.tour.id);
      setTourAt(t ? { id: t.id, index: Math.min(state.view.tour!.index, t.stops.length - 1) } : null);
      setPresent(!!state.view.present);
      setCompare(state.compare ?? null);
      setDevice?.(state.device ?? null);
      if (state.view.speed && SPEEDS.some((x) => x.id === state.view.speed)) setSpeed(state.view.speed);
    },
    [toggleTheme, setTourAt, setPresent, setCompare, setDevice, setSpeed],
  );

  /** Open what the address bar's hash says: a shared state, a tour, or the default. */
  const openFromHash = useCallback(
    async (hash: string) => {
      const fromUrl = scenarioFromUrl();
      if (fromUrl && !hash) {
        setNotices({});
        if (await load(fromUrl.scenario, 0, { step: fromUrl.at, op: 0 })) return;
      }
      // A whole tour in the link (#tourfile=...): checked, then started like a built-in one.
      const linked = tourFromHash(hash);
      if (linked?.tour) {
        setNotices({});
        addOwnTour(linked.tour);
        if (await startTour(linked.tour.id)) return;
      } else if (linked) {
        setNotices({
          error: `${problemsMessage('The tour in this link', linked.problems)}. Showing the default scenario instead.`,
        });
      }
      const d: ReturnType<typeof decodeHash> = linked ? { kind: 'none' } : decodeHash(hash);
      if (d.kind === 'tour') {
        setNotices({});
        if (await startTour(d.id)) return;
      } else if (d.kind === 'state') {
        setNotices({ notice: d.notice });
        if (d.missingTrace) {
          // The trace is not in the link: show the default and offer to keep the rest.
          setNotices({ missingTrace: { name: d.missingTrace, state: d.state } });
        } else {
          applyView(d.state);
          if (await load(d.state.scenario, 0, d.state.at)) return;
          setNotices({
            error:
              'The scenario in this link could not be started (see the message above); showing the default scenario instead.',
          });
        }
      } else if (d.kind === 'error') {
        setNotices({ error: `${d.message} Showing the default scenario instead.` });
      }
      setTourAt(null);
      // A first visit (no link): the short default at request 0, with the welcome.
      if (!hash && !fromUrl && !EMBED) onFirstVisit();
      await load(DEFAULT_PRESET.scenario, DEFAULT_PRESET.openAt);
    },
    [applyView, startTour, load, setNotices, setTourAt, onFirstVisit],
  );

  // Open on the link's state, or the default scenario part-way through, once (when ready).
  const openInitial = useEffectEvent(() => void openFromHash(location.hash));
  useEffect(() => {
    if (ready) openInitial();
  }, [ready]);
  // A hash changed before the app is ready is opened by openInitial, which reads the address
  // bar then. Opened here as well, it would start a load before the catalog is there (no
  // such tour, the default instead) whose address write could land first and replace the
  // hash openInitial was to read (issue 35: the startup overwrote a hash changed during it).
  const isReady = useRef(ready);
  isReady.current = ready;
  useEffect(() => {
    // The hash navigated to, from the event: the address bar may since have been rewritten
    // for the moment still drawn (useLayoutEffect below) before this handler ran.
    const onHash = (e: HashChangeEvent) => {
      if (!isReady.current) return;
      // A navigation closes the upload dialog: what the link opens would load behind it, unseen
      // (docs/links-tours-compare.md). The banner says why the dialog went.
      const closed = closeModalsForNavigation() > 0;
      void openFromHash(new URL(e.newURL).hash).then(() => {
        if (!closed) return;
        setNotices((n) => (n.error || n.missingTrace ? n : { notice: NAVIGATION_CLOSED_DIALOG }));
        focusOpened();
      });
    };
    window.addEventListener('hashchange', onHash);
    // for tests: the app now hears hash changes (a startup race test changes it then)
    document.documentElement.dataset.hashListening = 'true';
    return () => window.removeEventListener('hashchange', onHash);
  }, [openFromHash, setNotices]);

  const shareState = useCallback((): ShareState | null => {
    const cur = latest.current.loaded;
    if (!cur) return null;
    const state: ShareState = {
      scenario: cur.scenario,
      at: { step: cur.snapshot.step, op: cur.snapshot.opCursor },
      view: {
        theme: latest.current.theme,
        speed: latest.current.speedId,
        ...(tourAt ? { tour: tourAt } : {}),
        ...(present ? { present: true } : {}),
      },
    };
    if (compare) state.compare = compare;
    if (device) state.device = device;
    return state;
  }, [tourAt, present, compare, device]);

  // The address bar follows the moment drawn: written in the commit that draws it (a
  // layout effect, so no script ever sees the new moment with the old address; and
  // replaceState fires no hashchange), at most HASH_BURST times in HASH_WINDOW_MS;
  // while playing, once it pauses.
  // Not while a link's trace is missing: the link must survive until the user decides.
  const snapStep = loaded?.snapshot.step;
  const snapOp = loaded?.snapshot.opCursor;
  const missingTrace = !!notices.missingTrace;
  const writes = useRef<number[]>([]);
  useLayoutEffect(() => {
    if (!loaded || missingTrace) return;
    const write = () => {
      const state = shareState();
      if (!state) return;
      const hash = `#${encodeHash(state)}`;
      // Once the state is in the hash, a `?scenario=…&at=…` it was opened from is stale.
      const search = withoutScenarioQuery(location.search);
      if (location.hash !== hash || search !== location.search) {
        history.replaceState(null, '', `${location.pathname}${search}${hash}`);
        writes.current.push(performance.now());
      }
      // The moment the address bar holds, on the document for tests (no render).
      document.documentElement.dataset.hashMoment = momentKey(state.at);
    };
    const wait = hashWriteDelay(writes.current, performance.now(), playing);
    if (wait === 0) {
      write();
      return;
    }
    const timer = setTimeout(write, wait);
    return () => clearTimeout(timer);
  }, [loaded, snapStep, snapOp, theme, speed.id, shareState, missingTrace, playing]);

  /** Open a shared state (from the share menu's file or link). */
  const openState = useCallback(
    (state: ShareState, missing?: string) => {
      if (missing) {
        setNotices({ missingTrace: { name: missing, state } });
        return;
      }
      setNotices({});
      applyView(state);
      void load(state.scenario, 0, state.at);
    },
    [applyView, load, setNotices],
  );

  return { applyView, shareState, openState };
}
