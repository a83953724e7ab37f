// The pattern language's help: every construct, with an example (patternHelp.ts).
import { PATTERN_CONSTRUCTS } from './patternHelp';

export function PatternHelp() {
  return (
    <details className="pattern-help" data-testid="pattern-help">
      <summary>Pattern language: every construct</summary>
      <table>
        <thead>
          <tr>
            <th scope="col">Write</th>
            <th scope="col">Example</th>
            <th scope="col">Meaning</th>
          </tr>
        </thead>
        <tbody>
          {PATTERN_CONSTRUCTS.map((c) => (
            <tr key={c.syntax}>
              <td>
                <code>{c.syntax}</code>
              </td>
              <td>
                <code>{c.example}</code>
              </td>
              <td>{c.meaning}</td>
            </tr>
          ))}
        </tbody>
      </table>
      <p className="hint">
        Page numbers are logical pages (LPNs); the chip’s logical space is in the line under the title. Errors name the
        line and column.
      </p>
    </details>
  );
}
