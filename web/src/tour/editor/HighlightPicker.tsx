// A stop's highlight: blocks and pages picked by clicking them on the chip (or typed, for the
// keyboard and for the canvas of a large chip), and the highlights a built-in tour uses
// (roles, owners, the request's touched blocks), each removable.
import { useId, useState } from 'react';
import type { Highlight } from '../tourTypes';
import { togglePage, toggleBlock } from './draft';
import { useChipPick } from './useChipPick';

export type PickMode = 'blocks' | 'pages';

export function HighlightPicker({
  highlight,
  onChange,
  chip,
}: {
  highlight?: Highlight;
  onChange: (h: Highlight) => void;
  chip?: { blocks: number; ppb: number };
}) {
  const [picking, setPicking] = useState(false);
  const [mode, setMode] = useState<PickMode>('blocks');
  const [block, setBlock] = useState('');
  const [page, setPage] = useState('');
  const id = useId();
  const h = highlight ?? {};
  useChipPick(picking, (b, p) => {
    if (mode === 'pages' && p !== null) onChange(togglePage(h, b, p));
    else if (mode === 'blocks') onChange(toggleBlock(h, b));
  });
  const typed = () => {
    const b = Number(block);
    if (block === '' || !Number.isInteger(b) || b < 0) return;
    if (mode === 'pages') {
      const p = Number(page);
      if (page === '' || !Number.isInteger(p) || p < 0) return;
      onChange(togglePage(h, b, p));
    } else onChange(toggleBlock(h, b));
  };
  const without = (k: keyof Highlight) => {
    const { [k]: _gone, ...rest } = h;
    onChange(rest);
  };
  return (
    <fieldset className="ted-highlight" data-testid="ted-highlight">
      <legend>Highlight on the chip</legend>
      <div className="ted-row">
        <button
          type="button"
          aria-pressed={picking}
          data-testid="ted-pick"
          className={picking ? 'primary' : undefined}
          onClick={() => setPicking((x) => !x)}
          title="While this is on, clicking a block (or a page) of the chip adds it to the highlight; click it again to take it away"
        >
          {picking ? 'Picking: click the chip (done)' : 'Pick on the chip'}
        </button>
        <span role="radiogroup" aria-label="What a click picks">
          {(['blocks', 'pages'] as const).map((m) => (
            <label key={m}>
              <input
                type="radio"
                name={`${id}-mode`}
                checked={mode === m}
                onChange={() => setMode(m)}
                data-testid={`ted-pick-${m}`}
              />{' '}
              {m}
            </label>
          ))}
        </span>
      </div>
      <div className="ted-row">
        <IndexInput label="block" value={block} onChange={setBlock} count={chip?.blocks} testid="ted-pick-block" />
        {mode === 'pages' && (
          <IndexInput label="page" value={page} onChange={setPage} count={chip?.ppb} testid="ted-pick-page" />
        )}
        <button type="button" onClick={typed} data-testid="ted-pick-add">
          Add / remove
        </button>
      </div>
      <ul className="ted-picked" data-testid="ted-picked" aria-label="Highlighted">
        {h.blocks?.map((b) => (
          <Picked
            key={`b${b}`}
            text={`block ${b}`}
            remove={`Remove block ${b}`}
            onRemove={() => onChange(toggleBlock(h, b))}
          />
        ))}
        {h.pages?.map(([b, p]) => (
          <Picked
            key={`p${b}:${p}`}
            text={`block ${b} page ${p}`}
            remove={`Remove page ${p} of block ${b}`}
            onRemove={() => onChange(togglePage(h, b, p))}
          />
        ))}
        {h.roles?.length ? (
          <Picked
            text={`role ${h.roles.join(', ')}`}
            remove="Remove the role highlight"
            onRemove={() => without('roles')}
          />
        ) : null}
        {h.owners?.length ? (
          <Picked
            text={`LBN ${h.owners.join(', ')}`}
            remove="Remove the LBN highlight"
            onRemove={() => without('owners')}
          />
        ) : null}
        {h.touched ? (
          <Picked
            text="blocks this request touched"
            remove="Remove the touched highlight"
            onRemove={() => without('touched')}
          />
        ) : null}
      </ul>
    </fieldset>
  );
}

/** A block or page index typed in (0 … count − 1). */
function IndexInput(p: {
  label: string;
  value: string;
  onChange: (v: string) => void;
  count?: number;
  testid: string;
}) {
  return (
    <label>
      {p.label}{' '}
      <input
        type="number"
        min={0}
        max={p.count !== undefined ? p.count - 1 : undefined}
        value={p.value}
        onChange={(e) => p.onChange(e.target.value)}
        data-testid={p.testid}
        className="ted-num"
      />
    </label>
  );
}

/** One highlighted item and its × to take it away. */
function Picked(p: { text: string; remove: string; onRemove: () => void }) {
  return (
    <li>
      {p.text}{' '}
      <button type="button" aria-label={p.remove} onClick={p.onRemove}>
        ×
      </button>
    </li>
  );
}
