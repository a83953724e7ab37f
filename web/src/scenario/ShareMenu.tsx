// "Share": copy a link to this exact moment, save or open a scenario file.
import { useEffect, useRef, useState } from 'react';
import { Menu } from '../ui/Menu';
import { download, fileStem } from '../ui/download';
import { describeScenario } from './model';
import { encodeHash, stateFromFile, stateToFile, type ShareState } from './share';

export interface ShareMenuProps {
  /** the state to share now (null while nothing is loaded) */
  current: () => ShareState | null;
  /** a tour's title by its id (the embed's title names it, not its id) */
  tourTitle?: (id: string) => string | undefined;
  onOpen: (state: ShareState, missingTrace?: string) => void;
  onError: (message: string) => void;
}

/** Put the state in the address bar (no navigation, no hashchange) and return the URL. */
export function linkFor(state: ShareState): string {
  const hash = `#${encodeHash(state)}`;
  history.replaceState(null, '', hash);
  return location.href;
}

/**
 * An <iframe> snippet for a course page: this moment with `?embed=1` (only the chip, the
 * narration and the controls, sized to the frame; web/src/app/tools.css).
 */
export function embedCode(
  state: ShareState,
  href = location.href,
  tourTitle?: (id: string) => string | undefined,
): string {
  const u = new URL(href);
  u.search = '?embed=1';
  u.hash = encodeHash(state);
  // Names a reader knows (issue 25), not ids: "FAST · classroom 16×4 · ..., tour “Switch, ...”".
  const tour = state.view.tour ? (tourTitle?.(state.view.tour.id) ?? state.view.tour.id) : null;
  const title = `ftlscope: ${describeScenario(state.scenario)}${tour ? `, tour “${tour}”` : ''}`;
  const esc = (s: string) => s.replace(/&/g, '&amp;').replace(/"/g, '&quot;');
  return `<iframe src="${esc(u.href)}" width="960" height="600" title="${esc(title)}" style="border: 1px solid #ccc; max-width: 100%" loading="lazy"></iframe>`;
}

export function ShareMenu({ current, onOpen, onError, tourTitle }: ShareMenuProps) {
  const [link, setLink] = useState<string | null>(null);
  const [status, setStatus] = useState('');
  const file = useRef<HTMLInputElement>(null);
  const popup = useRef<HTMLDivElement>(null);

  // The link box closes on Escape or a click elsewhere.
  useEffect(() => {
    if (!link) return;
    const onDown = (e: PointerEvent) => {
      const t = e.target as HTMLElement;
      if (!popup.current?.contains(t) && !t.closest?.('[data-testid=copy-link]')) setLink(null);
    };
    const onKey = (e: KeyboardEvent) => {
      if (e.key === 'Escape') setLink(null);
    };
    document.addEventListener('pointerdown', onDown);
    document.addEventListener('keydown', onKey);
    return () => {
      document.removeEventListener('pointerdown', onDown);
      document.removeEventListener('keydown', onKey);
    };
  }, [link]);

  const copy = async () => {
    const state = current();
    if (!state) return;
    const url = linkFor(state);
    setLink(url);
    try {
      await navigator.clipboard.writeText(url);
      setStatus('Link copied to the clipboard.');
    } catch {
      setStatus('Copy the link below (the clipboard is not available here).');
    }
  };

  return (
    <>
      <button
        type="button"
        onClick={() => void copy()}
        data-testid="copy-link"
        title="Copy a link to this exact moment: scenario, step and view"
      >
        Copy link
      </button>
      <Menu label="Scenario file" testId="file-menu">
        {(close) => (
          <>
            <button
              type="button"
              data-testid="save-scenario"
              onClick={() => {
                const state = current();
                if (state)
                  download(
                    `${fileStem('ftlscope', state.scenario.scheme, state.scenario.chip.preset, `step${state.at.step}`)}.json`,
                    stateToFile(state),
                    'application/json',
                  );
                close();
              }}
            >
              Save scenario (JSON)
            </button>
            <button type="button" data-testid="open-scenario" onClick={() => file.current?.click()}>
              Open scenario file…
            </button>
            <button
              type="button"
              data-testid="copy-embed"
              onClick={() => {
                const state = current();
                close();
                if (!state) return;
                const code = embedCode(state, location.href, tourTitle);
                setLink(code);
                navigator.clipboard.writeText(code).then(
                  () => setStatus('Embed code copied: paste it into your course page.'),
                  () => setStatus('Copy this embed code into your course page:'),
                );
              }}
            >
              Copy embed code
            </button>
          </>
        )}
      </Menu>
      <input
        ref={file}
        type="file"
        accept=".json,application/json"
        hidden
        data-testid="open-scenario-input"
        onChange={async (e) => {
          const f = e.target.files?.[0];
          e.target.value = '';
          if (!f) return;
          try {
            const { state, missingTrace } = stateFromFile(await f.text());
            onOpen(state, missingTrace);
          } catch (err) {
            onError(`Could not open “${f.name}”: ${(err as Error).message}`);
          }
        }}
      />
      {link && (
        <div className="share-popup" role="status" ref={popup}>
          <label>
            <span>{status}</span>
            <input readOnly value={link} data-testid="share-url" onFocus={(e) => e.currentTarget.select()} />
          </label>
          <button type="button" onClick={() => setLink(null)} aria-label="Close the link box">
            Close
          </button>
        </div>
      )}
    </>
  );
}
