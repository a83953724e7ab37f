// The app's number field: the shared one (ui/NumberField) with the label's terms (Log
// blocks, Associativity K, Switch threshold …) linked to the glossary.
import { LabelTerm } from '../ui/glossary/Glossary';
import { NumberField as Field, type NumberFieldProps } from '../ui/NumberField';

export function termLabel(label: string) {
  return <LabelTerm label={label} />;
}

export function NumberField(props: Omit<NumberFieldProps, 'label'> & { label: string }) {
  return <Field {...props} label={termLabel(props.label)} />;
}
