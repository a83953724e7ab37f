// "What happens next?": pick an answer for each question, then Check: the core runs the
// next request on a copy (Session.predict_next, in the worker), says right or wrong with the reason, and
// the request is then revealed on the chip.
import { useEffect, useId, useState, type ReactNode } from 'react';
import { createPortal } from 'react-dom';
import type { Scenario } from '../scenario/model';
import { predictNext } from '../sim/pageClient';
import { QUESTIONS, canPredict, explain, rightValue, type Prediction, type PredictKind } from './predict';

export interface PredictPanelProps {
  scenario: Scenario;
  step: number;
  opCursor: number;
  total: number;
  blocks: number;
  ppb: number;
  questions: PredictKind[];
  /** reveal the request the prediction was about */
  onReveal: () => void;
  /** each question checked: right or not */
  onScored?: (right: number, asked: number) => void;
  onClose?: () => void;
  /**
   * Where the buttons go (the tour panel's footer, which never scrolls away); by default
   * the panel's own footer, under its questions (which scroll when they do not fit).
   */
  buttonsIn?: HTMLElement | null;
}

interface Checked {
  at: number;
  prediction: Prediction;
  right: Record<string, string>;
}

export function PredictPanel(p: PredictPanelProps) {
  const ctx = { blocks: p.blocks, ppb: p.ppb, scheme: p.scenario.scheme };
  const [answers, setAnswers] = useState<Record<string, string>>({});
  const [checked, setChecked] = useState<Checked | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [askedAt, setAskedAt] = useState(p.step);
  const baseId = useId();
  // A new moment, no answer shown: a fresh question.
  useEffect(() => {
    if (!checked && p.step !== askedAt) {
      setAnswers({});
      setAskedAt(p.step);
    }
  }, [p.step, askedAt, checked]);

  const between = p.opCursor === 0 && p.step < p.total;
  const ok = canPredict(p.scenario);

  const check = async () => {
    setError(null);
    try {
      // The worker's answer (a Session of its own there: the app's is not disturbed).
      const prediction = await predictNext(p.scenario, p.step);
      const right: Record<string, string> = {};
      for (const q of p.questions) right[q] = rightValue(QUESTIONS[q], prediction, ctx);
      setChecked({ at: p.step, prediction, right });
      p.onScored?.(p.questions.filter((q) => answers[q] === right[q]).length, p.questions.length);
      p.onReveal();
    } catch (e) {
      setError((e as Error).message);
    }
  };

  const formId = `${baseId}-form`;
  let buttons: ReactNode = null;
  if (ok && checked) {
    buttons = (
      <button
        type="button"
        onClick={() => {
          setChecked(null);
          setAnswers({});
          setAskedAt(p.step);
        }}
        data-testid="predict-again"
        disabled={p.step >= p.total}
      >
        Predict the next request
      </button>
    );
  } else if (ok && between) {
    buttons = (
      <button
        type="submit"
        form={formId}
        className="primary"
        disabled={p.questions.some((q) => !answers[q])}
        data-testid="predict-check"
      >
        Check, then show it
      </button>
    );
  }
  const footer = (buttons || p.onClose) && (
    <div className="predict-buttons">
      {buttons}
      {p.onClose && (
        <button type="button" onClick={p.onClose}>
          Close
        </button>
      )}
    </div>
  );

  return (
    <section className="predict" aria-labelledby={`${baseId}-h`} data-testid="predict">
      <h3 id={`${baseId}-h`}>What happens next?</h3>
      <div className="predict-body">
        {!ok ? (
          <p className="muted">Predictions need the workload itself; an uploaded trace is not kept on the page.</p>
        ) : checked ? (
          <>
            <ul className="predict-results">
              {p.questions.map((q) => {
                const good = answers[q] === checked.right[q];
                const label =
                  QUESTIONS[q].choices(ctx).find((c) => c.value === checked.right[q])?.label ?? checked.right[q];
                return (
                  <li
                    key={q}
                    className={good ? 'predict-right' : 'predict-wrong'}
                    data-testid={`predict-result-${q}`}
                    data-right={good}
                  >
                    <strong>{good ? '✓ Right' : '✗ Not quite'}</strong> — {QUESTIONS[q].prompt}{' '}
                    {good ? label : `The answer: ${label}.`}
                  </li>
                );
              })}
            </ul>
            <p className="predict-reason" data-testid="predict-reason">
              <strong>Why:</strong> {explain(checked.prediction)} It is now shown on the chip.
            </p>
          </>
        ) : !between ? (
          <p className="muted" data-testid="predict-wait">
            {p.step >= p.total
              ? 'The workload is finished.'
              : 'Finish this request first (Step request), then predict the next one.'}
          </p>
        ) : (
          <form
            id={formId}
            onSubmit={(e) => {
              e.preventDefault();
              void check();
            }}
          >
            {p.questions.map((q) => {
              const Q = QUESTIONS[q];
              const choices = Q.choices(ctx);
              const id = `${baseId}-${q}`;
              return choices.length <= 5 ? (
                <fieldset key={q} className="predict-q">
                  <legend>{Q.prompt}</legend>
                  {choices.map((c) => (
                    <label key={c.value}>
                      <input
                        type="radio"
                        name={id}
                        value={c.value}
                        checked={answers[q] === c.value}
                        onChange={() => setAnswers((a) => ({ ...a, [q]: c.value }))}
                        data-testid={`predict-${q}-${c.value}`}
                      />{' '}
                      {c.label}
                    </label>
                  ))}
                </fieldset>
              ) : (
                <div key={q} className="predict-q field">
                  <label htmlFor={id}>{Q.prompt}</label>
                  <select
                    id={id}
                    value={answers[q] ?? ''}
                    onChange={(e) => setAnswers((a) => ({ ...a, [q]: e.target.value }))}
                    data-testid={`predict-${q}`}
                  >
                    <option value="">Choose…</option>
                    {choices.map((c) => (
                      <option key={c.value} value={c.value}>
                        {c.label}
                      </option>
                    ))}
                  </select>
                </div>
              );
            })}
          </form>
        )}
        {error && (
          <p className="form-errors" role="alert">
            {error}
          </p>
        )}
      </div>
      {footer && (p.buttonsIn ? createPortal(footer, p.buttonsIn) : footer)}
    </section>
  );
}
