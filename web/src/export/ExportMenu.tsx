// "Export": the metrics as CSV / JSON, the device view as PNG / SVG.
import { useState } from 'react';
import { Menu } from '../ui/Menu';
import type { Scenario } from '../scenario/model';
import type { Metrics, SessionInfo } from '../sim/protocol';
import { canvasToPng, canvasToSvg, metricsCsv, pageBackground, svgToPng, svgToString } from './export';
import { download, fileStem } from '../ui/download';
import { resolvedConfig } from './config';

export function ExportMenu({
  metrics,
  scenario,
  step,
  info,
}: {
  metrics?: Metrics;
  scenario?: Scenario;
  step: number;
  info?: SessionInfo;
}) {
  const stem = fileStem('ftlscope', scenario?.scheme, scenario?.chip.preset, `step${step}`);
  const grid = () => document.querySelector<SVGSVGElement>('[data-testid=device-grid]');
  // Large chips are drawn on a canvas (viz/CanvasGrid): exported as what it shows.
  const canvas = () => document.querySelector<HTMLCanvasElement>('[data-testid=device-canvas]');
  const config = () => (scenario ? resolvedConfig({ scenario, info }) : undefined);
  const title = () =>
    `ftlscope · ${scenario?.scheme ?? ''} · ${info ? `${info.chip.blocks} × ${info.chip.pages_per_block}` : ''} · request ${step}`;
  const [gridNote, setGridNote] = useState('');
  // Charts on screen: any SVG marked data-chart="<name>" (the compare chart, the viz charts).
  const charts = () =>
    Array.from(document.querySelectorAll<SVGSVGElement>('svg[data-chart]')).filter(
      (c) => c.getBoundingClientRect().width > 0,
    );
  return (
    <Menu label="Export" testId="export-menu" align="right">
      {(close) => (
        <>
          <button
            type="button"
            data-testid="export-metrics-csv"
            disabled={!metrics}
            onClick={() => {
              if (metrics)
                download(
                  `${stem}-metrics.csv`,
                  metricsCsv([
                    { name: scenario?.scheme ?? 'value', metrics: { ...metrics, step, configuration: config() } },
                  ]),
                  'text/csv',
                );
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
              if (metrics)
                download(
                  `${stem}-metrics.json`,
                  JSON.stringify({ configuration: config(), scenario, step, metrics }, null, 2) + '\n',
                  'application/json',
                );
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
              const cv = canvas();
              close();
              if (svg) download(`${stem}-device.png`, await svgToPng(svg, pageBackground()));
              else if (cv) download(`${stem}-device.png`, await canvasToPng(cv));
              else setGridNote('Open the chip view to export the device view.');
            }}
          >
            Device view (PNG)
          </button>
          <button
            type="button"
            data-testid="export-grid-svg"
            onClick={() => {
              const svg = grid();
              const cv = canvas();
              if (svg) download(`${stem}-device.svg`, svgToString(svg, pageBackground()), 'image/svg+xml');
              else if (cv) download(`${stem}-device.svg`, canvasToSvg(cv, title(), pageBackground()), 'image/svg+xml');
              else setGridNote('Open the chip view to export the device view.');
              close();
            }}
          >
            Device view (SVG)
          </button>
          {canvas() && !grid() && (
            <p className="muted menu-note" data-testid="export-canvas-note">
              This chip is drawn on a canvas: the device view is exported as the picture shown (the SVG holds that
              picture).
            </p>
          )}
          {gridNote && (
            <p role="alert" className="menu-note">
              {gridNote}
            </p>
          )}
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
