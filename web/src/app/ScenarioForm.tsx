// Scenario pickers: preset, scheme (+ its parameters), chip, workload, inline pattern, timing.
// Everything is driven by the catalogues in scenario/model.ts, so a new scheme or
// chip shows up here without changes.
import { useEffect, useId, useMemo, useState } from 'react';
import {
  WORKLOAD_KINDS,
  chipSpec,
  defaultWorkload,
  schemeSpec,
  validateScenario,
  type Scenario,
  type WorkloadKind,
  generatorHelp,
} from '../scenario/model';
import { PRESETS, presetOf } from '../scenario/presets';
import { checkPattern, describePatternError } from '../scenario/core';
import { coreError, coreReady, fitChip, peekCore } from '../sim/schemeFit';
import { PatternHelp } from './PatternHelp';
import { PreconditionField } from '../compare/PreconditionField';
import { NumberField, termLabel } from './NumberField';
import { SchemeChipPicker } from '../scenario/SchemeChipPicker';
import { TimingField } from './TimingField';
import { timingProblem } from '../scenario/timing';
import { DeviceFields, ONE_DIE, stripeProblem } from '../device/DeviceFields';
import type { DeviceShape } from '../sim/deviceTypes';

export interface ScenarioFormProps {
  current: Scenario;
  busy: boolean;
  /** resolves false when the app could not start it (the app then keeps what it ran) */
  onApply: (s: Scenario, openAt: number) => void | Promise<boolean>;
  /** the device shape applied (issue 40; one die: the chip view) and where Apply sends it */
  device?: DeviceShape;
  onDevice?: (d: DeviceShape) => void;
}

/** Chips up to this many pages are checked by the core on every edit; bigger ones at Apply. */
const LIVE_CHECK_PAGES = 65_536;

/** The core's error for this scheme and chip, as a form error (empty when it builds). */
function coreErrorNow(s: Scenario): string[] {
  const C = peekCore();
  const msg = C ? coreError(C, s, true) : null;
  return msg ? [`the core cannot run this: ${msg}`] : [];
}

export function ScenarioForm({ current, busy, onApply, device, onDevice }: ScenarioFormProps) {
  const [draft, setDraft] = useState<Scenario>(current);
  const [deviceDraft, setDeviceDraft] = useState<DeviceShape>(device ?? ONE_DIE);
  // Apply's outcome when the scenario was not started (the app keeps running the previous one).
  const [applyError, setApplyError] = useState<string | null>(null);
  // A newly applied scenario (or device) becomes the form's starting point in the render that
  // shows it: set during render, React renders the form again before committing anything. An
  // effect did it one commit late, and that commit could be painted: the header and panels of
  // the new scenario beside the previous one's form (a scenario opened by URL, session 16).
  const [shown, setShown] = useState({ current, device });
  if (shown.current !== current || shown.device !== device) {
    setShown({ current, device });
    if (shown.current !== current) {
      setDraft(current);
      setApplyError(null);
    }
    if (device && shown.device !== device) setDeviceDraft(device);
  }
  const [openAt, setOpenAt] = useState(0);
  // The picker names the form's scenario only while it is a preset's, by value: a link to a
  // preset's exact scenario is named, and one edited field makes it "Choose a preset…".
  const presetId = useMemo(() => presetOf(draft)?.id ?? '', [draft]);
  const ids = { preset: useId(), kind: useId(), pattern: useId() };
  // What the form changed on its own (a chip that fits the picked scheme), and why.
  const [fitNote, setFitNote] = useState<string | null>(null);
  const [ctorReady, setCtorReady] = useState(false);
  useEffect(() => {
    void coreReady().then((c) => setCtorReady(!!c));
  }, []);

  const errors = useMemo(() => {
    const local = validateScenario(draft).filter((e) => !e.startsWith('pattern:'));
    const t = timingProblem(draft.timing, draft.workload.kind === 'trace');
    if (t) local.push(t);
    if (local.length > 0 || !ctorReady) return local;
    // The core's own verdict on this scheme and chip (small chips: on every edit).
    const spec = chipSpec(draft.chip.preset);
    const pages = (draft.chip.blocks ?? spec?.blocks ?? 0) * (draft.chip.pages_per_block ?? spec?.pages_per_block ?? 0);
    return pages <= LIVE_CHECK_PAGES ? coreErrorNow(draft) : local;
  }, [draft, ctorReady]);
  const patternInfo = useMemo(() => {
    if (draft.workload.kind !== 'pattern') return null;
    // The core's own parser (the same one the Session uses).
    const c = checkPattern(draft.workload.text);
    if (!c) return { ok: true, text: 'checking…' };
    if (c.ok) return { ok: true, text: `${c.requests} request${c.requests === 1 ? '' : 's'}` };
    return { ok: false, text: describePatternError(c) };
  }, [draft.workload]);

  const scheme = schemeSpec(draft.scheme);
  const w = draft.workload;
  const setW = (patch: Record<string, unknown>) =>
    setDraft((d) => ({ ...d, workload: { ...d.workload, ...patch } as Scenario['workload'] }));

  return (
    <form
      className="scenario-form"
      noValidate
      aria-labelledby="scenario-h"
      onSubmit={(e) => {
        e.preventDefault();
        if (errors.length > 0) return;
        void (async () => {
          // Apply runs exactly what the form shows, or says why not and changes nothing.
          const C = await coreReady();
          const msg = (C ? coreError(C, draft) : null) ?? (onDevice ? stripeProblem(draft.scheme, deviceDraft) : null);
          if (msg) {
            setApplyError(`Not applied: ${msg}`);
            return;
          }
          setApplyError(null);
          const ok = await onApply(draft, openAt);
          if (ok !== false) onDevice?.(deviceDraft);
          if (ok === false)
            setApplyError(
              'Not applied: the simulator could not start this scenario (see the message above); the chip still shows the previous one.',
            );
        })();
      }}
    >
      <h2 id="scenario-h">Scenario</h2>
      <div className="field">
        <label htmlFor={ids.preset}>Preset</label>
        <select
          id={ids.preset}
          value={presetId}
          data-testid="preset"
          onChange={(e) => {
            const p = PRESETS.find((x) => x.id === e.target.value);
            if (p) {
              setDraft(p.scenario);
              setOpenAt(p.openAt);
            }
          }}
        >
          <option value="">Choose a preset…</option>
          {PRESETS.map((p) => (
            <option key={p.id} value={p.id}>
              {p.label}
            </option>
          ))}
        </select>
      </div>

      <SchemeChipPicker
        layout="form"
        chipGeometry="suggested"
        value={{ scheme: draft.scheme, params: draft.params, chip: draft.chip }}
        label={termLabel}
        onChange={(next, changed) => {
          setDraft((d) => ({ ...d, ...next }));
          if (changed !== 'scheme') return;
          setFitNote(null);
          // Picking a scheme picks a chip it runs on (the core decides), and says so.
          void coreReady().then((C) => {
            if (!C) return;
            const fit = fitChip(C, { ...draft, ...next });
            if ('error' in fit) return;
            if (fit.note) {
              setDraft((d) => (d.scheme === next.scheme ? { ...d, chip: fit.chip } : d));
              setFitNote(fit.note);
            }
          });
        }}
        schemeNotes={
          <>
            {fitNote && (
              <p className="hint fit-note" role="status" data-testid="fit-note">
                {fitNote}
              </p>
            )}
            {scheme && (
              <p className="hint scheme-description" data-testid="scheme-description">
                {scheme.description}
              </p>
            )}
          </>
        }
      />

      <fieldset>
        <legend>Workload</legend>
        <div className="field">
          <label htmlFor={ids.kind}>Kind</label>
          <select
            id={ids.kind}
            value={w.kind}
            data-testid="workload-kind"
            onChange={(e) => {
              const kind = e.target.value as WorkloadKind;
              const prev = draft.workload as { n?: number; seed?: number };
              const n = prev.n ?? 400;
              const seed = prev.seed ?? 1;
              setDraft((d) => ({ ...d, workload: defaultWorkload(kind, n, seed) }));
            }}
          >
            {WORKLOAD_KINDS.map((k) => (
              <option key={k.id} value={k.id}>
                {k.label}
              </option>
            ))}
          </select>
        </div>
        {generatorHelp(w.kind) && w.kind !== 'pattern' && (
          <p className="hint" data-testid="workload-help">
            {generatorHelp(w.kind)}
          </p>
        )}
        {w.kind === 'trace' ? (
          <p className="hint warn" data-testid="trace-missing-hint">
            Trace “{w.name}”{w.missing ? ' must be uploaded again (links never carry traces)' : ''}.
          </p>
        ) : w.kind === 'pattern' ? (
          <div className="field">
            <label htmlFor={ids.pattern}>Pattern</label>
            <textarea
              id={ids.pattern}
              rows={3}
              spellCheck={false}
              value={w.text}
              data-testid="pattern"
              aria-describedby={`${ids.pattern}-hint`}
              onChange={(e) => setW({ text: e.target.value })}
              onKeyDown={(e) => {
                if (e.key === 'Enter' && !e.shiftKey) {
                  e.preventDefault();
                  (e.currentTarget.form as HTMLFormElement | null)?.requestSubmit();
                }
              }}
            />
            <p id={`${ids.pattern}-hint`} className={patternInfo?.ok ? 'hint' : 'hint warn'}>
              {patternInfo?.text} — e.g. <code>w0 w4 w8 r3 (w1 w2)x3</code>
            </p>
            <PatternHelp />
          </div>
        ) : (
          <>
            <div className="field-row">
              <NumberField label="Requests" value={w.n} min={1} onChange={(v) => setW({ n: v })} testId="workload-n" />
              {w.kind !== 'sequential' && (
                <NumberField label="Seed" value={w.seed} min={0} onChange={(v) => setW({ seed: v })} />
              )}
            </div>
            {'read_ratio' in w && (
              <NumberField
                label="Read ratio"
                value={w.read_ratio}
                min={0}
                max={1}
                step={0.05}
                onChange={(v) => setW({ read_ratio: v })}
              />
            )}
            {w.kind === 'hotcold' && (
              <div className="field-row">
                <NumberField
                  label="Hot space"
                  value={w.hot_fraction}
                  min={0.05}
                  max={0.95}
                  step={0.05}
                  onChange={(v) => setW({ hot_fraction: v })}
                />
                <NumberField
                  label="Hot share"
                  value={w.hot_ratio}
                  min={0}
                  max={1}
                  step={0.05}
                  onChange={(v) => setW({ hot_ratio: v })}
                />
              </div>
            )}
          </>
        )}
      </fieldset>
      <TimingField
        value={draft.timing}
        hasTimes={w.kind === 'trace'}
        onChange={(t) =>
          setDraft((d) => {
            const next = { ...d, timing: t };
            if (!t) delete next.timing;
            return next;
          })
        }
      />
      <PreconditionField
        value={draft.precondition}
        onChange={(p) =>
          setDraft((d) => {
            const next = { ...d, precondition: p };
            if (!p) delete next.precondition;
            return next;
          })
        }
      />

      {onDevice && <DeviceFields value={deviceDraft} onChange={setDeviceDraft} scheme={draft.scheme} />}

      {applyError && (
        <p className="form-errors" role="alert" data-testid="apply-error">
          {applyError}
        </p>
      )}
      {errors.length > 0 && (
        <div role="alert">
          <ul className="form-errors">
            {errors.map((e) => (
              <li key={e}>{e}</li>
            ))}
          </ul>
        </div>
      )}
      <button type="submit" className="primary" disabled={busy || errors.length > 0} data-testid="apply">
        Apply scenario
      </button>
    </form>
  );
}
