// The colour language of the device view. Okabe–Ito colours (safe for the common
// colour-vision deficiencies), and never colour alone: invalid pages are hatched,
// erased pages are hollow, and every block carries a short role label.

export const OKABE_ITO = {
  black: '#000000',
  orange: '#E69F00',
  skyBlue: '#56B4E9',
  bluishGreen: '#009E73',
  yellow: '#F0E442',
  blue: '#0072B2',
  vermillion: '#D55E00',
  reddishPurple: '#CC79A7',
  grey: '#999999',
} as const;

export interface PageStateStyle {
  id: number;
  key: string;
  label: string;
  /** CSS colour (may be a var()) */
  fill: string;
  pattern?: 'hatch';
  /** what a page in this state is, for its hover text (the label when absent) */
  hover?: string;
}

export const PAGE_STATES: PageStateStyle[] = [
  { id: 0, key: 'erased', label: 'Erased', fill: 'var(--page-erased)' },
  { id: 1, key: 'valid', label: 'Valid', fill: OKABE_ITO.bluishGreen },
  { id: 2, key: 'invalid', label: 'Invalid', fill: OKABE_ITO.vermillion, pattern: 'hatch' },
  { id: 3, key: 'retractable', label: 'Retractable', fill: OKABE_ITO.yellow },
  { id: 4, key: 'metadata', label: 'Metadata', fill: OKABE_ITO.reddishPurple },
  // The program or erase a power cut interrupted (issue 35): unreadable, apart from invalid pages
  // (Paul Tol's wine, as TOL below).
  {
    id: 5,
    key: 'torn',
    label: 'Torn',
    fill: '#882255',
    hover:
      'Torn: a program (or its block’s erase) under way when power failed, half done and unreadable until its block is erased',
  },
];

export function pageStyle(state: number): PageStateStyle {
  return PAGE_STATES[state] ?? { id: state, key: `state-${state}`, label: `State ${state}`, fill: OKABE_ITO.black };
}

export interface BlockRoleStyle {
  id: number;
  key: string;
  label: string;
  /** 2–4 letter tag shown on the block's band */
  short: string;
  color: string;
}

/** Paul Tol's colour-blind-safe extras, for roles beyond Okabe–Ito's eight. */
export const TOL = {
  olive: '#999933',
  wine: '#882255',
  indigo: '#332288',
  purple: '#AA4499',
} as const;

/** Relative luminance of a #rrggbb colour (WCAG). */
export function luminance(hex: string): number {
  const m = /^#([0-9a-f]{6})$/i.exec(hex);
  if (!m) return 0.8;
  const n = parseInt(m[1], 16);
  const lin = (c: number) => {
    const v = c / 255;
    return v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4;
  };
  return 0.2126 * lin((n >> 16) & 255) + 0.7152 * lin((n >> 8) & 255) + 0.0722 * lin(n & 255);
}

/** Text colour with enough contrast on a role's band (black or white, whichever is further). */
export function bandTextColor(role: BlockRoleStyle): string {
  // theme-dependent band colours carry a matching text colour variable
  const v = /^var\((--[\w-]+)\)$/.exec(role.color);
  if (v) return `var(${v[1]}-text)`;
  const l = luminance(role.color);
  return (l + 0.05) / 0.05 >= 1.05 / (l + 0.05) ? '#000000' : '#ffffff';
}

// docs/session-api.md block_roles(). Roles of one scheme never share a colour; a role's
// short tag is always drawn too, so colour is never the only cue.
export const BLOCK_ROLES: BlockRoleStyle[] = [
  { id: 0, key: 'free', label: 'Free', short: 'FREE', color: 'var(--role-free)' },
  { id: 1, key: 'data', label: 'Data', short: 'DATA', color: OKABE_ITO.blue },
  { id: 2, key: 'active', label: 'Active (write frontier)', short: 'ACT', color: OKABE_ITO.orange },
  { id: 3, key: 'sw-log', label: 'SW log', short: 'SW', color: OKABE_ITO.skyBlue },
  { id: 4, key: 'rw-log', label: 'RW log', short: 'RW', color: OKABE_ITO.reddishPurple },
  { id: 5, key: 'log', label: 'Log block', short: 'LOG', color: OKABE_ITO.skyBlue },
  { id: 6, key: 'primary', label: 'Primary', short: 'PRI', color: OKABE_ITO.blue },
  { id: 7, key: 'replacement', label: 'Replacement', short: 'REP', color: OKABE_ITO.skyBlue },
  { id: 8, key: 'buffer', label: 'Buffer', short: 'BUF', color: OKABE_ITO.yellow },
  { id: 9, key: 'metadata', label: 'Metadata', short: 'META', color: TOL.olive },
  { id: 10, key: 'map', label: 'Map block', short: 'MAP', color: TOL.wine },
  { id: 11, key: 'checkpoint', label: 'Checkpoint', short: 'CKPT', color: TOL.indigo },
  { id: 12, key: 'map-dir', label: 'Map directory', short: 'DIR', color: TOL.purple },
  { id: 13, key: 'dest', label: 'GC/merge destination', short: 'DEST', color: OKABE_ITO.vermillion },
];

/** Roles whose blocks belong to a logical block (the band shows its LBN). */
export const OWNED_ROLES = new Set([1, 3, 4, 5, 6, 7, 8, 13]);

/**
 * The band's text: the role tag, plus the owning LBN when there is one — every owner of a
 * log block shared by several logical blocks (`LOG L0,2`, KRAFT/KAST with K > 1), as far as
 * the band has room (`LOG L0,2…`).
 */
export function bandLabel(role: BlockRoleStyle, owner: number, room: number, all?: number[]): string {
  if (owner < 0 || !OWNED_ROLES.has(role.id)) return role.short;
  // Only what fits the band whole: never a clipped "ATA L14" (issue 25).
  const fits = (s: string) => s.length * BAND_CHAR_W <= room;
  const owners = all && all.length > 1 ? all : [owner];
  for (let n = owners.length; n >= 1; n--) {
    const s = `${role.short} L${owners.slice(0, n).join(',')}${n < owners.length ? '…' : ''}`;
    if (fits(s)) return s;
  }
  return role.short;
}

/** Width of one band character at text scale 1 (9 px bold, 0.04em spacing; styles.css). */
export const BAND_CHAR_W = 6.6;

/** What a page shows: its LPN, or `M` for a metadata page (map, checkpoint, log entries). */
export function pageMark(state: number, lpn: number): string {
  return state === 4 ? 'M' : String(lpn);
}

export function roleStyle(role: number): BlockRoleStyle {
  return (
    BLOCK_ROLES[role] ?? {
      id: role,
      key: `role-${role}`,
      label: `Role ${role}`,
      short: `R${role}`,
      color: OKABE_ITO.black,
    }
  );
}

export const EVENT_KIND_LABEL: Record<string, string> = {
  read: 'Read',
  read_oob: 'Read OOB',
  program: 'Program',
  erase: 'Erase',
  note: 'Note',
  gc: 'GC',
  merge: 'Merge',
};

/** Flash operations, as opposed to FTL-level notes (gc, merge, role change, ...). */
export const FLASH_OP_KINDS = new Set(['read', 'read_oob', 'program', 'erase']);

export function eventKindLabel(kind: string): string {
  return EVENT_KIND_LABEL[kind] ?? kind.charAt(0).toUpperCase() + kind.slice(1).replace(/_/g, ' ');
}

// Why a flash operation happened (the core's Cause names, nand/flash.rs), in the words the
// glossary explains (issue 35: "full_merge" was shown as the core spells it, unlinked).
const CAUSE_LABEL: Record<string, string> = {
  host: 'host requests',
  gc: 'GC',
  switch: 'switch merge',
  partial_merge: 'partial merge',
  full_merge: 'full merge',
  fill: 'fill copies',
  map: 'map metadata',
  log: 'intent log / checkpoint',
  recovery: 'recovery',
  wear_level: 'wear levelling',
};

export function causeLabel(cause: string): string {
  return CAUSE_LABEL[cause] ?? cause.replace(/_/g, ' ');
}
