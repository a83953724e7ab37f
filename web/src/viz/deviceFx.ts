// DeviceGrid's effect layer: tokens moving for copies, fills for programs, rings for
// reads, flashes for erases, drawn over the grid, and shrinking bands for role changes
// (under the band's text); all removed after. Each transition's end is collected so the caller knows when all ran.
import { select, type Selection } from 'd3';
import 'd3-transition';
import type { Effect } from './effects';
import type { DeviceLayout } from './deviceLayout';
import { pageStyle, roleStyle } from './palette';

/** Append the plan's effects to `fx`; returns the promises of their ends. */
export function playEffects(
  fx: Selection<SVGGElement, unknown, null, undefined>,
  plan: Effect[],
  slotMs: number,
  layout: DeviceLayout,
  css: CSSStyleDeclaration,
): Promise<void>[] {
  const { bw, ph, BAND, LABEL, blockX, blockY, cellXY } = layout;
  const validFill = pageStyle(1).fill;
  const ends: Promise<void>[] = [];
  const track = (t: { end(): Promise<void> }) => ends.push(t.end());
  for (const e of plan) {
    const t0 = e.slot * slotMs;
    if (e.kind === 'program' || e.kind === 'copy') {
      const to = e.kind === 'copy' ? e.to : e;
      const { x, y } = cellXY(to.pbn, to.page);
      const start = e.kind === 'copy' ? t0 + slotMs * 0.6 : t0;
      const r = fx
        .append('rect')
        .attr('class', 'fx-fill')
        .attr('x', x)
        .attr('y', y + ph)
        .attr('width', bw)
        .attr('height', 0)
        .style('fill', validFill);
      track(
        r
          .transition()
          .delay(start)
          .duration(slotMs * 0.4)
          .attr('y', y)
          .attr('height', Math.max(ph, 1))
          .transition()
          .duration(slotMs * 0.3)
          .style('opacity', 0)
          .remove(),
      );
    }
    if (e.kind === 'copy') {
      const a = cellXY(e.from.pbn, e.from.page);
      const b = cellXY(e.to.pbn, e.to.page);
      const tok = fx
        .append('g')
        .attr('class', 'fx-token')
        .attr('transform', `translate(${a.x + bw / 2},${a.y + ph / 2})`)
        .style('opacity', 0);
      tok.append('circle').attr('r', Math.max(5, Math.min(11, ph / 2)));
      if (ph >= 12) tok.append('text').attr('dy', '0.35em').attr('text-anchor', 'middle').text(String(e.lpn));
      track(
        tok
          .transition()
          .delay(t0)
          .duration(slotMs * 0.1)
          .style('opacity', 1)
          .transition()
          .duration(slotMs * 0.6)
          .attr('transform', `translate(${b.x + bw / 2},${b.y + ph / 2})`)
          .transition()
          .duration(slotMs * 0.2)
          .style('opacity', 0)
          .remove(),
      );
    }
    if (e.kind === 'read') {
      const { x, y } = cellXY(e.pbn, e.page);
      const ring = fx
        .append('rect')
        .attr('class', 'fx-read')
        .attr('x', x - 2)
        .attr('y', y - 2)
        .attr('width', bw + 4)
        .attr('height', ph + 4)
        .attr('rx', 3)
        .style('opacity', 0);
      track(
        ring
          .transition()
          .delay(t0)
          .duration(slotMs * 0.3)
          .style('opacity', 1)
          .transition()
          .duration(slotMs * 0.5)
          .style('opacity', 0)
          .remove(),
      );
    }
    if (e.kind === 'erase') {
      const x = blockX(e.pbn);
      const y = blockY(e.pbn) + BAND;
      const flash = fx
        .append('rect')
        .attr('class', 'fx-erase')
        .attr('x', x - 3)
        .attr('y', y - 3)
        .attr('width', bw + 6)
        .attr('height', Math.max(0, layout.rowH - BAND - LABEL + 6))
        .attr('rx', 4)
        .style('opacity', 0);
      track(
        flash
          .transition()
          .delay(t0)
          .duration(slotMs * 0.25)
          .style('opacity', 0.9)
          .transition()
          .duration(slotMs * 0.75)
          .style('opacity', 0)
          .remove(),
      );
    }
    if (e.kind === 'role') {
      const x = blockX(e.pbn);
      const y = blockY(e.pbn);
      const from = roleStyle(e.from).color;
      const m = /^var\((--[\w-]+)\)$/.exec(from);
      // The old band shrinks under the block's band text, not over it (a square over the
      // middle letter read "F■EE"; issue 35): it goes into the block, before its text.
      const g = fx.node()?.ownerSVGElement?.querySelector(`g.block[data-block="${e.pbn}"]`);
      const newBand = g?.querySelector('rect.role-band');
      const old = document.createElementNS('http://www.w3.org/2000/svg', 'rect');
      if (g && newBand) g.insertBefore(old, newBand.nextSibling);
      else fx.node()?.appendChild(old);
      const band = select(old)
        .attr('class', 'fx-role')
        .attr('pointer-events', 'none')
        .attr('x', x)
        .attr('y', y + 2)
        .attr('width', bw)
        .attr('height', BAND - 4)
        .attr('rx', 2)
        .style('fill', m ? css.getPropertyValue(m[1]).trim() : from);
      track(
        band
          .transition()
          .delay(t0)
          .duration(slotMs)
          .attr('width', 0)
          .attr('x', x + bw / 2)
          .remove(),
      );
    }
  }
  return ends;
}
