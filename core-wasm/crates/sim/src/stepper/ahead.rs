//! "Run to end" (issue 37 item 4): the player's run on the full-speed loop, without the
//! run log's probe a request. The run goes stretch by stretch (a stretch ends at the run
//! log's next sample) with the log taken as covering it: a stretch on the full-speed loop,
//! or on the player's when a keyframe position falls in it, so the keyframes are the
//! player's (sparse, within the Session's budget: scrubbing after the run replays from
//! them as after a player run). Each stretch is then checked as a whole by the
//! chip's and the host's counts (`runlog::Quiet`): a quiet stretch has no marker, and its
//! sample is read from the counters at its end. A stretch that was not quiet is run again
//! logged, from the nearest kept state before it (`seek_to`: after a recovery, the branch's), and from the first
//! such stretch on the run is logged request by request, as before: a chip that has begun
//! collecting garbage usually goes on, and a chip too large for keyframes replays from
//! step 0 each time. A scheme that says how many writes stay quiet (`Ftl::quiet_writes`)
//! has the first stretch that may clean logged at once, with no replay. The log, the
//! state, the keyframes and the timeline are those of `run` (tests/run_ahead.rs).

use super::Stepper;
use crate::runlog::Quiet;

impl Stepper {
    /// Runs up to `n` requests as `run` does, with the run log taken stretch by stretch
    /// while the run is quiet (above); returns how many ran.
    pub fn run_ahead(&mut self, n: usize) -> Result<usize, String> {
        let start = self.sim.pos();
        let end = start.saturating_add(n).min(self.sim.total());
        if self.ahead_logged_from.is_some()
            || self.sim.mode() != crate::sim::RunMode::Player
            || self.sim.log.upto() != start
        {
            return self.run(end - start);
        }
        self.begin_run()?;
        while self.sim.pos() < end && self.ahead_logged_from.is_none() {
            let a = self.sim.pos();
            let b = self.sim.log.stretch_end(a, end);
            // A stretch with more requests than the scheme's quiet writes may clean: logged at
            // once, not run unlogged, found not quiet and run again from the nearest kept
            // state (page mapping on 8,192 x 64: no 12 MB keyframe in the Session's 16 MB, so
            // its quiet first half was replayed from step 0, a third of the run; issue 37).
            if self.sim.state.ftl.quiet_writes().is_some_and(|q| q < (b - a) as u64) {
                self.ahead_logged_from = Some(a);
                break;
            }
            let before = Quiet::of(&self.sim.state.flash, &self.sim.state.host);
            self.sim.log.skip_to(b);
            // A stretch with a keyframe position in it goes by the player's loop, which
            // keeps it; the rest by the full-speed loop (the player's without its probe
            // and its per-request checks: 15 % less CPU on 65,536 x 64 in Node).
            let k = self.sim.keyframe_interval();
            let keyframe_in = (a > 0 && a.is_multiple_of(k)) || a / k != (b - 1) / k;
            let ran = if keyframe_in { self.sim.run(b - a) } else { self.sim.run_unlogged(b - a) };
            let after = Quiet::of(&self.sim.state.flash, &self.sim.state.host);
            if ran.is_ok() && self.sim.pos() == b && before.quiet(&after, b - a) {
                self.sim.log.passed(&self.sim.state.flash, self.sim.state.host.writes);
                continue;
            }
            // Not quiet (or failed): again from `a`, logged (the replay to `a` is not).
            self.ahead_logged_from = Some(a);
            self.sim.log.rewind(a);
            self.seek_to(a)?;
            self.sim.run(b - a)?;
        }
        if self.sim.pos() < end {
            self.sim.run(end - self.sim.pos())?;
        }
        Ok(self.sim.pos() - start)
    }

    /// The request from which `run_ahead` logs request by request (the first stretch that
    /// was not quiet), if it has met one.
    pub fn run_ahead_logged_from(&self) -> Option<usize> {
        self.ahead_logged_from
    }
}
