// A labelled number input (an empty field is NaN), the one markup every form here uses
// for a number: the scenario form, the timing fields, the trace dialog's chip and
// parameters. The label is any node, so a feature may put glossary terms in it.
import { useId, type ReactNode } from 'react';

export interface NumberFieldProps {
  label: ReactNode;
  value: number | undefined;
  min?: number;
  max?: number;
  step?: number | 'any';
  onChange: (v: number) => void;
  testId?: string;
  placeholder?: string;
  /** a narrow field (a row of several, as in the trace dialog) */
  narrow?: boolean;
}

export function NumberField(props: NumberFieldProps) {
  const id = useId();
  return (
    <div className={props.narrow ? 'field narrow' : 'field'}>
      <label htmlFor={id}>{props.label}</label>
      <input
        id={id}
        type="number"
        value={props.value === undefined || Number.isNaN(props.value) ? '' : props.value}
        min={props.min}
        max={props.max}
        step={props.step ?? 'any'}
        onChange={(e) => props.onChange(e.target.value === '' ? NaN : Number(e.target.value))}
        placeholder={props.placeholder}
        data-testid={props.testId}
      />
    </div>
  );
}
