// Small pure helpers shared by the SVG and canvas device views.
import { pageStyle, roleStyle } from './palette';

export interface Hovered {
  block: number;
  page: number | null;
}

export interface ChipArrays {
  ppb: number;
  pageStates: Uint8Array;
  pageLpns: Uint32Array;
  blockRoles: Uint8Array;
  eraseCounts: Uint32Array;
  owners: Int32Array;
}

const NO_LPN = 0xffffffff;

export function validPages(a: Pick<ChipArrays, 'ppb' | 'pageStates'>, b: number): number {
  let n = 0;
  const base = b * a.ppb;
  for (let p = 0; p < a.ppb; p++) if (a.pageStates[base + p] === 1) n++;
  return n;
}

/** One line about a block (and a page of it): pbn, role, owning LBN, erase count, valid pages. */
export function hoverText(h: Hovered, a: ChipArrays): string {
  const b = h.block;
  const owner = a.owners[b];
  let s = `Block ${b} · ${roleStyle(a.blockRoles[b]).label} · erase count ${a.eraseCounts[b]} · owner LBN ${owner >= 0 ? owner : '—'} · valid pages ${validPages(a, b)}/${a.ppb}`;
  if (h.page != null) {
    const i = b * a.ppb + h.page;
    const lpn = a.pageLpns[i];
    s += ` · page ${h.page} (PPN ${i}): ${pageStyle(a.pageStates[i]).label}${lpn !== undefined && lpn !== NO_LPN && a.pageStates[i] !== 4 ? `, LPN ${lpn}` : ''}`;
  }
  return s;
}

/**
 * RFTL's logical blocks: a primary, replacement and buffer block side by side (blocks
 * 3l..3l+2, all owned by LBN l). Returns the first block of each such triple.
 */
export function blockGroups(roles: Uint8Array, owners: Int32Array): { first: number; owner: number }[] {
  const out: { first: number; owner: number }[] = [];
  if (roles.length > 4096) return out;
  for (let b = 0; b + 2 < roles.length; b += 3) {
    const o = owners[b];
    if (
      o >= 0 &&
      owners[b + 1] === o &&
      owners[b + 2] === o &&
      [roles[b], roles[b + 1], roles[b + 2]].some((r) => r >= 6 && r <= 8)
    ) {
      out.push({ first: b, owner: o });
    }
  }
  return out;
}

/** Which page states and block roles occur (for a legend that shows only what is present). */
export function presentCodes(codes: Uint8Array, limit = 32): number[] {
  const seen = new Uint8Array(256);
  for (let i = 0; i < codes.length; i++) seen[codes[i]] = 1;
  const out: number[] = [];
  for (let c = 0; c < 256 && out.length < limit; c++) if (seen[c]) out.push(c);
  return out;
}
