// "Tours": the guided tours this core can run (a tour whose scheme is missing is not listed),
// and a teacher's own tour file to open (picker here, or dropped anywhere: useTourOpen).
import { useRef } from 'react';
import { Menu } from '../ui/Menu';
import type { Tour } from './tours';
import { useTourOpen } from './useTourOpen';
import { requestEditor } from './editor/editorStore';
import './tour.css';

export function TourMenu({
  tours,
  current,
  onStart,
}: {
  tours: Tour[];
  current?: string;
  onStart: (id: string) => void;
}) {
  const { open, error, dismiss } = useTourOpen(onStart);
  const input = useRef<HTMLInputElement>(null);
  return (
    <>
      <Menu label="Tours" testId="tour-menu">
        {(close) =>
          tours.length === 0 ? (
            <p className="muted">Loading the tours…</p>
          ) : (
            <div className="tour-menu-body">
              <ul className="tour-list">
                {tours.map((t) => (
                  <li key={t.id}>
                    <button
                      type="button"
                      data-testid={`tour-${t.id}`}
                      aria-current={t.id === current ? 'true' : undefined}
                      onClick={() => {
                        close();
                        onStart(t.id);
                      }}
                    >
                      <strong>{t.title}</strong>
                      <span className="muted">{t.summary}</span>
                    </button>
                  </li>
                ))}
              </ul>
              <p className="tour-open">
                <button
                  type="button"
                  data-testid="tour-new"
                  title="Write your own tour on the scenario the chip runs now"
                  onClick={() => {
                    close();
                    requestEditor({ kind: 'new' });
                  }}
                >
                  New tour…
                </button>{' '}
                <button
                  type="button"
                  data-testid="tour-open-file"
                  onClick={() => {
                    close();
                    input.current?.click();
                  }}
                >
                  Open tour file…
                </button>{' '}
                <span className="muted">or drop a .tour.json file on the page</span>
              </p>
            </div>
          )
        }
      </Menu>
      <input
        ref={input}
        type="file"
        accept=".json,application/json"
        hidden
        data-testid="tour-file-input"
        onChange={(e) => {
          const f = e.target.files?.[0];
          e.target.value = '';
          if (f) void open(f);
        }}
      />
      {error && (
        <div className="tour-open-error error-banner" role="alert" data-testid="tour-open-error">
          <span>{error}</span>
          <button type="button" onClick={dismiss}>
            Dismiss
          </button>
        </div>
      )}
    </>
  );
}
