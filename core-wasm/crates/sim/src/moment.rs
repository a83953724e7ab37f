//! What a moment shows (docs/architecture.md, "What a moment shows"): page states, block
//! roles and owners at a flash-operation boundary.
//!
//! Between requests a scheme's RAM is consistent, so its own view (`Ftl::page_state`,
//! `block_role`, `block_owners_all`) is the truth: `Display::of`. Inside a request the
//! app pauses the scheme after k operations and the RAM is half-updated (a log entry
//! dropped, the block map not yet switched), so reading it draws pictures no chip can
//! hold. `Display::during` starts from the display before the request and applies the k
//! operations revealed, the way a chip changes:
//! - a host program makes its page valid; the acknowledged copy stays valid until the
//!   write completes (a cut may still lose the write: recovery then keeps the old copy);
//! - a copy (a program by a merge, GC, fill or recovery) takes the state of the page it
//!   was read from: source and destination are both valid while the merge runs; the
//!   source stops being valid when its block is erased, i.e. when the merge that moved it
//!   is complete, or when the request ends;
//! - a metadata program is metadata; an erase makes the block's pages erased.
//!
//! Roles and owners are the paused RAM's, except that a block erased and not yet
//! programmed again reads FREE (a new role appears at the operation that opens it), a
//! block holding pages never reads FREE before its erase (it keeps its role from before
//! the request, or is the destination being filled), and a block keeps the logical blocks
//! it served until it is erased (a multi-LBN merge drops them at its victim's erase).

use std::collections::HashSet;

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
        let blocks = s.flash.blocks();
        Display {
            states: (0..pages).map(|p| s.ftl.page_state(&s.flash, p)).collect(),
            roles: (0..blocks).map(|b| s.ftl.block_role(b)).collect(),
            owners: (0..blocks).map(|b| s.ftl.block_owners_all(b)).collect(),
        }
    }

    /// The moment after `ops` (the operations revealed of a request or recovery) from the
    /// moment `base` shows, which is the display of `before`; `now` is the state paused
    /// (or cut) after them.
    pub fn during(base: &Display, before: &State, now: &State, ops: &[Event]) -> Display {
        let ppb = now.flash.ppb();
        let mut states = base.states.clone();
        // Blocks erased by these operations, and blocks programmed since their last erase
        // (or since the request began): erased and not filled is blank.
        let mut erased: HashSet<Pbn> = HashSet::new();
        let mut filled: HashSet<Pbn> = HashSet::new();
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
                        states[p as usize] = PageState::Erased;
                    }
                    erased.insert(pbn);
                    filled.remove(&pbn);
                }
                OpKind::Program => {
                    filled.insert(pbn);
                    if kind_of != PageKind::Data {
                        states[ppn as usize] =
                            if kind_of == PageKind::Meta { PageState::Metadata } else { PageState::Invalid };
                        continue;
                    }
                    let state = if cause == Cause::Host {
                        // The write in flight: valid beside the acknowledged copy, which
                        // turns invalid when the write completes (or stays valid if a cut
                        // loses the write).
                        PageState::Valid
                    } else {
                        // A copy: as valid as its source; a source shown invalid may be a
                        // duplicate of the newest version (recovery copies whichever it
                        // finds), and no read revealed means a program from RAM.
                        let src = match last_read {
                            Some((src, l, v)) if l == lpn && v == version => Some(states[src as usize]),
                            _ => None,
                        };
                        match src {
                            Some(st @ (PageState::Valid | PageState::Retractable)) => st,
                            _ => {
                                let newest = before.ftl.locate(lpn).map_or(0, |p| before.flash.peek(p).version);
                                if version >= newest {
                                    PageState::Valid
                                } else {
                                    PageState::Invalid
                                }
                            }
                        }
                    };
                    states[ppn as usize] = state;
                }
            }
        }
        // What the chip holds always wins over the derivation (a torn page is unreadable).
        for (p, page) in now.flash.pages().iter().enumerate() {
            let st = &mut states[p];
            match page.kind {
                PageKind::Erased => *st = PageState::Erased,
                PageKind::Torn => *st = PageState::Invalid,
                PageKind::Meta if !matches!(*st, PageState::Metadata | PageState::Invalid) => *st = PageState::Metadata,
                _ => {}
            }
        }

        let blocks = now.flash.blocks();
        let mut roles = Vec::with_capacity(blocks as usize);
        let mut owners = Vec::with_capacity(blocks as usize);
        for b in 0..blocks {
            let i = b as usize;
            let empty = now.flash.block_pages(b).iter().all(|p| p.is_erased());
            let blank = erased.contains(&b) && !filled.contains(&b);
            if blank || (empty && base.roles[i] == BlockRole::Free) {
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
                role = if base.roles[i] != BlockRole::Free {
                    base.roles[i]
                } else if filled.contains(&b) {
                    BlockRole::GcDestination
                } else if now.flash.block_pages(b).iter().any(|p| p.kind == PageKind::Meta) {
                    BlockRole::Metadata
                } else {
                    BlockRole::Free
                };
            }
            if role != BlockRole::Free && role == base.roles[i] && !erased.contains(&b) {
                // Served logical blocks are dropped at the erase, not when RAM forgets them.
                for &l in &base.owners[i] {
                    if !own.contains(&l) {
                        own.push(l);
                    }
                }
            }
            roles.push(role);
            owners.push(own);
        }
        Display { states, roles, owners }
    }

    /// The first logical block each block serves, -1 for none (`Session.block_owners`).
    pub fn first_owners(&self) -> Vec<i32> {
        self.owners.iter().map(|o| o.first().map_or(-1, |&l| l as i32)).collect()
    }
}
