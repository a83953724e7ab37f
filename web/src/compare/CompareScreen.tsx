// The compare screen: the side-by-side runs (CompareView) with the sweep below them
// (SweepPanel). Composed here so CompareView and SweepPanel do not import each other.
import { CompareView, type CompareViewProps } from './CompareView';
import { SweepPanel } from './SweepPanel';

export function CompareScreen(props: Omit<CompareViewProps, 'sweep'>) {
  return (
    <CompareView
      {...props}
      sweep={(base, busy) => <SweepPanel client={props.client} base={base} disabled={busy} theme={props.theme} />}
    />
  );
}
