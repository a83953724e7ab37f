// "Tours": the guided tours this core can run (a tour whose scheme is missing is not listed).
import { Menu } from '../ui/Menu';
import type { Tour } from './tours';

export function TourMenu({
  tours,
  current,
  onStart,
}: {
  tours: Tour[];
  current?: string;
  onStart: (id: string) => void;
}) {
  return (
    <Menu label="Tours" testId="tour-menu">
      {(close) =>
        tours.length === 0 ? (
          <p className="muted">Loading the tours…</p>
        ) : (
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
        )
      }
    </Menu>
  );
}
