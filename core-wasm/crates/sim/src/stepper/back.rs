//! Going back in the run (docs/architecture.md, "Op-exact moments"): seeking to a moment,
//! Back one flash operation, and the state made behind the moment while the app is idle
//! so that the next Back takes it instead of copying a kept state (issue 37 item 3).

use std::cell::OnceCell;

use super::Stepper;
use crate::nand::Event;
use crate::sim::State;

impl Stepper {
    /// The state after `step` requests, shown as stepping shows it: the last request's
    /// operations, notes and narration (so Back, a link or a scenario file opening at a
    /// request boundary reads like the moment reached by Step; issue 25). Right after a
    /// recovery the moment is the recovered state (`seek_to`), as stepping leaves it.
    pub fn seek(&mut self, step: usize) -> Result<(), String> {
        self.track.need_full();
        self.seek_shown(step)
    }

    /// `seek` without asking the app for a full snapshot: for restore_before, whose move
    /// the request blocks marked cover (stepper/delta.rs).
    fn seek_shown(&mut self, step: usize) -> Result<(), String> {
        let step = step.min(self.sim.total());
        if step == 0 || self.roots.iter().any(|r| r.state.pos >= step) {
            return self.seek_to(step);
        }
        self.seek_to(step - 1)?;
        if self.begin(false)? {
            self.reveal_to(self.n);
        }
        Ok(())
    }

    /// The state after `step` requests with no request shown. Seeking leaves a power cut
    /// (to the state before it). On a branch (after a recovery) it replays from the
    /// branch's recovered states, so the branch is kept; seeking before the first cut
    /// returns to the recorded run. For back_op: the request re-run is the one the app
    /// was shown (its blocks are marked), so the next delta follows.
    pub(super) fn seek_to(&mut self, step: usize) -> Result<(), String> {
        self.shown = OnceCell::new();
        if !self.roots.is_empty() {
            self.track.need_full();
        }
        if let Some(off) = self.power.take() {
            self.sim.state = off.before;
        }
        self.leave_recovery();
        self.forget_request();
        if self.roots.iter().any(|r| r.state.pos > step) {
            // Going back before a recovery: stepping forward again runs the requests
            // normally, so keyframes made after this point no longer hold.
            self.drop_roots(|r| r.state.pos <= step);
            self.sim.truncate_keyframes(step);
            if self.roots.is_empty() {
                self.branch_from = None;
            }
        }
        if let Some(root) = self.roots.last() {
            if step < self.sim.pos() || self.sim.pos() < root.state.pos {
                self.sim.state = root.state.clone();
            }
        }
        self.sim.seek_from(step, &mut self.behind)
    }

    /// The state after `step` requests plus `ops` flash operations of the next one
    /// (scrubbing, markers, the event list's "jump to this moment", tour stops).
    pub fn goto(&mut self, step: usize, ops: usize) -> Result<(), String> {
        self.shown = OnceCell::new();
        if ops == 0 {
            return self.seek(step);
        }
        self.track.need_full();
        self.seek_to(step)?;
        if !self.begin(true)? {
            return Ok(());
        }
        self.reveal_to(ops);
        Ok(())
    }

    /// Back one flash operation (into the previous request when between requests). In a
    /// recovery being revealed, back to its previous operation, then to the power cut.
    pub fn back_op(&mut self) -> Result<bool, String> {
        self.finish_behind();
        self.shown = OnceCell::new();
        self.mark_request();
        let r = self.back_op_inner();
        self.mark_request();
        r
    }

    fn back_op_inner(&mut self) -> Result<bool, String> {
        if self.rec.is_some() {
            if self.k > 1 {
                self.reveal_to(self.k - 1);
            } else {
                self.undo_recovery();
            }
            return Ok(true);
        }
        if self.power.is_some() {
            // Power off: back to the moment of the cut, powered.
            let off = self.power.take().unwrap();
            let ops = off.ops;
            let req = off.req;
            self.sim.state = off.before;
            self.forget_request();
            if let (Some(_), false) = (req, off.in_recovery) {
                if self.begin(true)? {
                    self.reveal_to(ops);
                }
            }
            return Ok(true);
        }
        if self.in_request {
            if self.k > 1 {
                self.reveal_to(self.k - 1);
            } else {
                self.restore_before();
            }
            return Ok(true);
        }
        // Between requests: into the request just completed.
        let have_before = !self.recovery_events
            && self.request.is_some()
            && self.before.as_ref().is_some_and(|b| b.pos + 1 == self.sim.pos());
        if !have_before && self.roots.last().is_some_and(|r| r.state.pos == self.sim.pos()) {
            // Right after a recovery: back into it, then to the power cut and the cut moment.
            let root = self.roots.last().unwrap();
            let (rec, events, verdict) = (root.rec.clone(), root.events.clone(), root.verdict.clone());
            self.forget_request();
            self.rec = Some(rec);
            self.events = events;
            self.verdict = verdict;
            self.n = self.events.iter().filter(|e| matches!(e, Event::Op { .. })).count();
            self.recovery_events = true;
            if self.n == 0 {
                self.undo_recovery();
            } else {
                self.in_request = true;
                self.reveal_to(self.n - 1);
            }
            return Ok(true);
        }
        if !have_before {
            if self.sim.pos() == 0 {
                return Ok(false);
            }
            if self.n <= 1 && self.request.is_some() && !self.recovery_events && self.roots.is_empty() {
                // The request shown complete had at most one operation (most do): back is
                // the previous request complete, so seek there once instead of re-running
                // this request from a keyframe only to restore the state before it (which
                // seeks again): one keyframe replay, no chip copy (issue 37 item 3).
                self.forget_request();
                let _ = self.seek_shown(self.sim.pos() - 1);
                return Ok(true);
            }
            let pos = self.sim.pos() - 1;
            self.mark_request();
            self.seek_to(pos)?;
            self.begin(true)?;
        }
        if self.n <= 1 {
            self.restore_before();
        } else {
            self.in_request = true;
            self.reveal_to(self.n - 1);
        }
        Ok(true)
    }

    /// The state before the request in progress: between requests again.
    /// The request before it is shown complete, as Step leaves it (`seek`).
    fn restore_before(&mut self) {
        // A request run without a copy first (`begin`) left the state after it: the
        // state before it is the moment after the request before, as `seek` shows it.
        let ran_here = self.before.is_none() && self.request.is_some();
        if let Some(b) = self.before.take() {
            self.sim.state = b;
        }
        let pos = self.sim.pos() - usize::from(ran_here);
        self.forget_request();
        if (pos > 0 || ran_here) && !self.roots.iter().any(|r| r.state.pos >= pos) {
            // On failure the moment stays as restored, without the request's events.
            let _ = self.seek_shown(pos);
        }
    }

    /// Back from the start of a recovery being revealed to the power cut it recovers from.
    fn undo_recovery(&mut self) {
        self.track.need_full();
        let Some(rec) = self.rec.take() else { return };
        self.sim.state = rec.cut;
        self.truncate_roots(self.roots.len().saturating_sub(1));
        self.branch_from = rec.branch_from;
        self.power = Some(rec.off);
        self.forget_request();
        self.verdict = None;
    }

    /// Makes, while the app is idle, the state the next Back replays from (`behind`): the
    /// moment shown is request j complete, and Back shows request j - 1 complete (rebuilt
    /// from the state after j - 2), or, when request j took several operations, its last
    /// but one (from the state after j - 1). A copy of a chip of millions of pages is most
    /// of a step back's time: made here, after the app has the moment, Back takes it by
    /// move (issue 37 item 3). Only between requests on the recorded run, near a kept state
    /// (`rebuilds_behind`); kept when the one held already serves. True when one was made.
    /// All at once: `prepare_back_part` makes it in short parts.
    pub fn prepare_back(&mut self) -> Result<bool, String> {
        loop {
            if let Prepare::Done(made) = self.prepare_back_part(usize::MAX)? {
                return Ok(made);
            }
        }
    }

    /// One part of `prepare_back`, about `bytes` of copying (or the replay of as many
    /// requests as cost that; `PREPARE_PART_BYTES` in the app): the copy is one task of
    /// 50-60 ms on a chip of 4 M pages otherwise, and a key pressed meanwhile waits for all
    /// of it (issue 37 item 3). Any move may come between two parts: the next part goes on
    /// while the state it makes is still the one the moment's Back needs and the kept
    /// state it copies is unchanged (`Simulator::rebuild_holds`), else starts again.
    pub fn prepare_back_part(&mut self, bytes: usize) -> Result<Prepare, String> {
        let Some(target) = self.behind_target() else {
            self.rebuilding = None;
            return Ok(Prepare::Done(false));
        };
        if !self.rebuilding.as_ref().is_some_and(|r| r.step() == target && self.sim.rebuild_holds(r)) {
            // The old ones go first, so their memory takes the new one.
            self.behind = None;
            self.rebuilding = None;
            self.rebuilding = Some(self.sim.rebuild(target));
        }
        let r = self.rebuilding.as_mut().expect("made above");
        match self.sim.rebuild_part(r, bytes) {
            Ok(None) => Ok(Prepare::More),
            Ok(Some(state)) => {
                self.rebuilding = None;
                self.behind = Some(state);
                Ok(Prepare::Done(true))
            }
            Err(e) => {
                self.rebuilding = None;
                Err(e)
            }
        }
    }

    /// The request after which `prepare_back` would make a state now; None when it makes
    /// none (see there).
    fn behind_target(&self) -> Option<usize> {
        let j = self.sim.pos();
        let quiet = self.power.is_none() && self.rec.is_none() && !self.recovery_events && self.roots.is_empty();
        if !quiet || self.in_request || self.before.is_some() || self.paused.is_some() || j < 2 {
            return None;
        }
        let several = self.request.is_some() && self.n > 1;
        let target = j - if several { 1 } else { 2 };
        let serves = |b: &State| b.pos <= target && target - b.pos <= crate::limits::NEAR_KEYFRAME_GAP;
        if self.behind.as_ref().is_some_and(serves) || !self.sim.rebuilds_behind(target, None) {
            return None;
        }
        Some(target)
    }

    /// Before a Back: the state being made in parts behind the moment, finished when it is
    /// the one this Back takes (the parts left cost less than the copy Back makes without).
    /// On failure Back goes on without it, as without a state prepared.
    fn finish_behind(&mut self) {
        let Some(r) = &self.rebuilding else { return };
        if self.behind_target() == Some(r.step()) && self.sim.rebuild_holds(r) {
            let _ = self.prepare_back();
        }
    }

    /// Whether a state made behind the moment (`prepare_back`), or one being made in parts,
    /// is held.
    pub fn holds_behind(&self) -> bool {
        self.behind.is_some() || self.rebuilding.is_some()
    }
}

/// Bytes of copying one part of the app's `prepare_back_part` does: 8 MB, a few ms of
/// wasm's memory.copy, so a key pressed while the worker is idle waits at most that long
/// (a chip of 4 M pages: about 13 parts, issue 37 item 3).
pub const PREPARE_PART_BYTES: usize = 8 << 20;

/// What a part of `Stepper::prepare_back_part` left.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Prepare {
    /// More parts to do.
    More,
    /// Nothing left to do; true when this part finished a state.
    Done(bool),
}
