//! Snapshots by change (issue 26): what the moment shown changed since the last delta the
//! app took, computed from what the operations touched rather than by comparing the whole
//! chip. Each move marks the blocks the request in play touches (its operations, and the
//! blocks holding the copies its write replaces); a delta then carries every page of those
//! blocks as the moment shows it, and every block whose role, owners or erase count
//! changed (all blocks compared: they are few beside the pages). A move the stepper cannot
//! follow that way (a seek, a full-speed run, power cut and recovery, a time-shift request)
//! asks for a full snapshot instead. The delta equals what a full snapshot shows
//! (tests/delta.rs).

use super::Stepper;
use crate::ftl::PageState;
use crate::moment::{blocks_of, DuringPages};
use crate::nand::{Event, PageKind, Pbn, Ppn, NONE};
use crate::trace::Request;

/// What the app last received, and what changed since.
#[derive(Default)]
pub(super) struct Track {
    /// The next delta must be a full snapshot.
    full: bool,
    /// Blocks whose pages may have changed since the last delta.
    blocks: Vec<Pbn>,
    /// Blocks as last sent (empty before the first snapshot).
    roles: Vec<u8>,
    owners: Vec<Vec<u32>>,
    erases: Vec<u32>,
}

/// The change since the last delta (or a request for a full snapshot).
#[derive(Debug, Default, Clone, PartialEq)]
pub struct Delta {
    /// Read the whole moment instead (the other fields are empty).
    pub full: bool,
    /// Pages whose state or LPN may have changed, with the moment's (a superset of the changes).
    pub pages: Vec<u32>,
    pub states: Vec<u8>,
    pub lpns: Vec<u32>,
    /// Blocks whose pages, role, owners or erase count may have changed.
    pub blocks: Vec<u32>,
    pub roles: Vec<u8>,
    /// The first logical block served, -1 for none (as `block_owners`).
    pub owners: Vec<i32>,
    /// Every logical block served (several for a shared KRAFT/KAST log block).
    pub owner_sets: Vec<Vec<u32>>,
    pub erase_counts: Vec<u32>,
}

impl Track {
    /// The app reads the whole moment next.
    pub(super) fn need_full(&mut self) {
        self.full = true;
        self.blocks.clear();
    }
}

impl Stepper {
    /// The blocks the request in play touches, to be sent with the next delta.
    pub(super) fn mark_request(&mut self) {
        if self.power.is_some() || self.rec.is_some() || self.recovery_events {
            // Power cuts and recoveries are followed by full snapshots.
            self.track.need_full();
        } else if let Some(b) = &self.req_blocks {
            if !self.track.full {
                self.track.blocks.extend_from_slice(b);
            }
        } else {
            self.track.need_full();
        }
    }

    /// The blocks a request just run touched: those of its operations and those holding its
    /// LPN before (`old`: the copy a write replaces) and after.
    pub(super) fn note_request(&mut self, req: Request, old: Option<Ppn>) {
        let ppb = self.sim.state.flash.ppb();
        let mut b: Vec<Pbn> =
            self.events.iter().filter_map(|e| if let Event::Op { pbn, .. } = e { Some(*pbn) } else { None }).collect();
        match req {
            Request::Write { lpn } | Request::Read { lpn } => {
                b.extend(old.map(|p| p / ppb));
                b.extend(self.sim.state.ftl.locate(lpn).map(|p| p / ppb));
            }
            // Freezing or reverting changes which pages are retractable anywhere.
            _ => {
                self.req_blocks = None;
                return;
            }
        }
        b.sort_unstable();
        b.dedup();
        self.req_blocks = Some(b);
    }

    /// The change since the last delta taken (or since the last full snapshot, after which
    /// the app calls this once to start following). Full when the stepper lost track.
    pub fn take_delta(&mut self) -> Delta {
        let off = self.power.is_some() || self.rec.is_some() || self.recovery_events && self.in_request;
        if self.track.full || off || self.track.roles.is_empty() {
            self.track.full = false;
            self.track.blocks.clear();
            // The app reads the full moment now; it becomes the base of the next delta.
            // Between requests only the blocks are read: the display's page states (4 M
            // on 65,536 x 64, 20-50 ms in wasm) are made when a getter asks (issue 37: the
            // return from Run to end to the moment the page holds asks for none).
            let (roles, owners) = match self.shown.get() {
                None if !off && !self.in_request => blocks_of(self.view()),
                _ => (self.display().roles.clone(), self.display().owners.clone()),
            };
            self.track.roles = roles.iter().map(|&r| r as u8).collect();
            self.track.owners = owners;
            self.track.erases = self.view().flash.erase_counts().to_vec();
            return Delta { full: true, ..Delta::default() };
        }
        self.mark_request();
        let mut blocks = std::mem::take(&mut self.track.blocks);
        let (roles, owners, states) = self.blocks_and_pages(&mut blocks);
        let view = self.view();
        let ppb = view.flash.ppb();
        let erases = view.flash.erase_counts();
        let mut d = Delta::default();
        for (i, &b) in blocks.iter().enumerate() {
            for (j, p) in (b * ppb..(b + 1) * ppb).enumerate() {
                let page = view.flash.peek(p);
                d.pages.push(p);
                d.states.push(states[i * ppb as usize + j]);
                d.lpns.push(if page.kind == PageKind::Data { page.lpn } else { NONE });
            }
        }
        // Blocks: every one whose pages are sent, and every one whose role, owners or erase
        // count differs from what was sent.
        let mut bi = 0;
        for b in 0..roles.len() {
            let touched = bi < blocks.len() && blocks[bi] as usize == b;
            if touched {
                bi += 1;
            }
            let t = &self.track;
            if touched || roles[b] != t.roles[b] || owners[b] != t.owners[b] || erases[b] != t.erases[b] {
                d.blocks.push(b as u32);
                d.roles.push(roles[b]);
                d.owners.push(owners[b].first().map_or(-1, |&l| l as i32));
                d.owner_sets.push(owners[b].clone());
                d.erase_counts.push(erases[b]);
            }
        }
        self.track.erases = erases.to_vec();
        self.track.roles = roles;
        self.track.owners = owners;
        d
    }

    /// Roles and owners of every block at the moment shown, and the states of the pages of
    /// `blocks` (sorted on return; blocks whose role or owners changed are added: a scheme
    /// may read a page's state from its block's role).
    fn blocks_and_pages(&self, blocks: &mut Vec<Pbn>) -> (Vec<u8>, Vec<Vec<u32>>, Vec<u8>) {
        let view = self.view();
        let ppb = view.flash.ppb();
        let pages_of = |blocks: &[Pbn], f: &dyn Fn(Ppn) -> PageState| -> Vec<u8> {
            blocks.iter().flat_map(|&b| (b * ppb..(b + 1) * ppb).map(|p| f(p) as u8)).collect()
        };
        let with_changed = |blocks: &mut Vec<Pbn>, roles: &[u8], owners: &[Vec<u32>]| {
            let t = &self.track;
            // A page's state may hang on another block of its logical block (GFTL's and
            // RFTL's cleaning jobs span requests): every block serving a logical block that
            // a touched block serves (before or now) is sent whole.
            let mut lbns: Vec<u32> =
                blocks.iter().flat_map(|&b| owners[b as usize].iter().chain(&t.owners[b as usize]).copied()).collect();
            lbns.sort_unstable();
            lbns.dedup();
            let serves = |o: &[u32]| o.iter().any(|l| lbns.binary_search(l).is_ok());
            blocks.extend(
                (0..roles.len())
                    .filter(|&b| {
                        roles[b] != t.roles[b]
                            || owners[b] != t.owners[b]
                            || (!lbns.is_empty() && (serves(&owners[b]) || serves(&t.owners[b])))
                    })
                    .map(|b| b as Pbn),
            );
            blocks.sort_unstable();
            blocks.dedup();
        };
        if let (true, Some(before)) = (self.in_request, self.before.as_ref()) {
            // Inside a request: the display before it (the scheme's own view of `before`,
            // read page by page) with the operations revealed applied (src/moment.rs).
            let base = |p: Ppn| match self.base.get() {
                Some(d) => d.states[p as usize],
                None => before.ftl.page_state(&before.flash, p),
            };
            let (br, bo) = match self.base.get() {
                Some(d) => (d.roles.clone(), d.owners.clone()),
                None => blocks_of(before),
            };
            let during = DuringPages::new(&base, &br, &bo, before, view, &self.events[..self.cursor], true);
            let roles: Vec<u8> = during.roles.iter().map(|&r| r as u8).collect();
            let owners = during.owners.clone();
            with_changed(blocks, &roles, &owners);
            let states = pages_of(blocks, &|p| during.state(p));
            return (roles, owners, states);
        }
        // Between requests the scheme's own view is the truth.
        let (r, owners) = blocks_of(view);
        let roles: Vec<u8> = r.iter().map(|&r| r as u8).collect();
        with_changed(blocks, &roles, &owners);
        let states = pages_of(blocks, &|p| view.ftl.page_state(&view.flash, p));
        (roles, owners, states)
    }
}
