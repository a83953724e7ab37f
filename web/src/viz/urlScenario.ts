// `?scenario=<JSON>` opens that exact scenario (as the Session takes it), so links, demos
// and end-to-end tests can reach any scheme and chip; `&at=<request>` opens at a request.
import type { Scenario } from '../scenario/model';

export function scenarioFromUrl(
  search = typeof location !== 'undefined' ? location.search : '',
): { scenario: Scenario; at: number } | null {
  const q = new URLSearchParams(search);
  const raw = q.get('scenario');
  if (!raw) return null;
  try {
    const s = JSON.parse(raw) as Scenario;
    if (!s || typeof s !== 'object' || typeof s.scheme !== 'string' || !s.chip || !s.workload) return null;
    const at = Number(q.get('at') ?? 0);
    return { scenario: { ...s, params: s.params ?? {} }, at: Number.isFinite(at) && at > 0 ? Math.floor(at) : 0 };
  } catch {
    return null;
  }
}

/**
 * The query string once the app's state is in the hash: `scenario` and `at` dropped (the
 * hash says more, and a stale `&at=18` beside `#v1=` would contradict it), the rest kept
 * (`embed=1`). Returns '' or '?…'.
 */
export function withoutScenarioQuery(search: string): string {
  const q = new URLSearchParams(search);
  if (!q.has('scenario') && !q.has('at')) return search;
  q.delete('scenario');
  q.delete('at');
  const rest = q.toString();
  return rest ? `?${rest}` : '';
}
