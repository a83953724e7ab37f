//! What a moment shows (docs/architecture.md, "What a moment shows"): page states, block
//! roles and owners at a flash-operation boundary.
//!
//! Between requests a scheme's RAM is consistent, so its own view (`Ftl::page_state`,
//! `block_role`, `block_owners_all`) is the truth: `Display::of`. Inside a request the
//! app pauses the scheme after k operations and the RAM is half-updated (the block map not
//! yet switched to a merge's destination), so reading it alone draws copies invalid until
//! the merge ends. `Display::during` starts from the display before the request and
//! applies the k operations revealed, the way a chip changes, and then the scheme's map:
//! - a host program makes its page valid (the write in flight);
//! - a copy (a program by a merge, GC, fill or recovery) takes the state of the page it
//!   was read from: source and destination are both valid while the copy is in flight;
//! - a metadata program is metadata; an erase makes the block's pages erased;
//! - one validity rule, from the FTL's own map (issue 35): a data page shown valid that
//!   the paused RAM no longer holds valid (`Ftl::page_state`: the map, or the scheme's log
//!   map, points elsewhere) has been forgotten — FAST's "−1", an RFTL/GFTL overwrite — and
//!   is invalid from that operation on. The copies programmed in this request are in
//!   flight until the map points to them, and are forgotten only for a newer version;
//!   a page whose LPN the paused map points to nowhere, or to an older version, keeps its
//!   state (no LPN loses its last copy to a half-updated map). Inside a recovery the RAM is being rebuilt, so
//!   only the chip rules apply there.
//!
//! Roles and owners are the paused RAM's, except that a block erased and not yet
//! programmed again reads FREE (a new role appears at the operation that opens it), a
//! block holding pages never reads FREE before its erase (it keeps its role from before
//! the request, or is the destination being filled), and a block keeps the logical blocks
//! it served until it is erased (a multi-LBN merge drops them at its victim's erase).

use std::collections::{HashMap, HashSet};

use crate::ftl::{BlockRole, PageState};
use crate::nand::{Cause, Event, OpKind, PageKind, Pbn, Ppn};
use crate::sim::State;

/// The device view of one moment.
#[derive(Clone, Debug, PartialEq)]
pub struct Display {
    pub states: Vec<PageState>,
    pub roles: Vec<BlockRole>,
    /// Logical blocks each physical block serves (empty: none).
    pub owners: Vec<Vec<u32>>,
}

impl Display {
    /// A consistent moment: the scheme's own view.
    pub fn of(s: &State) -> Display {
        let pages = s.flash.geometry().pages();
        let (roles, owners) = blocks_of(s);
        Display { states: (0..pages).map(|p| s.ftl.page_state(&s.flash, p)).collect(), roles, owners }
    }

    /// The moment after `ops` (the operations revealed of a request or recovery) from the
    /// moment `base` shows, which is the display of `before`; `now` is the state paused
    /// (or cut) after them. `map`: `now`'s RAM is the scheme's map at this moment (a
    /// request); false inside a recovery, whose RAM is being rebuilt.
    pub fn during(base: &Display, before: &State, now: &State, ops: &[Event], map: bool) -> Display {
        let mut states = base.states.clone();
        let f = fold(&mut states, before, now.flash.ppb(), ops);
        // What the chip holds always wins over the derivation (a torn page is unreadable).
        for (p, page) in now.flash.pages().iter().enumerate() {
            states[p] = chip_wins(states[p], page.kind);
        }
        if map {
            let chip = states.clone();
            for (p, st) in states.iter_mut().enumerate() {
                *st = by_map(*st, p as Ppn, now, &f.fresh, &|q| chip[q as usize]);
            }
        }
        let (roles, owners) = blocks_during(&base.roles, &base.owners, now, &f.erased, &f.filled);
        Display { states, roles, owners }
    }

    /// The first logical block each block serves, -1 for none (`Session.block_owners`).
    pub fn first_owners(&self) -> Vec<i32> {
        self.owners.iter().map(|o| o.first().map_or(-1, |&l| l as i32)).collect()
    }
}

/// Block roles and owners of a consistent moment (the block half of `Display::of`).
pub fn blocks_of(s: &State) -> (Vec<BlockRole>, Vec<Vec<u32>>) {
    let blocks = s.flash.blocks();
    ((0..blocks).map(|b| s.ftl.block_role(b)).collect(), (0..blocks).map(|b| s.ftl.block_owners_all(b)).collect())
}

/// Page states a fold over operations reads and writes: the whole chip's (`Display::during`)
/// or only the pages the operations touch, over a base read on demand (`Sparse`).
trait Pages {
    fn get(&self, p: Ppn) -> PageState;
    fn set(&mut self, p: Ppn, st: PageState);
}

impl Pages for Vec<PageState> {
    fn get(&self, p: Ppn) -> PageState {
        self[p as usize]
    }
    fn set(&mut self, p: Ppn, st: PageState) {
        self[p as usize] = st;
    }
}

/// The fold's changes over a base display read page by page (the scheme's view before the
/// request): a moment inside a request without a pass over the whole chip (issue 26).
struct Sparse<'a> {
    base: &'a dyn Fn(Ppn) -> PageState,
    changed: HashMap<Ppn, PageState>,
}

impl Pages for Sparse<'_> {
    fn get(&self, p: Ppn) -> PageState {
        self.changed.get(&p).copied().unwrap_or_else(|| (self.base)(p))
    }
    fn set(&mut self, p: Ppn, st: PageState) {
        self.changed.insert(p, st);
    }
}

/// The scheme's map decides when a copy is forgotten (the rule at the top of this file):
/// a page the fold shows valid that the paused RAM holds invalid turns invalid when the
/// map points to another copy, at least as new and shown valid (`shown`: the fold's
/// state); a copy programmed in this request is in flight until the map points to it, and
/// is forgotten only for a newer version. A map pointing to no copy, an older one or one
/// drawn invalid (a stale duplicate) is half-updated: the page keeps its state.
fn by_map(st: PageState, p: Ppn, now: &State, fresh: &HashSet<Ppn>, shown: &dyn Fn(Ppn) -> PageState) -> PageState {
    if !matches!(st, PageState::Valid | PageState::Retractable) {
        return st;
    }
    let page = now.flash.peek(p);
    if page.kind != PageKind::Data {
        return st;
    }
    let in_flight = fresh.contains(&p);
    match now.ftl.page_state(&now.flash, p) {
        ram @ (PageState::Valid | PageState::Retractable) => {
            if in_flight {
                st
            } else {
                ram
            }
        }
        _ => match now.ftl.locate(page.lpn).map(|q| (now.flash.peek(q), shown(q))) {
            // The map points to a copy at least as new (a copy in flight: strictly newer).
            Some((q, PageState::Valid | PageState::Retractable))
                if q.kind == PageKind::Data
                    && (q.version > page.version || !in_flight && q.version == page.version) =>
            {
                PageState::Invalid
            }
            // Half-updated: the map points to no copy, or to an older one (FAST's SW log
            // block detached before its partial merge).
            _ => st,
        },
    }
}

/// What a fold over operations found: blocks erased by them, blocks programmed since
/// their last erase (or since the request began), and data pages programmed since.
struct Folded {
    erased: HashSet<Pbn>,
    filled: HashSet<Pbn>,
    fresh: HashSet<Ppn>,
}

/// A torn, erased or metadata page on the chip reads so whatever the derivation says.
fn chip_wins(st: PageState, kind: PageKind) -> PageState {
    match kind {
        PageKind::Erased => PageState::Erased,
        PageKind::Torn => PageState::Torn,
        PageKind::Meta if !matches!(st, PageState::Metadata | PageState::Invalid) => PageState::Metadata,
        _ => st,
    }
}

/// Applies the revealed operations to page states as a chip applies them (the rules at the
/// top of this file); returns the blocks erased by them, those programmed since and the
/// data pages programmed since.
fn fold(states: &mut impl Pages, before: &State, ppb: u32, ops: &[Event]) -> Folded {
    // Blocks erased by these operations, and blocks programmed since their last erase
    // (or since the request began): erased and not filled is blank.
    let mut erased: HashSet<Pbn> = HashSet::new();
    let mut filled: HashSet<Pbn> = HashSet::new();
    let mut fresh: HashSet<Ppn> = HashSet::new();
    let mut last_read: Option<(Ppn, u32, u32)> = None;
    for e in ops {
        let Event::Op { kind, ppn, pbn, lpn, cause, content: kind_of, version } = *e else { continue };
        match kind {
            OpKind::Read | OpKind::ReadOob => {
                if kind_of == PageKind::Data {
                    last_read = Some((ppn, lpn, version));
                }
            }
            OpKind::Erase => {
                for p in pbn * ppb..(pbn + 1) * ppb {
                    states.set(p, PageState::Erased);
                }
                erased.insert(pbn);
                filled.remove(&pbn);
                fresh.retain(|p| p / ppb != pbn);
            }
            OpKind::Program => {
                filled.insert(pbn);
                if kind_of != PageKind::Data {
                    states.set(ppn, if kind_of == PageKind::Meta { PageState::Metadata } else { PageState::Invalid });
                    continue;
                }
                fresh.insert(ppn);
                let state = if cause == Cause::Host {
                    // The write in flight: valid beside the acknowledged copy, which
                    // turns invalid when the map points to the new one (`by_map`).
                    PageState::Valid
                } else {
                    // A copy: as valid as its source; a source shown invalid may be a
                    // duplicate of the newest version (recovery copies whichever it
                    // finds), and no read revealed means a program from RAM.
                    let src = match last_read {
                        Some((src, l, v)) if l == lpn && v == version => Some(states.get(src)),
                        _ => None,
                    };
                    match src {
                        Some(st @ (PageState::Valid | PageState::Retractable)) => st,
                        _ => {
                            // The map's copy counts only while its page holds this LPN: the
                            // RAM lost at a cut inside a recovery may point to a page since
                            // erased and programmed with another LPN by that recovery.
                            let newest = before
                                .ftl
                                .locate(lpn)
                                .map(|p| before.flash.peek(p))
                                .filter(|pg| pg.kind == PageKind::Data && pg.lpn == lpn)
                                .map_or(0, |pg| pg.version);
                            if version >= newest {
                                PageState::Valid
                            } else {
                                PageState::Invalid
                            }
                        }
                    }
                };
                states.set(ppn, state);
            }
        }
    }
    Folded { erased, filled, fresh }
}

/// Roles and owners inside a request (or recovery): the paused RAM's, with the rules at
/// the top of this file; `base_*` are those of the moment before it.
fn blocks_during(
    base_roles: &[BlockRole],
    base_owners: &[Vec<u32>],
    now: &State,
    erased: &HashSet<Pbn>,
    filled: &HashSet<Pbn>,
) -> (Vec<BlockRole>, Vec<Vec<u32>>) {
    let blocks = now.flash.blocks();
    let mut roles = Vec::with_capacity(blocks as usize);
    let mut owners = Vec::with_capacity(blocks as usize);
    for b in 0..blocks {
        let i = b as usize;
        let empty = now.flash.block_pages(b).iter().all(|p| p.is_erased());
        let blank = erased.contains(&b) && !filled.contains(&b);
        if blank || (empty && base_roles[i] == BlockRole::Free) {
            // Erased, or allocated in RAM and not opened yet: the role comes with the
            // block's first program.
            roles.push(BlockRole::Free);
            owners.push(Vec::new());
            continue;
        }
        let mut role = now.ftl.block_role(b);
        let mut own = now.ftl.block_owners_all(b);
        if role == BlockRole::Free && !empty {
            // Pages are there: the block is not free before it is erased.
            role = if base_roles[i] != BlockRole::Free {
                base_roles[i]
            } else if filled.contains(&b) {
                BlockRole::GcDestination
            } else if now.flash.block_pages(b).iter().any(|p| p.kind == PageKind::Meta) {
                BlockRole::Metadata
            } else {
                BlockRole::Free
            };
        }
        if role != BlockRole::Free && role == base_roles[i] && !erased.contains(&b) {
            // Served logical blocks are dropped at the erase, not when RAM forgets them.
            for &l in &base_owners[i] {
                if !own.contains(&l) {
                    own.push(l);
                }
            }
        }
        roles.push(role);
        owners.push(own);
    }
    (roles, owners)
}

/// A moment inside a request read page by page (`Display::during` without the pass over
/// every page): `base(p)` is the display before the request, `ops` the operations revealed.
/// Equal to `Display::during(..).states[p]` for every page (tests/delta.rs).
pub struct DuringPages<'a> {
    now: &'a State,
    changed: HashMap<Ppn, PageState>,
    fresh: HashSet<Ppn>,
    map: bool,
    base: &'a dyn Fn(Ppn) -> PageState,
    /// Roles and owners of the moment (all blocks: cheap beside the pages).
    pub roles: Vec<BlockRole>,
    pub owners: Vec<Vec<u32>>,
}

impl<'a> DuringPages<'a> {
    pub fn new(
        base: &'a dyn Fn(Ppn) -> PageState,
        base_roles: &[BlockRole],
        base_owners: &[Vec<u32>],
        before: &State,
        now: &'a State,
        ops: &[Event],
        map: bool,
    ) -> DuringPages<'a> {
        let mut sp = Sparse { base, changed: HashMap::new() };
        let f = fold(&mut sp, before, now.flash.ppb(), ops);
        let (roles, owners) = blocks_during(base_roles, base_owners, now, &f.erased, &f.filled);
        DuringPages { now, changed: sp.changed, fresh: f.fresh, map, base, roles, owners }
    }

    /// The state page `p` shows at this moment.
    pub fn state(&self, p: Ppn) -> PageState {
        let st = self.chip(p);
        if self.map {
            by_map(st, p, self.now, &self.fresh, &|q| self.chip(q))
        } else {
            st
        }
    }

    /// The state of page `p` by the fold and the chip alone.
    fn chip(&self, p: Ppn) -> PageState {
        let st = self.changed.get(&p).copied().unwrap_or_else(|| (self.base)(p));
        chip_wins(st, self.now.flash.peek(p).kind)
    }
}
