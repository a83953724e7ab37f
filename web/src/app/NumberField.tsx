// A labelled number input for the scenario form's fields (an empty field is NaN); the
// label's terms (Log blocks, Associativity K, Switch threshold …) link to the glossary.
import { useId } from 'react';
import { LabelTerm } from '../ui/glossary/Glossary';

export function NumberField(props: {
  label: string;
  value: number | undefined;
  min?: number;
  max?: number;
  step?: number | 'any';
  onChange: (v: number) => void;
  testId?: string;
  placeholder?: string;
}) {
  const id = useId();
  return (
    <div className="field">
      <label htmlFor={id}>
        <LabelTerm label={props.label} />
      </label>
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
