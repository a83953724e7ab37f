// The scheme, its parameters and the chip: one picker for the scenario form and the trace
// dialog, driven by the core's catalog (scenario/catalog.ts), so a new scheme, parameter
// or chip shows up in both without changes. `layout` arranges it: the form's two
// fieldsets, or the dialog's compact rows.
import { useId, type ReactNode } from 'react';
import { NumberField } from '../ui/NumberField';
import {
  CHIPS,
  SCHEMES,
  chipSpec,
  defaultParams,
  schemeSpec,
  type ChipConfig,
  type ChipPreset,
  type ParamSpec,
  type SchemeParams,
} from './model';

/** What the picker edits: a scenario's scheme, parameters and chip. */
export interface SchemeChipValue {
  scheme: string;
  params: SchemeParams;
  chip: ChipConfig;
}

export interface SchemeChipPickerProps {
  value: SchemeChipValue;
  /**
   * The next value. A new scheme comes with its default parameters; a new chip preset
   * with its geometry (`chipGeometry`); a size field emptied is NaN.
   */
  onChange: (next: SchemeChipValue, changed: 'scheme' | 'params' | 'chip') => void;
  /** 'form': fieldsets "FTL scheme" and "Chip"; 'rows': the scheme, chip and size in one row, the parameters below */
  layout: 'form' | 'rows';
  /** prefix of every field's test id ('trace-' in the dialog) */
  testIdPrefix?: string;
  /** the geometry a chosen preset brings: its own, or the smaller one the form suggests for stepping by hand */
  chipGeometry: 'preset' | 'suggested';
  /** an emptied parameter is dropped (the core's default) even when the scheme declares one */
  emptyMeansDefault?: boolean;
  minPagesPerBlock?: number;
  /** how a number field's label is drawn (the form links glossary terms) */
  label?: (text: string) => ReactNode;
  /** shown under the scheme (the form's fit note and the scheme's description) */
  schemeNotes?: ReactNode;
}

/** `params` with `p` set to `v`; an empty (NaN) optional parameter is left to the core. */
export function withParam(params: SchemeParams, p: ParamSpec, v: number, emptyMeansDefault = false): SchemeParams {
  const next: SchemeParams = { ...params, [p.key]: v };
  if (Number.isNaN(v) && (emptyMeansDefault || p.default === undefined)) delete next[p.key];
  return next;
}

export function SchemeChipPicker(props: SchemeChipPickerProps) {
  const { value, onChange, layout, chipGeometry, minPagesPerBlock = 1 } = props;
  const tid = (s: string) => `${props.testIdPrefix ?? ''}${s}`;
  const text = props.label ?? ((s: string) => s);
  const ids = { scheme: useId(), chip: useId() };
  const rows = layout === 'rows';
  const scheme = schemeSpec(value.scheme);
  const chip = chipSpec(value.chip.preset);

  const schemeSelect = (
    <div className="field">
      <label htmlFor={ids.scheme}>Scheme</label>
      <select
        id={ids.scheme}
        value={value.scheme}
        data-testid={tid('scheme')}
        onChange={(e) =>
          onChange({ ...value, scheme: e.target.value, params: defaultParams(e.target.value) }, 'scheme')
        }
      >
        {SCHEMES.map((s) => (
          <option key={s.id} value={s.id}>
            {s.label}
          </option>
        ))}
      </select>
    </div>
  );
  const chipSelect = (
    <div className="field">
      <label htmlFor={ids.chip}>{rows ? 'Chip' : 'Preset'}</label>
      <select
        id={ids.chip}
        value={value.chip.preset}
        data-testid={tid('chip')}
        onChange={(e) => {
          const c = chipSpec(e.target.value);
          // A trace runs on the chip it names (issue 27); the form suggests fewer blocks
          // so the whole chip fits the device view for stepping by hand.
          const blocks = chipGeometry === 'preset' ? c?.blocks : c?.suggestedBlocks;
          const preset = e.target.value as ChipPreset;
          onChange({ ...value, chip: { preset, blocks, pages_per_block: c?.pages_per_block } }, 'chip');
        }}
      >
        {CHIPS.map((c) => (
          <option key={c.id} value={c.id}>
            {c.label}
          </option>
        ))}
      </select>
    </div>
  );
  const size = (
    <>
      <NumberField
        label={text('Blocks')}
        value={value.chip.blocks ?? chip?.blocks}
        min={2}
        narrow={rows}
        testId={tid('blocks')}
        onChange={(v) => onChange({ ...value, chip: { ...value.chip, blocks: v } }, 'chip')}
      />
      <NumberField
        label={text('Pages/block')}
        value={value.chip.pages_per_block ?? chip?.pages_per_block}
        min={minPagesPerBlock}
        narrow={rows}
        testId={tid('ppb')}
        onChange={(v) => onChange({ ...value, chip: { ...value.chip, pages_per_block: v } }, 'chip')}
      />
    </>
  );
  const params = scheme?.params.map((p) => (
    <NumberField
      key={p.key}
      label={text(p.label)}
      value={value.params[p.key]}
      min={p.min}
      max={p.max}
      step={p.step}
      placeholder={p.hint}
      narrow={rows}
      testId={tid(`param-${p.key}`)}
      onChange={(v) => onChange({ ...value, params: withParam(value.params, p, v, props.emptyMeansDefault) }, 'params')}
    />
  ));

  if (rows) {
    return (
      <>
        <div className="field-row">
          {schemeSelect}
          {chipSelect}
          {size}
        </div>
        {props.schemeNotes}
        {(scheme?.params.length ?? 0) > 0 && (
          <div className="field-row" data-testid={tid('params')}>
            {params}
          </div>
        )}
      </>
    );
  }
  return (
    <>
      <fieldset>
        <legend>FTL scheme</legend>
        {schemeSelect}
        {props.schemeNotes}
        {params}
      </fieldset>
      <fieldset>
        <legend>Chip</legend>
        {chipSelect}
        <div className="field-row">{size}</div>
      </fieldset>
    </>
  );
}
