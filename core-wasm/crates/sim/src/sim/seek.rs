//! Time travel: the state after any request, rebuilt from the nearest kept state (a
//! keyframe, the one near the cursor, or step 0's) and a replay; deterministic, so equal
//! to running there.

use super::{RunMode, Simulator, State};
use crate::ftl::Ftl;
use crate::nand::{Flash, Page};

/// Bytes a request's replay counts as in a `Rebuild`'s parts (a request ~ copying a few
/// hundred bytes to a KB).
const REQUEST_BYTES: usize = 1024;

/// The state after a request behind the cursor (`Simulator::state_at`), rebuilt in parts
/// of about a given size (`Simulator::rebuild_part`): a copy of a chip of millions of pages
/// is one task of 50-60 ms otherwise, the worker's longest while stepping back (issue 37
/// item 3). The kept state it copies stays as it is between parts unless the simulator's
/// `kept_gen` changes: then the parts start again.
pub struct Rebuild {
    step: usize,
    gen: u64,
    part: Part,
}

enum Part {
    /// Nothing copied yet.
    Start,
    /// The kept state at `from` being copied: the chip, its pages so far, then the scheme.
    Copy { from: usize, flash: Box<Flash>, ftl: Option<Box<dyn Ftl>> },
    /// The copy, replayed so far towards `step`.
    Replay(Box<State>),
}

impl Rebuild {
    /// The request the state is rebuilt after.
    pub fn step(&self) -> usize {
        self.step
    }
}

/// Requests `rebuilds_behind` lets a rebuild replay: about the time a copy of a chip of
/// millions of pages takes (a request ~ copying a few hundred bytes).
pub const REBUILD_REPLAY: usize = 1 << 16;

impl Simulator {
    /// The state after `step` requests: the nearest keyframe at or before it, then replay.
    /// Equal to a fresh replay because everything is deterministic.
    pub fn seek(&mut self, step: usize) -> Result<(), String> {
        self.seek_from(step, &mut None)
    }

    /// `seek`, taking `spare` (a state of this run the caller made earlier, `state_at`) by
    /// move instead of copying a kept state when it is the nearest state at or before
    /// `step` that the replay can start from; left in place otherwise. A copy of a chip of
    /// millions of pages is most of a step back's time (issue 37 item 3).
    pub fn seek_from(&mut self, step: usize, spare: &mut Option<State>) -> Result<(), String> {
        let step = step.min(self.total());
        if self.base > 0 && (step < self.state.pos || self.error.is_some()) {
            return Err("a streamed run keeps only its last batch: it cannot go back".into());
        }
        let recording = self.state.flash.recording();
        let back = step < self.state.pos;
        let from = if back || self.error.is_some() { 0 } else { self.state.pos + 1 };
        if self.takes_spare(step, from, spare) {
            self.error = None;
            self.state = spare.take().expect("checked");
        } else if back || self.error.is_some() {
            self.error = None;
            self.state = self.copy_of(self.kept_at(step));
        } else if let Some(k) = self.kept_at(step).filter(|k| k.pos > self.state.pos).cloned() {
            self.state = k;
        }
        self.state.flash.set_recording(false);
        let mut r = Ok(0);
        // A long replay: keep the state `near_gap` requests before the target, so the
        // steps back that follow replay from there. Forward too (opening a run at a
        // moment, a long scrub ahead: the first step back then replays a few requests, not
        // the run from its start; issue 37 item 3) when the replay costs at least about
        // what the copy does (a request ~ copying 1 KB; a state ~ 20 bytes a page).
        let replay = step - self.state.pos;
        let worth_a_copy = back || replay.saturating_mul(50) >= self.state.flash.geometry().pages() as usize;
        if worth_a_copy && self.near_gap > 0 && replay > 2 * self.near_gap {
            let mid = step - self.near_gap;
            r = self.replay(mid - self.state.pos, step);
            if r.is_ok() {
                self.near = Some(self.state.clone());
            }
        }
        if r.is_ok() {
            let n = step - self.state.pos;
            r = self.replay(n, step);
        }
        self.state.flash.set_recording(recording);
        r.map(|_| ())
    }

    /// The nearest kept state at or before `step`: a keyframe or the one near the cursor
    /// (None: step 0's, built afresh).
    fn kept_at(&self, step: usize) -> Option<&State> {
        let kf = self.keyframes.iter().rev().find(|k| k.pos <= step);
        let near = self.near.as_ref().filter(|k| k.pos <= step);
        match (kf, near) {
            (Some(k), Some(n)) => Some(if n.pos > k.pos { n } else { k }),
            (k, n) => k.or(n),
        }
    }

    /// A copy of a kept state, or step 0's state built afresh.
    fn copy_of(&self, kept: Option<&State>) -> State {
        match kept {
            Some(k) => k.clone(),
            None => {
                let mut s = (self.fresh)();
                s.clock.config = self.timing;
                s
            }
        }
    }

    /// The state after `step` requests, for a step behind the cursor, rebuilt as `seek`
    /// rebuilds it (the nearest kept state, then replay; no near keyframe taken) while
    /// this one stays where it is: the state before a request the stepper ran without
    /// copying the chip first (stepper.rs `begin`; issue 37 item 3). Only on the recorded
    /// run (a branch after a recovery replays from its own roots) and not on a streamed
    /// run (its earlier batches are gone).
    pub fn state_at(&mut self, step: usize) -> Result<State, String> {
        self.state_at_from(step, &mut None)
    }

    /// `state_at`, taking `spare` by move as `seek_from` does.
    pub fn state_at_from(&mut self, step: usize, spare: &mut Option<State>) -> Result<State, String> {
        if step > self.state.pos || self.base > 0 || self.error.is_some() {
            return Err(format!("request {step} cannot be rebuilt from request {}", self.state.pos));
        }
        let recording = self.state.flash.recording();
        let mut here = match self.takes_spare(step, 0, spare) {
            true => spare.take().expect("checked"),
            false => self.copy_of(self.kept_at(step)),
        };
        std::mem::swap(&mut self.state, &mut here);
        self.state.flash.set_recording(false);
        let r = self.replay(step - self.state.pos, step);
        std::mem::swap(&mut self.state, &mut here);
        self.state.flash.set_recording(recording);
        // A failed replay left its message in `error`: the run at the cursor did not fail.
        let e = self.error.take();
        r.map(|_| here).map_err(|m| e.unwrap_or(m))
    }

    /// `state_at(step)` to be made in parts (`rebuild_part`), between the owner's moves.
    pub fn rebuild(&self, step: usize) -> Rebuild {
        Rebuild { step, gen: self.kept_gen, part: Part::Start }
    }

    /// Whether `r`'s parts still add up to the state after its step: no kept state was added,
    /// dropped or replaced (the one it copies, or one its copy would no longer start from)
    /// and the run's timing is the same, since it began.
    pub fn rebuild_holds(&self, r: &Rebuild) -> bool {
        let copies = |from: usize| self.kept_at(r.step).is_some_and(|k| k.pos == from);
        r.gen == self.kept_gen && !matches!(r.part, Part::Copy { from, .. } if !copies(from))
    }

    /// The next part of `r` (one that holds: `rebuild_holds`), about `bytes` of copying or
    /// the replay of as many requests as cost that: the state once the last is done, equal
    /// to `state_at(r.step())`.
    pub fn rebuild_part(&mut self, r: &mut Rebuild, bytes: usize) -> Result<Option<State>, String> {
        let step = r.step;
        if step > self.state.pos || self.base > 0 || self.error.is_some() {
            return Err(format!("request {step} cannot be rebuilt from request {}", self.state.pos));
        }
        r.part = match std::mem::replace(&mut r.part, Part::Start) {
            Part::Start => match self.kept_at(step) {
                None => Part::Replay(Box::new(self.copy_of(None))),
                Some(k) => {
                    let mut flash = Box::new(k.flash.clone_but_pages());
                    flash.copy_pages(&k.flash, bytes / size_of::<Page>());
                    Part::Copy { from: k.pos, flash, ftl: None }
                }
            },
            Part::Copy { from, mut flash, ftl } => {
                let k = self.kept_at(step).filter(|k| k.pos == from).expect("rebuild_holds");
                let pages_done = flash.copy_pages(&k.flash, bytes / size_of::<Page>());
                match ftl {
                    _ if !pages_done => Part::Copy { from, flash, ftl },
                    // The pages done: the scheme's copy next, in the same part.
                    None => Part::Copy { from, flash, ftl: Some(k.ftl.clone()) },
                    Some(ftl) => Part::Replay(Box::new(State {
                        flash: *flash,
                        ftl,
                        oracle: k.oracle.clone(),
                        host: k.host.clone(),
                        next_version: k.next_version,
                        pos: k.pos,
                        clock: k.clock.clone(),
                    })),
                }
            }
            Part::Replay(mut here) => {
                let recording = self.state.flash.recording();
                std::mem::swap(&mut self.state, &mut *here);
                self.state.flash.set_recording(false);
                let n = (step - self.state.pos).min((bytes / REQUEST_BYTES).max(1));
                let r = self.replay(n, step);
                std::mem::swap(&mut self.state, &mut *here);
                self.state.flash.set_recording(recording);
                // A failed replay left its message in `error`: the run at the cursor did not fail.
                let e = self.error.take();
                r.map_err(|m| e.unwrap_or(m))?;
                Part::Replay(here)
            }
        };
        // A replay's keyframes are kept states of this run too: the rebuild still holds.
        r.gen = self.kept_gen;
        if let Part::Replay(s) = &mut r.part {
            // As `state_at` leaves it (a keyframe taken mid-request may be recording).
            s.flash.set_recording(false);
        }
        match &r.part {
            Part::Replay(s) if s.pos == step => match std::mem::replace(&mut r.part, Part::Start) {
                Part::Replay(s) => Ok(Some(*s)),
                _ => unreachable!(),
            },
            _ => Ok(None),
        }
    }

    /// Whether `state_at` can rebuild the state after `step` requests behind the cursor,
    /// and cheaply: a kept state (or step 0) at most `REBUILD_REPLAY` requests before
    /// `step`. A chip with no keyframe and no near one (too large for either) far into its
    /// run copies instead.
    pub fn rebuilds_behind(&self, step: usize, spare: Option<&State>) -> bool {
        let kept = self.kept_at(step).map_or(0, |k| k.pos);
        let from = spare.map(|s| s.pos).filter(|&p| p <= step).map_or(kept, |p| p.max(kept));
        self.base == 0 && self.error.is_none() && step.saturating_sub(from) <= REBUILD_REPLAY
    }

    /// Whether a replay to `step` starts from `spare` rather than from a kept state: it lies
    /// at or before `step`, at `from` or later, and no kept state lies nearer `step`. On the
    /// recorded run only (a streamed run's earlier batches are gone).
    fn takes_spare(&self, step: usize, from: usize, spare: &Option<State>) -> bool {
        let kept = self.kept_at(step).map_or(0, |k| k.pos);
        self.base == 0 && spare.as_ref().is_some_and(|s| s.pos <= step && s.pos >= from && s.pos >= kept)
    }

    /// `n` requests of a seek's replay to `step`. A span the run log already covers, with no
    /// keyframe position in it that the player's loop would keep (`keyframe_here`), replays
    /// on the full-speed loop: the player's would run the same requests slower, request by
    /// request through `dyn Ftl`, to the same state (`Stepper::run_ahead`'s rewind to its
    /// first stretch that was not quiet replayed page mapping's first half that way: 1.9x
    /// the loop's instructions for its run; issue 37 item 5).
    fn replay(&mut self, n: usize, step: usize) -> Result<usize, String> {
        let end = self.state.pos + n;
        // The first position from here on where `keyframe_here` would keep a state.
        let lo = self.state.pos.max(self.keyframes.last().map_or(0, |k| k.pos + 1)).max(1);
        let next_keyframe = lo.div_ceil(self.interval.max(1)).checked_mul(self.interval.max(1));
        let no_keyframe = next_keyframe.is_none_or(|k| k >= end);
        if self.mode == RunMode::Player && self.log.upto() >= step && no_keyframe {
            self.run_unlogged(n)
        } else {
            self.run(n)
        }
    }
}
