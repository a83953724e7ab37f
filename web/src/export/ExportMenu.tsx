// "Export": the metrics as CSV / JSON, the device view as PNG / SVG.
import { Menu } from '../app/Menu';
import type { Scenario } from '../scenario/model';
import type { Metrics } from '../sim/protocol';
import { download, fileStem, metricsCsv, pageBackground, svgToPng, svgToString } from './export';

export function ExportMenu({ metrics, scenario, step }: { metrics?: Metrics; scenario?: Scenario; step: number }) {
  const stem = fileStem('ftlscope', scenario?.scheme, scenario?.chip.preset, `step${step}`);
  const grid = () => document.querySelector<SVGSVGElement>('[data-testid=device-grid]');
  // Charts on screen: any SVG marked data-chart="<name>" (the compare chart, the viz charts).
  const charts = () =>
    Array.from(document.querySelectorAll<SVGSVGElement>('svg[data-chart]')).filter((c) => c.getBoundingClientRect().width > 0);
  return (
    <Menu label="Export" testId="export-menu" align="right">
      {(close) => (
        <>
          <button
            type="button"
            data-testid="export-metrics-csv"
            disabled={!metrics}
            onClick={() => {
              if (metrics) download(`${stem}-metrics.csv`, metricsCsv([{ name: scenario?.scheme ?? 'value', metrics }]), 'text/csv');
              close();
            }}
          >
            Metrics (CSV)
          </button>
          <button
            type="button"
            data-testid="export-metrics-json"
            disabled={!metrics}
            onClick={() => {
              if (metrics) download(`${stem}-metrics.json`, JSON.stringify({ scenario, step, metrics }, null, 2) + '\n', 'application/json');
              close();
            }}
          >
            Metrics (JSON)
          </button>
          <button
            type="button"
            data-testid="export-grid-png"
            onClick={async () => {
              const svg = grid();
              close();
              if (svg) download(`${stem}-device.png`, await svgToPng(svg, pageBackground()));
            }}
          >
            Device view (PNG)
          </button>
          <button
            type="button"
            data-testid="export-grid-svg"
            onClick={() => {
              const svg = grid();
              if (svg) download(`${stem}-device.svg`, svgToString(svg, pageBackground()), 'image/svg+xml');
              close();
            }}
          >
            Device view (SVG)
          </button>
          {charts().map((c, i) => {
            const name = c.dataset.chart || `chart-${i + 1}`;
            return (
              <span key={`${name}-${i}`} className="menu-pair">
                <button
                  type="button"
                  data-testid={`export-chart-svg-${i}`}
                  onClick={() => {
                    download(`${stem}-${fileStem(name)}.svg`, svgToString(c, pageBackground()), 'image/svg+xml');
                    close();
                  }}
                >
                  Chart “{name}” (SVG)
                </button>
                <button
                  type="button"
                  data-testid={`export-chart-png-${i}`}
                  onClick={async () => {
                    close();
                    download(`${stem}-${fileStem(name)}.png`, await svgToPng(c, pageBackground()));
                  }}
                >
                  (PNG)
                </button>
              </span>
            );
          })}
        </>
      )}
    </Menu>
  );
}
