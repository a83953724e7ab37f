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
        <label>
          block{' '}
          <input
            type="number"
            min={0}
            max={chip ? chip.blocks - 1 : undefined}
            value={block}
            onChange={(e) => setBlock(e.target.value)}
            data-testid="ted-pick-block"
            className="ted-num"
          />
        </label>
        {mode === 'pages' && (
          <label>
            page{' '}
            <input
              type="number"
              min={0}
              max={chip ? chip.ppb - 1 : undefined}
              value={page}
              onChange={(e) => setPage(e.target.value)}
              data-testid="ted-pick-page"
              className="ted-num"
            />
          </label>
        )}
        <button type="button" onClick={typed} data-testid="ted-pick-add">
          Add / remove
        </button>
      </div>
      <ul className="ted-picked" data-testid="ted-picked" aria-label="Highlighted">
        {h.blocks?.map((b) => (
          <li key={`b${b}`}>
            block {b}{' '}
            <button type="button" aria-label={`Remove block ${b}`} onClick={() => onChange(toggleBlock(h, b))}>
              ×
            </button>
          </li>
        ))}
        {h.pages?.map(([b, p]) => (
          <li key={`p${b}:${p}`}>
            block {b} page {p}{' '}
            <button
              type="button"
              aria-label={`Remove page ${p} of block ${b}`}
              onClick={() => onChange(togglePage(h, b, p))}
            >
              ×
            </button>
          </li>
        ))}
        {h.roles?.length ? (
          <li>
            role {h.roles.join(', ')}{' '}
            <button type="button" aria-label="Remove the role highlight" onClick={() => without('roles')}>
              ×
            </button>
          </li>
        ) : null}
        {h.owners?.length ? (
          <li>
            LBN {h.owners.join(', ')}{' '}
            <button type="button" aria-label="Remove the LBN highlight" onClick={() => without('owners')}>
              ×
            </button>
          </li>
        ) : null}
        {h.touched ? (
          <li>
            blocks this request touched{' '}
            <button type="button" aria-label="Remove the touched highlight" onClick={() => without('touched')}>
              ×
            </button>
          </li>
        ) : null}
      </ul>
    </fieldset>
  );
}
