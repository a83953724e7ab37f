// One stop of the draft: its title, its text with a live preview (rendered exactly as the
// tour will show it: TourText), its highlight, a prediction question and a quiz. A device
// stop (several dies, issue 40) has no highlight or prediction: they are drawn on one chip.
import type { PredictKind } from '../predict';
import { TourText } from '../TourText';
import type { TourStop } from '../tourTypes';
import { HighlightPicker } from './HighlightPicker';

const PREDICTIONS: { kind: PredictKind; label: string }[] = [
  { kind: 'kind', label: 'what the next request does (its kind)' },
  { kind: 'victim', label: 'which block is the victim' },
  { kind: 'copies', label: 'how many pages are copied' },
];

export function StopEditor({
  stop,
  index,
  onChange,
  chip,
  dies = 1,
}: {
  stop: TourStop;
  index: number;
  onChange: (change: Partial<TourStop>) => void;
  chip?: { blocks: number; ppb: number };
  /** dies of the stop's device (several: the device view) */
  dies?: number;
}) {
  const asked = new Set(stop.predict ?? []);
  return (
    <div className="ted-stop" data-testid="ted-stop" data-index={index}>
      <label className="ted-field">
        <span>Stop {index + 1} title</span>
        <input
          value={stop.title}
          maxLength={200}
          onChange={(e) => onChange({ title: e.target.value })}
          data-testid="ted-stop-title"
        />
      </label>
      <p className="muted ted-at" data-testid="ted-stop-at">
        {dies > 1 ? (
          <>
            On a device of {dies} dies, at device operation {stop.at.op}.
          </>
        ) : (
          <>
            At request {stop.at.step}
            {stop.at.op ? `, operation ${stop.at.op} of the next` : ' (between requests)'}.
          </>
        )}
      </p>
      <div className="ted-text">
        <label className="ted-field">
          <span>
            Text <span className="muted">(*emphasis*, **strong**, - lists, [term](glossary:id))</span>
          </span>
          <textarea
            value={stop.text}
            rows={6}
            maxLength={5000}
            onChange={(e) => onChange({ text: e.target.value })}
            data-testid="ted-stop-text"
          />
        </label>
        <div className="ted-preview" aria-label="Preview" data-testid="ted-preview">
          <span className="muted">Preview</span>
          <TourText className="tour-text" text={stop.text} />
        </div>
      </div>
      {dies === 1 && (
        <HighlightPicker highlight={stop.highlight} onChange={(highlight) => onChange({ highlight })} chip={chip} />
      )}
      <fieldset className="ted-predict" hidden={dies > 1}>
        <legend>“What happens next?” (answered by the simulator)</legend>
        {PREDICTIONS.map((p) => (
          <label key={p.kind}>
            <input
              type="checkbox"
              checked={asked.has(p.kind)}
              data-testid={`ted-predict-${p.kind}`}
              onChange={(e) => {
                const next = PREDICTIONS.map((x) => x.kind).filter((k) =>
                  k === p.kind ? e.target.checked : asked.has(k),
                );
                onChange({ predict: next });
              }}
            />{' '}
            {p.label}
          </label>
        ))}
      </fieldset>
      <fieldset className="ted-quiz">
        <legend>Quiz (optional: the answer shows at the next stop)</legend>
        <input
          placeholder="Question"
          value={stop.quiz?.question ?? ''}
          maxLength={1500}
          aria-label="Quiz question"
          onChange={(e) => onChange({ quiz: { question: e.target.value, answer: stop.quiz?.answer ?? '' } })}
        />
        <input
          placeholder="Answer"
          value={stop.quiz?.answer ?? ''}
          maxLength={1500}
          aria-label="Quiz answer"
          onChange={(e) => onChange({ quiz: { question: stop.quiz?.question ?? '', answer: e.target.value } })}
        />
      </fieldset>
    </div>
  );
}
