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
        let touched = std::mem::take(&mut self.track.blocks);
        // The track is brought up to date in place (no per-block vectors made afresh a step:
        // issue 37, 65,536 blocks), apart from `self` so the moment can be read meanwhile.
        let mut t = std::mem::take(&mut self.track);
        let d = self.delta_from(&mut t, touched);
        self.track = t;
        d
    }

    /// The delta of the moment shown against `t` (what was sent), which it brings up to
    /// date: the pages of `blocks` (the blocks touched), and of every block whose role or
    /// owners changed (a scheme may read a page's state from its block's role), and every
    /// block whose role, owners or erase count changed.
    fn delta_from(&self, t: &mut Track, blocks: Vec<Pbn>) -> Delta {
        let view = self.view();
        let ppb = view.flash.ppb();
        let erases = view.flash.erase_counts();
        let (blocks, states) = if let (true, Some(before)) = (self.in_request, self.before.as_ref()) {
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
            let blocks = t.follow(blocks, |b| during.roles[b as usize] as u8, |b| during.owners[b as usize].clone());
            let states = pages_of(&blocks, ppb, |p| during.state(p));
            (blocks, states)
        } else {
            // Between requests the scheme's own view is the truth.
            let blocks = t.follow(blocks, |b| view.ftl.block_role(b) as u8, |b| view.ftl.block_owners_all(b));
            let states = pages_of(&blocks, ppb, |p| view.ftl.page_state(&view.flash, p));
            (blocks, states)
        };
        let mut d = Delta::default();
        for (i, &b) in blocks.iter().enumerate() {
            for (j, p) in (b * ppb..(b + 1) * ppb).enumerate() {
                let page = view.flash.peek(p);
                d.pages.push(p);
                d.states.push(states[i * ppb as usize + j]);
                d.lpns.push(if page.kind == PageKind::Data { page.lpn } else { NONE });
            }
        }
        // Blocks: every one whose pages are sent, and every one whose erase count changed
        // (an erase is an operation on its block, so these are normally among them).
        let mut sent = blocks;
        for (b, (e, was)) in erases.iter().zip(t.erases.iter_mut()).enumerate() {
            if e != was {
                *was = *e;
                sent.push(b as Pbn);
            }
        }
        sent.sort_unstable();
        sent.dedup();
        for b in sent {
            let o = &t.owners[b as usize];
            d.blocks.push(b);
            d.roles.push(t.roles[b as usize]);
            d.owners.push(o.first().map_or(-1, |&l| l as i32));
            d.owner_sets.push(o.clone());
            d.erase_counts.push(erases[b as usize]);
        }
        d
    }
}

impl Track {
    /// Compares every block's role and owners (`role`, `owners`: the moment's) with what was
    /// sent, bringing the track up to date; returns `touched` with the blocks whose role or
    /// owners changed and, when the touched blocks serve logical blocks, every block serving
    /// one of them before or now (GFTL's and RFTL's cleaning jobs span requests: a page's
    /// state may hang on another block of its logical block), sorted.
    fn follow(
        &mut self,
        mut touched: Vec<Pbn>,
        role: impl Fn(Pbn) -> u8,
        owners: impl Fn(Pbn) -> Vec<u32>,
    ) -> Vec<Pbn> {
        touched.sort_unstable();
        touched.dedup();
        // The blocks whose role or owners changed, with the owners they had.
        let mut changed: Vec<Pbn> = Vec::new();
        let mut had: Vec<Vec<u32>> = Vec::new();
        for (b, (r, o)) in self.roles.iter_mut().zip(self.owners.iter_mut()).enumerate() {
            let (nr, no) = (role(b as Pbn), owners(b as Pbn));
            if nr != *r || no != *o {
                *r = nr;
                had.push(std::mem::replace(o, no));
                changed.push(b as Pbn);
            }
        }
        let had_of = |b: Pbn| changed.binary_search(&b).ok().map(|i| &had[i]);
        let mut lbns: Vec<u32> = touched
            .iter()
            .flat_map(|&b| self.owners[b as usize].iter().chain(had_of(b).into_iter().flatten()).copied())
            .collect();
        lbns.sort_unstable();
        lbns.dedup();
        let mut blocks = touched;
        blocks.extend_from_slice(&changed);
        if !lbns.is_empty() {
            let serves = |o: &[u32]| o.iter().any(|l| lbns.binary_search(l).is_ok());
            blocks.extend(
                (0..self.owners.len() as Pbn)
                    .filter(|&b| serves(&self.owners[b as usize]) || had_of(b).is_some_and(|o| serves(o))),
            );
        }
        blocks.sort_unstable();
        blocks.dedup();
        blocks
    }
}

/// The states of the pages of `blocks`, block by block.
fn pages_of(blocks: &[Pbn], ppb: u32, state: impl Fn(Ppn) -> PageState) -> Vec<u8> {
    blocks.iter().flat_map(|&b| (b * ppb..(b + 1) * ppb).map(|p| state(p) as u8)).collect()
}
