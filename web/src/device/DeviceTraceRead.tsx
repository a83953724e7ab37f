// Reading an uploaded trace for the device view (issue 40): the device worker reads the
// file again through its own parser (the file never leaves the browser), chunk by chunk;
// this is its progress, then the planning, with Cancel (which closes the device view).
import type { DeviceReadProgress } from '../sim/deviceTypes';

export function DeviceTraceRead({
  name,
  progress,
  onCancel,
}: {
  name: string;
  progress: DeviceReadProgress | null;
  onCancel: () => void;
}) {
  const pct = progress ? Math.floor((100 * progress.bytes) / Math.max(1, progress.size)) : 0;
  const planning = progress !== null && progress.bytes >= progress.size;
  return (
    <div className="device-reading" role="status" data-testid="device-reading" data-percent={pct}>
      <span>
        {planning
          ? `Read ${name} (${progress.lines.toLocaleString('en-US')} lines): planning the device…`
          : `Reading the uploaded trace ${name} in the device worker (it never leaves the browser)…`}
      </span>
      <progress max={100} value={pct} aria-label={`Reading ${name}`} />
      <span>{pct} %</span>
      <button type="button" onClick={onCancel} data-testid="device-reading-cancel">
        Cancel
      </button>
    </div>
  );
}
