// Every problem the checks found (tourFile.ts, tourCheck.ts, draft.ts), each a button that
// goes to the stop it is about.
import type { TourProblem } from '../tourFile';
import { problemLine, problemStop } from './draft';

export function EditorProblems({ problems, onStop }: { problems: TourProblem[]; onStop: (i: number) => void }) {
  if (problems.length === 0) return null;
  return (
    <div className="ted-problems" role="alert" data-testid="ted-problems">
      <strong>
        Fix {problems.length === 1 ? 'this' : `these ${problems.length} problems`} before the tour can be tried or
        saved:
      </strong>
      <ul>
        {problems.map((p, i) => {
          const stop = problemStop(p);
          return (
            <li key={i}>
              {stop === undefined ? (
                problemLine(p)
              ) : (
                <button type="button" className="link" onClick={() => onStop(stop)}>
                  {problemLine(p)}
                </button>
              )}
            </li>
          );
        })}
      </ul>
    </div>
  );
}
