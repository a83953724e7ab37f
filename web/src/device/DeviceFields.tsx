// The scenario form's device fields (issue 40): channels x dies per channel and the
// stripe unit. One die (the default) is the app's own one-chip view; several open the
// device view on Apply. Page striping of a scheme that maps logical blocks is refused by
// the core when the device opens, with its message.
import { useId } from 'react';
import type { DeviceShape } from '../sim/deviceTypes';

export const ONE_DIE: DeviceShape = { channels: 1, diesPerChannel: 1, stripe: 'page' };

const CHANNELS = [1, 2, 4, 8];
const DIES = [1, 2, 4];

export function DeviceFields({ value, onChange }: { value: DeviceShape; onChange: (s: DeviceShape) => void }) {
  const ids = { ch: useId(), dies: useId(), stripe: useId() };
  const dies = value.channels * value.diesPerChannel;
  return (
    <fieldset className="device-fields" data-testid="device-fields">
      <legend>Device (SSD)</legend>
      <div className="field">
        <label htmlFor={ids.ch}>Channels</label>
        <select
          id={ids.ch}
          data-testid="device-channels"
          value={value.channels}
          onChange={(e) => onChange({ ...value, channels: Number(e.target.value) })}
        >
          {CHANNELS.map((c) => (
            <option key={c} value={c}>
              {c}
            </option>
          ))}
        </select>
      </div>
      <div className="field">
        <label htmlFor={ids.dies}>Dies per channel</label>
        <select
          id={ids.dies}
          data-testid="device-dies"
          value={value.diesPerChannel}
          onChange={(e) => onChange({ ...value, diesPerChannel: Number(e.target.value) })}
        >
          {DIES.map((c) => (
            <option key={c} value={c}>
              {c}
            </option>
          ))}
        </select>
      </div>
      <div className="field">
        <label htmlFor={ids.stripe}>Stripe unit</label>
        <select
          id={ids.stripe}
          data-testid="device-stripe"
          value={value.stripe}
          onChange={(e) => onChange({ ...value, stripe: e.target.value === 'block' ? 'block' : 'page' })}
        >
          <option value="page">page</option>
          <option value="block">block</option>
        </select>
      </div>
      <p className="hint">
        {dies === 1
          ? 'One die: the chip view.'
          : `${dies} dies, each a chip with its own scheme over a ${value.stripe}-striped share of the logical space: Apply opens the device view.`}
      </p>
    </fieldset>
  );
}
