import { useLayoutEffect, useRef } from 'react';
import { useOverflows } from './useOverflows';
import { WithGlossary } from '../ui/glossary/Glossary';

/**
 * Plain words about the moment shown: the request or recovery, the notes revealed with the
 * last flash operation (one line each) and the operation itself (Session.narration()).
 * A box that scrolls when a moment says more. The newest line (the last: the operation, a
 * torn page, "Valid again") is scrolled into view at each new moment and whenever the box
 * or its text is resized (a text step): whole when it fits the box, else from its start;
 * and when the box holds the narration's start (the "where" and the request's first line)
 * beside it, the start stays in view and the newest line is pinned at the box's foot.
 *
 * Under the controls (the normal view) the box's height is fixed for the window and text
 * size, never by the moment: its lines (styles.css), or more when a torn page's sentence
 * (ROOM_SENTENCE) needs more at this width — so it is read whole and the chip below never
 * moves (issue 35). In
 * presentation's rail, beside the chip, the box grows to hold the newest line instead
 * (tools.css, --narration-need): the tour panel yields, not the chip.
 */
export function Narration({
  text,
  step,
  total,
  opCursor,
  opCount,
  powered = true,
  recovering = false,
}: {
  text: string;
  step: number;
  total: number;
  opCursor: number;
  opCount: number;
  powered?: boolean;
  recovering?: boolean;
}) {
  let fallback = 'Press Step op (→) or Play (Space) to watch the FTL work.';
  if (step >= total && total > 0) fallback = 'The workload is finished. Step back (←), scrub, or change the scenario.';
  const where = !powered
    ? 'power off'
    : recovering
      ? `recovery op ${opCursor}/${opCount}`
      : opCount > 0
        ? `op ${opCursor}/${opCount}`
        : step > 0
          ? 'request done'
          : 'start';
  const lines = (text || fallback).split('\n');
  const [ref, overflows] = useOverflows<HTMLParagraphElement>(text);
  const newest = useRef<HTMLSpanElement>(null);
  useLayoutEffect(() => {
    const box = ref.current;
    const line = newest.current;
    if (!box || !line) return;
    const show = () => {
      const b = box.getBoundingClientRect();
      const l = line.getBoundingClientRect();
      const pad = parseFloat(getComputedStyle(box).paddingTop) || 0;
      const lh = lineHeight(box);
      // the newest line's height in whole lines (the same pinned, a block, or not, inline)
      const newestH = Math.max(1, Math.round(l.height / lh)) * lh;
      // the line's place in the box's scrolled content
      const top = l.top - b.top - box.clientTop + box.scrollTop - pad;
      const frame = 2 * pad + box.offsetHeight - box.clientHeight;
      const room = box.clientHeight - 2 * pad;
      const content = box.scrollHeight - 2 * pad;
      // The narration's start, above its newest line: the "where" (above the text in
      // presentation's rail) and the first line of the first sentence (the request: what
      // it is, and why) when that is not the newest line.
      const start = whereHeight(box) + (line.previousElementSibling ? lh : 0);
      // presentation's rail: the box grows until its start and its newest line fit (tools.css)
      setPx(box, '--narration-need', Math.ceil(Math.min(content, start + newestH) + frame));
      // the normal view: room for the reference sentence at this width and text size
      setPx(box, '--narration-room', Math.ceil(roomLines(box) * lineHeight(box) + frame));
      // More than the box holds: its start stays in view and the newest line is pinned at
      // its foot (the lines between scroll under it), when both fit; else the newest line.
      const pin = start > 1 && content > room + 1 && start + newestH <= room + 1;
      box.toggleAttribute('data-pin', pin);
      if (pin) box.scrollTop = 0;
      else box.scrollTop = l.height <= room ? top + l.height - room : top;
    };
    show();
    // Again at the next frame: other observers (the tour panel's title, the rail's strip)
    // resize the box in the same frame, and a box that passes through a shorter size and
    // comes back to the size last reported clamps its scroll but gets no new call (at 100 %
    // beside RFTL's strip the newest line was left below the box).
    let again = 0;
    const ro = new ResizeObserver(() => {
      show();
      cancelAnimationFrame(again);
      again = requestAnimationFrame(show);
    });
    // the box, and its text (a flex item, so a block: an inline line reports no resize)
    ro.observe(box);
    if (line.parentElement) ro.observe(line.parentElement);
    return () => {
      ro.disconnect();
      cancelAnimationFrame(again);
    };
  }, [text, ref]);
  return (
    <p ref={ref} className="narration" data-testid="narration" aria-live="polite" tabIndex={overflows ? 0 : undefined}>
      <span className="narration-where">{where}</span>
      <span className="narration-text">
        {lines.map((l, i) => (
          <span
            key={i}
            className="narration-line"
            ref={i === lines.length - 1 ? newest : undefined}
            data-newest={i === lines.length - 1 ? 'true' : undefined}
          >
            <WithGlossary text={l} />
            {i < lines.length - 1 ? '\n' : null}
          </span>
        ))}
      </span>
    </p>
  );
}

/**
 * The sentence the normal view's box keeps room for whole: a torn page's (stepper/view.rs),
 * with two-digit numbers. Longer lines ("Valid again" with its list) show from their start.
 */
export const ROOM_SENTENCE =
  'Page 3 of block 18 is torn: the program under way when power failed is half done, its data unreadable; it holds nothing until its block is erased.';

/** From the top of the box's content to its text: the "where" above it (presentation's rail), or 0. */
function whereHeight(box: HTMLElement) {
  const text = box.querySelector<HTMLElement>('.narration-text');
  if (!text) return 0;
  const pad = parseFloat(getComputedStyle(box).paddingTop) || 0;
  const above = text.getBoundingClientRect().top - box.getBoundingClientRect().top - box.clientTop - pad;
  return Math.max(0, above + box.scrollTop);
}

function setPx(el: HTMLElement, name: string, px: number) {
  if (el.style.getPropertyValue(name) !== `${px}px`) el.style.setProperty(name, `${px}px`);
}

function lineHeight(box: HTMLElement) {
  const text = box.querySelector<HTMLElement>('.narration-text') ?? box;
  const cs = getComputedStyle(text);
  return parseFloat(cs.lineHeight) || 1.35 * parseFloat(cs.fontSize);
}

let measureCtx: CanvasRenderingContext2D | null = null;

/**
 * Lines ROOM_SENTENCE takes in the box at its width and font: words wrapped greedily as
 * the browser does, measured on a canvas (no text in the page). The width is the box's
 * (its scrollbar gutter kept: styles.css) less the "where" column at its widest form, so
 * it does not change with the moment.
 */
function roomLines(box: HTMLElement) {
  const text = box.querySelector<HTMLElement>('.narration-text');
  const where = box.querySelector<HTMLElement>('.narration-where');
  if (!text) return 0;
  const bs = getComputedStyle(box);
  const ts = getComputedStyle(text);
  measureCtx ??= document.createElement('canvas').getContext('2d');
  const ctx = measureCtx;
  if (!ctx) return 0;
  let width = box.clientWidth - parseFloat(bs.paddingLeft) - parseFloat(bs.paddingRight);
  if (bs.flexDirection !== 'column' && where) {
    const ws = getComputedStyle(where);
    ctx.font = `${ws.fontStyle} ${ws.fontWeight} ${ws.fontSize} ${ws.fontFamily}`;
    width -= ctx.measureText('recovery op 888/888').width + (parseFloat(bs.columnGap) || 0);
  }
  ctx.font = `${ts.fontStyle} ${ts.fontWeight} ${ts.fontSize} ${ts.fontFamily}`;
  const space = ctx.measureText(' ').width;
  let lines = 1;
  let x = 0;
  for (const word of ROOM_SENTENCE.split(' ')) {
    const w = ctx.measureText(word).width;
    if (x > 0 && x + space + w > width) {
      lines++;
      x = w;
    } else x += (x > 0 ? space : 0) + w;
  }
  return lines;
}
