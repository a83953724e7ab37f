// The compare screen: the side-by-side runs (CompareView) with the sweep below them
// (SweepPanel), and device shapes of one scheme (DeviceCompare). Composed here so CompareView and SweepPanel do not import each other.
import { CompareView, type CompareViewProps } from './CompareView';
import { SweepPanel } from './SweepPanel';
import { DeviceCompare } from './DeviceCompare';

export function CompareScreen(props: Omit<CompareViewProps, 'sweep'>) {
  return (
    <CompareView
      {...props}
      sweep={(base, busy) => (
        <>
          <DeviceCompare
            base={base}
            spec={props.spec.devices}
            onSpec={(devices) => props.onSpec({ ...props.spec, devices })}
            disabled={busy}
          />
          <SweepPanel client={props.client} base={base} disabled={busy} theme={props.theme} />
        </>
      )}
    />
  );
}
