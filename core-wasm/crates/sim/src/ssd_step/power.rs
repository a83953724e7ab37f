//! A power cut on a device stepped op by op (issue 40; docs/ssd.md, "Power cuts"): one
//! cut stops every die at the moment shown, each after the operations it has revealed
//! (a die inside a page request loses it and a program under way is torn, as the one-chip
//! Stepper's cut; a die between page requests stops there). RAM is lost on every die, so
//! power coming back starts every die's recovery from its own chip at once; their
//! operations are stepped in time order from the cut (each die's operations back to back,
//! ties to the lower die), and each die's verdict is its Stepper's (every LPN against the
//! die's reference model). Once every die has recovered, Step goes on with the run
//! (`resume`): the requests left, planned again from the recovered dies, from the end of
//! the slowest die's recovery. Back retraces that run, the recovery and the cut, and `goto`
//! leaves the cut for the recorded run.

use super::{op_ns, plan, DeviceStepper, OpSpan, Pos, Prior, Start};
use crate::crash::CrashOutcome;
use crate::crash::Recover;
use crate::nand::Event;
use crate::ssd::DeviceClock;
use crate::stepper::Stepper;

/// The device's power since a cut (`DeviceStepper::power_cut`).
pub(super) struct Cut {
    /// The device's time at the cut (the moment shown then).
    now_ns: u64,
    /// Every die's recovery (None: power still off).
    rec: Option<Vec<DieRecovery>>,
}

/// One die's recovery: its operations' durations and how many are revealed.
struct DieRecovery {
    op_ns: Vec<u64>,
    revealed: usize,
}

impl DieRecovery {
    fn start(&self, j: usize, t0: u64) -> u64 {
        t0 + self.op_ns[..j].iter().sum::<u64>()
    }
}

/// The device's power at the moment shown.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize, ts_rs::TS)]
#[ts(export)]
#[serde(rename_all = "snake_case")]
pub enum DevicePower {
    On,
    /// Cut: every die stopped, RAM lost.
    Off,
    /// Every die recovering from its chip, operations being revealed.
    Recovering,
    /// Every die's recovery revealed whole.
    Recovered,
}

/// One die's recovery at the moment shown.
#[derive(Clone, Debug, PartialEq, serde::Serialize, ts_rs::TS)]
#[ts(export)]
pub struct DieRecoveryMoment {
    pub die: u32,
    /// Recovery operations revealed and in all.
    pub op_cursor: u32,
    pub op_count: u32,
    /// The die's recovery time so far and in all (ns).
    #[ts(type = "number")]
    pub ns: u64,
    #[ts(type = "number")]
    pub total_ns: u64,
    /// Its verdict (the one-chip session's), once the die's recovery is revealed whole.
    pub verdict: Option<CrashOutcome>,
}

impl DeviceStepper {
    /// How each die recovers from its chip after a cut (the scheme's `recover`).
    pub fn set_recoverer(&mut self, r: Recover) {
        for s in &mut self.dies {
            s.set_recoverer(r.clone());
        }
        self.recoverer = Some(r);
    }

    pub fn power(&self) -> DevicePower {
        if let Some(a) = &self.after {
            return a.power();
        }
        match &self.cut {
            None => DevicePower::On,
            Some(Cut { rec: None, .. }) => DevicePower::Off,
            Some(Cut { rec: Some(r), .. }) if r.iter().all(|d| d.revealed == d.op_ns.len()) => DevicePower::Recovered,
            Some(_) => DevicePower::Recovering,
        }
    }

    /// Cuts power at the moment shown: every die stops after the operations it has
    /// revealed (see the module comment).
    pub fn power_cut(&mut self) -> Result<(), String> {
        if let Some(a) = &mut self.after {
            return a.power_cut();
        }
        if self.cut.is_some() {
            return Err("power is already off (or a recovery is shown): go back before the cut first".into());
        }
        if self.recoverer.is_none() {
            return Err("this device has no recovery".into());
        }
        let now_ns = self.now_ns();
        for d in 0..self.dies.len() {
            if let Err(e) = self.dies[d].power_cut() {
                // Leave no die off alone: power the ones already cut back at the cut moment.
                for s in &mut self.dies[..d] {
                    let _ = s.back_op();
                }
                return Err(format!("die {d}: {e}"));
            }
        }
        self.cut = Some(Cut { now_ns, rec: None });
        Ok(())
    }

    /// Power comes back on every die: each recovers from its own chip; the recovery's
    /// operations are then revealed by `step_op` in time order (`recover_whole`: all).
    pub fn recover(&mut self) -> Result<(), String> {
        if let Some(a) = &mut self.after {
            return a.recover();
        }
        let recover = self.recoverer.clone().ok_or("this device has no recovery")?;
        let Some(cut) = &mut self.cut else { return Err("power is on".into()) };
        if cut.rec.is_some() {
            return Err("the dies are already recovering".into());
        }
        let mut rec = Vec::with_capacity(self.dies.len());
        for (d, s) in self.dies.iter_mut().enumerate() {
            // The recovery's operations as the die's Stepper will reveal them (the same
            // chip, the same deterministic recovery), for their durations.
            let mut flash = s.view().flash.clone();
            flash.set_recording(true);
            let _ = recover(&mut flash);
            let t = *flash.timing();
            let op_ns: Vec<u64> = flash
                .take_events()
                .iter()
                .filter_map(|e| if let Event::Op { kind, .. } = e { Some(op_ns(*kind, &t)) } else { None })
                .collect();
            s.recover().map_err(|e| format!("die {d}: {e}"))?;
            rec.push(DieRecovery { op_ns, revealed: 0 });
        }
        cut.rec = Some(rec);
        Ok(())
    }

    /// Recovers every die and reveals every recovery operation.
    pub fn recover_whole(&mut self) -> Result<(), String> {
        if let Some(a) = &mut self.after {
            return a.recover_whole();
        }
        if matches!(self.power(), DevicePower::Off) {
            self.recover()?;
        }
        while self.step_recovery()? {}
        Ok(())
    }

    /// The recovery step next in time: (die, op index), ties to the lower die.
    fn next_recovery(&self) -> Option<(usize, usize)> {
        let cut = self.cut.as_ref()?;
        let rec = cut.rec.as_ref()?;
        (0..rec.len())
            .filter(|&d| rec[d].revealed < rec[d].op_ns.len())
            .min_by_key(|&d| (rec[d].start(rec[d].revealed, cut.now_ns), d))
            .map(|d| (d, rec[d].revealed))
    }

    /// The recovery step revealed last: largest (start, die) of each die's last.
    fn last_recovery(&self) -> Option<(usize, usize)> {
        let cut = self.cut.as_ref()?;
        let rec = cut.rec.as_ref()?;
        (0..rec.len())
            .filter(|&d| rec[d].revealed > 0)
            .max_by_key(|&d| (rec[d].start(rec[d].revealed - 1, cut.now_ns), d))
            .map(|d| (d, rec[d].revealed - 1))
    }

    /// One more recovery operation (false: every die's recovery is revealed).
    pub(super) fn step_recovery(&mut self) -> Result<bool, String> {
        let Some((d, _)) = self.next_recovery() else { return Ok(false) };
        self.dies[d].step_op().map_err(|e| format!("die {d}: {e}"))?;
        if let Some(Cut { rec: Some(rec), .. }) = &mut self.cut {
            rec[d].revealed += 1;
        }
        Ok(true)
    }

    /// While the power is off or a recovery is shown: one step forward.
    pub(super) fn step_cut(&mut self) -> Result<bool, String> {
        match self.power() {
            DevicePower::On => unreachable!("step_cut with the power on"),
            DevicePower::Off => Err("power is off: recover first (or go back before the cut)".into()),
            DevicePower::Recovering => self.step_recovery(),
            DevicePower::Recovered => {
                self.resume()?;
                let a = self.after.as_mut().expect("resumed");
                if a.step_op()? {
                    return Ok(true);
                }
                // Nothing left to run after the cut.
                self.collapse();
                Ok(false)
            }
        }
    }

    /// Every die has recovered: the run goes on (`after`) with the requests left, planned
    /// from the recovered dies (each die's page requests done skipped, the one it lost in
    /// flight among them: it was never acknowledged). *Choice* (docs/ssd.md): the device
    /// takes requests again once the slowest die has recovered (the host sees one device),
    /// and a host request that arrived before that is served from then.
    fn resume(&mut self) -> Result<(), String> {
        let Some(Cut { now_ns, rec: Some(rec) }) = &self.cut else { return Err("no recovery to go on from".into()) };
        let rec_ns: Vec<u64> = rec.iter().map(|r| r.op_ns.iter().sum()).collect();
        let t0 = now_ns + rec_ns.iter().copied().max().unwrap_or(0);
        let done: Vec<usize> = self.dies.iter().map(|s| s.step()).collect();
        let states = self.dies.iter().map(|s| s.view().clone()).collect();
        let clock = DeviceClock::new(&self.shape, self.transfer_ns);
        let planned = plan(&self.workload, Start { states, done: done.clone(), t0 }, clock, self.unit)?;
        let mut a = DeviceStepper::planned(
            self.shape,
            self.unit,
            planned,
            self.fresh.clone(),
            self.keyframe_bytes,
            self.workload.clone(),
            self.transfer_ns,
        );
        a.base = done;
        a.t0 = t0;
        // A die's busy time so far: its steps before the cut and its recovery's operations.
        a.busy = self.busy.iter().zip(&rec_ns).map(|(b, r)| b + r).collect();
        a.prior = Prior {
            cursor: self.cursor(),
            hosts_done: self.prior.hosts_done + self.done_hosts,
            hosts: self.prior.hosts,
            cuts: self.prior.cuts + 1,
        };
        a.recoverer = self.recoverer.clone();
        a.dies = std::mem::take(&mut self.dies);
        self.after = Some(Box::new(a));
        Ok(())
    }

    /// Drops the run after the recovery (and any after later cuts): the dies come back here.
    pub(super) fn collapse(&mut self) {
        if let Some(mut a) = self.after.take() {
            a.collapse();
            self.dies = std::mem::take(&mut a.dies);
        }
    }

    /// While the power is off or a recovery is shown: one step back (the last recovery
    /// operation; from the first, power off; from power off, the moment of the cut).
    pub(super) fn back_cut(&mut self) -> Result<(), String> {
        if let Some((d, j)) = self.last_recovery() {
            if j > 0 {
                self.dies[d].back_op().map_err(|e| format!("die {d}: {e}"))?;
            } else {
                // The die's Stepper goes back from its first recovery operation to the
                // power cut: recover again, nothing revealed.
                self.dies[d].back_op().map_err(|e| format!("die {d}: {e}"))?;
                self.dies[d].recover().map_err(|e| format!("die {d}: {e}"))?;
            }
            if let Some(Cut { rec: Some(rec), .. }) = &mut self.cut {
                rec[d].revealed -= 1;
            }
            return Ok(());
        }
        let cut = self.cut.as_mut().expect("a cut");
        if cut.rec.take().is_some() {
            // Back from power on with nothing revealed to power off.
            for (d, s) in self.dies.iter_mut().enumerate() {
                s.back_op().map_err(|e| format!("die {d}: {e}"))?;
            }
            return Ok(());
        }
        // Power off: back to the moment of the cut, powered.
        for (d, s) in self.dies.iter_mut().enumerate() {
            s.back_op().map_err(|e| format!("die {d}: {e}"))?;
        }
        self.cut = None;
        Ok(())
    }

    /// Leaves a cut for the recorded run at the moment it was made (for `goto`).
    pub(super) fn leave_cut(&mut self) -> Result<(), String> {
        if self.cut.take().is_none() {
            return Ok(());
        }
        for d in 0..self.dies.len() {
            let Pos { s, k } = self.pos[d];
            if k > 0 {
                // Its root (after the request cut) is dropped by going back into it.
                self.dies[d].goto(s, k)?;
            } else if s > 0 {
                // Its root is at s: going back before it drops it.
                self.dies[d].seek(s - 1)?;
                self.dies[d].seek(s)?;
            } else {
                // Nothing revealed on the die: a fresh die.
                let mut fresh = self.die_stepper(d)?;
                if let Some(r) = &self.recoverer {
                    fresh.set_recoverer(r.clone());
                }
                self.dies[d] = fresh;
            }
        }
        Ok(())
    }

    /// The recovery operation revealed last (None outside a recovery).
    pub fn recovery_current(&self) -> Option<OpSpan> {
        if let Some(a) = &self.after {
            return a.recovery_current();
        }
        let (d, j) = self.last_recovery()?;
        Some(self.recovery_op(d, j))
    }

    /// The recovery operation next (None outside a recovery, or at its end).
    pub fn recovery_next(&self) -> Option<OpSpan> {
        if let Some(a) = &self.after {
            return a.recovery_next();
        }
        let (d, j) = self.next_recovery()?;
        Some(self.recovery_op(d, j))
    }

    fn recovery_op(&self, d: usize, j: usize) -> OpSpan {
        let cut = self.cut.as_ref().expect("a cut");
        let r = &cut.rec.as_ref().expect("a recovery")[d];
        let start_ns = r.start(j, cut.now_ns);
        OpSpan { die: d as u32, op: j as u32 + 1, ops: r.op_ns.len() as u32, start_ns, end_ns: start_ns + r.op_ns[j] }
    }

    /// Each die's recovery at the moment shown (empty unless recovering or recovered).
    pub fn recoveries(&self) -> Vec<DieRecoveryMoment> {
        if let Some(a) = &self.after {
            return a.recoveries();
        }
        let Some(Cut { rec: Some(rec), .. }) = &self.cut else { return Vec::new() };
        rec.iter()
            .enumerate()
            .map(|(d, r)| DieRecoveryMoment {
                die: d as u32,
                op_cursor: r.revealed as u32,
                op_count: r.op_ns.len() as u32,
                ns: r.op_ns[..r.revealed].iter().sum(),
                total_ns: r.op_ns.iter().sum(),
                verdict: (r.revealed == r.op_ns.len()).then(|| self.dies[d].verdict().cloned()).flatten(),
            })
            .collect()
    }

    /// The die's Stepper, for its chip's arrays while a cut is shown.
    pub fn die(&self, d: usize) -> Option<&Stepper> {
        self.dies().get(d)
    }
}
