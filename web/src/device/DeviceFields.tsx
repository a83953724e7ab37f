// The scenario form's device fields (issue 40): channels x dies per channel and the
// stripe unit. One die (the default) is the app's own one-chip view; several open the
// device view on Apply. Page striping of a scheme that maps logical blocks is caught here,
// up front (stripeProblem, from the core's device_stripe_for), with why.
import { useId } from 'react';
import type { DeviceShape } from '../sim/deviceTypes';
import { peekPageCore } from '../sim/pageCore';
import { schemeSpec } from '../scenario/model';
import { NumberSelect } from './NumberSelect';

export const ONE_DIE: DeviceShape = { channels: 1, diesPerChannel: 1, stripe: 'page' };

const CHANNELS = [1, 2, 4, 8];
const DIES = [1, 2, 4];

/**
 * Why `shape` cannot run `scheme`, or null: a scheme that maps logical blocks (block or
 * log-block mapping) keeps each logical block whole on one die, so it needs block striping.
 * Null until the core is loaded on the page (the device view refuses it then too).
 */
export function stripeProblem(scheme: string, shape: DeviceShape): string | null {
  if (shape.channels * shape.diesPerChannel < 2 || shape.stripe === 'block') return null;
  const core = peekPageCore();
  if (!core || core.device_stripe_for(scheme) !== 'block') return null;
  const name = schemeSpec(scheme)?.label ?? scheme;
  return `${name} maps logical blocks: each logical block's pages must stay together on one die (its block map, log blocks and merges work on whole blocks), so page striping would scatter them over the dies. Choose block striping: logical block 0 on die 0, block 1 on die 1, and so on.`;
}

export function DeviceFields({
  value,
  onChange,
  scheme,
}: {
  value: DeviceShape;
  onChange: (s: DeviceShape) => void;
  /** the form's scheme, to check the stripe up front */
  scheme?: string;
}) {
  const stripeId = useId();
  const problemId = useId();
  const dies = value.channels * value.diesPerChannel;
  const problem = scheme ? stripeProblem(scheme, value) : null;
  return (
    <fieldset className="device-fields" data-testid="device-fields">
      <legend>Device (SSD)</legend>
      <div className="field">
        <NumberSelect
          label="Channels"
          value={value.channels}
          options={CHANNELS}
          onChange={(channels) => onChange({ ...value, channels })}
          testid="device-channels"
        />
      </div>
      <div className="field">
        <NumberSelect
          label="Dies per channel"
          value={value.diesPerChannel}
          options={DIES}
          onChange={(diesPerChannel) => onChange({ ...value, diesPerChannel })}
          testid="device-dies"
        />
      </div>
      <div className="field">
        <label htmlFor={stripeId}>Stripe unit</label>
        <select
          id={stripeId}
          data-testid="device-stripe"
          value={value.stripe}
          aria-invalid={problem ? true : undefined}
          aria-describedby={problem ? problemId : undefined}
          onChange={(e) => onChange({ ...value, stripe: e.target.value === 'block' ? 'block' : 'page' })}
        >
          <option value="page">page</option>
          <option value="block">block</option>
        </select>
      </div>
      {problem ? (
        <p className="form-errors" id={problemId} role="alert" data-testid="device-stripe-problem">
          {problem}{' '}
          <button type="button" onClick={() => onChange({ ...value, stripe: 'block' })}>
            Use block striping
          </button>
        </p>
      ) : (
        <p className="hint">
          {dies === 1
            ? 'One die: the chip view.'
            : `${dies} dies, each a chip with its own scheme over a ${value.stripe}-striped share of the logical space: Apply opens the device view.`}
        </p>
      )}
    </fieldset>
  );
}
