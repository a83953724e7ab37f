//! Stepping a device one flash operation at a time (issue 40, item 4): each die is
//! stepped by its own per-chip `Stepper` (stepper.rs: op-exact moments, Back by
//! keyframes), and the dies' operations are merged into one sequence ordered by their
//! start time under the device's timing (ssd.rs: one FIFO queue and busy time per die).
//!
//! The timing of every operation is planned once when the device is built: the workload
//! runs once on fresh dies (as `Device::run` does, same arithmetic) recording each page
//! request's flash operations, so the start of operation k of a page request on a die is
//! the page request's start on that die plus the durations of its operations before k.
//! Stepping then needs no timing of its own: the next operation is the one of smallest
//! (start, die) among each die's next; Back undoes the one of largest (start, die) among
//! each die's last. A page request that does no flash operation (a read of a page never
//! written) takes one step of zero duration, as the one-chip Stepper shows it.
//!
//! The dies never interact (each its own chip and FTL), so a die's moment depends only on
//! how many of its own steps were taken: every moment of the device is a tuple of die
//! moments, and one die is today's Stepper exactly.
//!
//! After a power cut and every die's recovery (ssd_step/power.rs) the run goes on: the
//! requests left are planned again from the recovered dies (`plan` from their states, the
//! page requests each die has done skipped), in a `DeviceStepper` of their own (`after`)
//! that holds the dies while it runs; Back from its first step returns to the recovery.

mod memory;
#[cfg(test)]
mod oracle;
mod power;
pub use power::{DevicePower, DieRecoveryMoment};

use crate::crash::Recover;
use crate::nand::{Event, OpKind, Timing};
use std::sync::Arc;

use crate::sim::{Fresh, Simulator, State};
use crate::ssd::{exec_page, place, DeviceClock, DeviceHost, DieStats, Shape, Stripe};
use crate::stepper::Stepper;
use crate::timing::{Model, Schedule, TimingConfig};
use crate::trace::Request;

/// One page request's share of a die: when it starts there and its operations.
#[derive(Clone, Copy, Debug)]
struct DieStep {
    /// Page request index in the device's workload.
    request: u32,
    /// Host request it belongs to (index in the plan's `hosts`).
    host: u32,
    start_ns: u64,
    /// Its operations' durations are `op_ns[first_op .. first_op + ops]` of the die.
    first_op: u32,
    ops: u32,
    /// A read's wait for its channel before the data-out (PageTime): its last operation
    /// ends that much later, the die held meanwhile (not busy: ssd/device.rs).
    tail_wait_ns: u32,
}

impl DieStep {
    /// Steps the one-chip Stepper takes through it (one even with no operation).
    fn units(&self) -> usize {
        (self.ops as usize).max(1)
    }
}

#[derive(Default)]
struct DiePlan {
    steps: Vec<DieStep>,
    op_ns: Vec<u32>,
    /// The die-local requests, in order (what its Stepper runs).
    local: Vec<Request>,
}

impl DiePlan {
    /// Start and end of unit `k` of step `s` (a read's last operation ends after its
    /// wait for the channel: the page request ends when `DeviceClock` says it does).
    fn unit_time(&self, s: usize, k: usize) -> (u64, u64) {
        let st = &self.steps[s];
        if st.ops == 0 {
            return (st.start_ns, st.start_ns + st.tail_wait_ns as u64);
        }
        let f = st.first_op as usize;
        let before: u64 = self.op_ns[f..f + k].iter().map(|&n| n as u64).sum();
        let start = st.start_ns + before;
        let tail = if k + 1 == st.ops as usize { st.tail_wait_ns as u64 } else { 0 };
        (start, start + self.op_ns[f + k] as u64 + tail)
    }

    /// The die's busy time in unit `k` of step `s`: its operation (not a wait for the bus).
    fn unit_busy(&self, s: usize, k: usize) -> u64 {
        let st = &self.steps[s];
        if st.ops == 0 {
            0
        } else {
            self.op_ns[st.first_op as usize + k] as u64
        }
    }
}

/// A die's place in its steps: `s` page requests complete, `k` operations of the next.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
struct Pos {
    s: usize,
    k: usize,
}

/// One operation of a die in the device's time: operation `op` (1-based) of `ops` of what
/// the die runs, from `start_ns` to `end_ns`. A step of the run (`DeviceOp`) and a step of a
/// recovery (`recovery_current`) are both one.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize, ts_rs::TS)]
#[ts(export)]
pub struct OpSpan {
    pub die: u32,
    /// 1-based operation on the die (a run's page request: 0 when it does no flash
    /// operation; a recovery: of the die's recovery).
    pub op: u32,
    pub ops: u32,
    #[ts(type = "number")]
    pub start_ns: u64,
    #[ts(type = "number")]
    pub end_ns: u64,
}

/// One step of the device: a flash operation (or a page request without one) on a die.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize, ts_rs::TS)]
#[ts(export)]
pub struct DeviceOp {
    /// Which die, which of the page request's operations, and when.
    #[serde(flatten)]
    #[ts(flatten)]
    pub span: OpSpan,
    /// Page request (0-based index in the device's workload) and its host request.
    pub request: u32,
    pub host: u32,
    /// The page request's index among the die's own requests.
    pub local_request: u32,
}

/// A page request waiting or running on a die at the moment shown.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize, ts_rs::TS)]
#[ts(export)]
pub struct DieQueueItem {
    pub request: u32,
    pub host: u32,
    /// Die-local LPN and whether it is a read.
    pub lpn: u32,
    pub read: bool,
    /// Host request arrival and this page request's start on the die (ns).
    #[ts(type = "number")]
    pub arrival_ns: u64,
    #[ts(type = "number")]
    pub start_ns: u64,
    /// Its operations under way (false: waiting for the die).
    pub running: bool,
}

/// One die at the moment shown (its chip's arrays are read apart, by die).
#[derive(Clone, Debug, PartialEq, serde::Serialize, ts_rs::TS)]
#[ts(export)]
pub struct DieMoment {
    pub die: u32,
    pub channel: u32,
    /// The die's own requests completed and the operations revealed of the next.
    pub step: u32,
    pub op_cursor: u32,
    pub op_count: u32,
    /// The die's page requests in the whole run.
    pub requests: u32,
    #[ts(type = "number")]
    pub busy_ns: u64,
    /// Busy share of the time so far (`DeviceStepper::utilisation`).
    pub utilisation: f64,
    /// Its queue (`DeviceStepper::queue`), and how many more wait beyond those listed.
    pub queue: Vec<DieQueueItem>,
    pub queue_more: u32,
}

/// The device at the moment shown (`DeviceStepper::moment`).
#[derive(Clone, Debug, PartialEq, serde::Serialize, ts_rs::TS)]
#[ts(export)]
pub struct DeviceMoment {
    pub cursor: u32,
    pub total: u32,
    pub channels: u32,
    pub dies_per_channel: u32,
    pub stripe: String,
    pub stripe_unit_pages: u32,
    #[ts(type = "number")]
    pub now_ns: u64,
    /// The last step revealed (the die highlighted) and the next one.
    pub current: Option<DeviceOp>,
    pub next: Option<DeviceOp>,
    /// Host requests completed by now (their last page done at or before `now_ns`).
    pub hosts_done: u32,
    pub hosts: u32,
    pub dies: Vec<DieMoment>,
    /// Power: on, or since a cut (`power_cut`); while recovering, each die's recovery
    /// and the recovery operation last revealed and next (ssd_step/power.rs).
    pub power: DevicePower,
    pub recovery: Vec<DieRecoveryMoment>,
    pub recovery_current: Option<OpSpan>,
    pub recovery_next: Option<OpSpan>,
    /// Power cuts the run has recovered from and gone on after (0: the recorded run).
    pub recovered_cuts: u32,
}

/// The device's workload: page requests (device LPNs), host requests, arrivals.
struct Workload {
    requests: Vec<Request>,
    schedule: Schedule,
    arrivals: Option<Vec<u64>>,
}

/// What came before a run planned after a recovery (zero for the recorded run): the
/// device's cursor and host requests done at the cut, and the cuts recovered from.
#[derive(Clone, Copy, Debug, Default)]
struct Prior {
    cursor: usize,
    hosts_done: usize,
    /// Host requests in the whole workload.
    hosts: usize,
    cuts: u32,
}

/// A device of several dies stepped op by op (see the module comment).
pub struct DeviceStepper {
    pub shape: Shape,
    /// Stripe unit, pages.
    pub unit: u32,
    /// The dies' Steppers (empty while `after` runs: it holds them).
    dies: Vec<Stepper>,
    plan: Vec<DiePlan>,
    /// Host requests in time and each die's share of the run planned here (the recorded
    /// run: `Device::run`'s).
    pub hosts: Vec<DeviceHost>,
    pub die_stats: Vec<DieStats>,
    /// The workload's host request of each of `hosts`.
    host_ids: Vec<u32>,
    /// Page requests each die had done when this plan starts (its Stepper's step there).
    base: Vec<usize>,
    /// No step starts before this (the end of the recovery this plan follows; 0).
    t0: u64,
    workload: Arc<Workload>,
    transfer_ns: u64,
    prior: Prior,
    /// The run after a recovery (ssd_step/power.rs, `resume`).
    after: Option<Box<DeviceStepper>>,
    pos: Vec<Pos>,
    /// Pages of each of `hosts` not yet done at the moment shown, and how many host requests
    /// have none left: kept by `advance` and `retreat` (every way `pos` moves), so a moment
    /// costs no recount of every step so far (issue 37: that made a step O(steps so far)).
    left: Vec<u32>,
    done_hosts: usize,
    /// Busy time of the steps revealed, by die.
    busy: Vec<u64>,
    cursor: usize,
    total: usize,
    /// What builds a die's Stepper again (`die_stepper`).
    fresh: Fresh,
    keyframe_bytes: usize,
    one_die: Option<(Schedule, TimingConfig)>,
    /// A power cut and the recovery after it (ssd_step/power.rs).
    cut: Option<power::Cut>,
    recoverer: Option<Recover>,
}

impl DeviceStepper {
    /// The device of `shape` running `sim`'s workload (its requests, host requests and
    /// arrivals), each die built by `sim`'s `fresh` (ssd.rs). `keyframe_bytes`: the
    /// keyframe budget of all dies together.
    pub fn new(shape: Shape, scheme: &str, sim: &Simulator, keyframe_bytes: usize) -> Result<DeviceStepper, String> {
        shape.check(scheme)?;
        let fresh: Fresh = sim.fresh().clone();
        let d = shape.dies() as usize;
        let unit = match shape.stripe {
            Stripe::Page => 1,
            Stripe::Block => fresh().flash.geometry().pages_per_block,
        };
        let transfer_ns = crate::ssd::transfer_ns(&shape, &fresh())?;
        let workload = Arc::new(Workload {
            requests: sim.requests().to_vec(),
            schedule: sim.schedule().clone(),
            arrivals: sim.arrivals().map(<[u64]>::to_vec),
        });
        let from = Start { states: (0..d).map(|_| fresh()).collect(), done: vec![0; d], t0: 0 };
        let planned = plan(&workload, from, DeviceClock::new(&shape, transfer_ns), unit)?;
        let mut dev = DeviceStepper::planned(shape, unit, planned, fresh, keyframe_bytes, workload, transfer_ns);
        dev.one_die = (d == 1).then(|| (sim.schedule().clone(), *sim.timing()));
        for i in 0..d {
            let s = dev.die_stepper(i)?;
            dev.dies.push(s);
        }
        Ok(dev)
    }

    /// A device over `planned`, no die Stepper yet, at its start.
    fn planned(
        shape: Shape,
        unit: u32,
        planned: Plan,
        fresh: Fresh,
        keyframe_bytes: usize,
        workload: Arc<Workload>,
        transfer_ns: u64,
    ) -> DeviceStepper {
        let (plan, hosts, die_stats, host_ids) = planned;
        let d = plan.len();
        let prior = Prior { hosts: hosts.len(), ..Prior::default() };
        let total = plan.iter().map(|p| p.steps.iter().map(DieStep::units).sum::<usize>()).sum();
        let left: Vec<u32> = hosts.iter().map(|h| h.pages).collect();
        let done_hosts = left.iter().filter(|&&l| l == 0).count();
        DeviceStepper {
            shape,
            unit,
            dies: Vec::with_capacity(d),
            plan,
            hosts,
            die_stats,
            host_ids,
            base: vec![0; d],
            t0: 0,
            workload,
            transfer_ns,
            prior,
            after: None,
            pos: vec![Pos::default(); d],
            left,
            done_hosts,
            busy: vec![0; d],
            cursor: 0,
            total,
            fresh,
            keyframe_bytes,
            one_die: None,
            cut: None,
            recoverer: None,
        }
    }

    /// The dies' Steppers at the moment shown (their chips, places and verdicts).
    pub fn dies(&self) -> &[Stepper] {
        match &self.after {
            Some(a) => a.dies(),
            None => &self.dies,
        }
    }

    /// Die `d`'s Stepper at the start of the run.
    fn die_stepper(&self, d: usize) -> Result<Stepper, String> {
        let p = &self.plan[d];
        let mut s = Simulator::new(self.fresh.clone(), p.local.clone());
        s.set_keyframe_budget(self.keyframe_bytes / self.plan.len());
        if let Some((schedule, timing)) = &self.one_die {
            // One die: the one chip's own host requests and timing, so it is today's.
            s.set_schedule(schedule.clone())?;
            s.set_timing(*timing)?;
        } else {
            // Each die's clock is its queue in the device: its jobs (a host request's
            // pages on the die) arrive when their host request does (open model at the
            // device's arrivals, closed ones included), so its waits are the device's.
            let (starts, arrivals) = die_jobs(p, &self.hosts);
            s.set_schedule(Schedule::new(starts, p.local.len(), Some(arrivals)))?;
            s.set_timing(TimingConfig { model: Model::Open, ..TimingConfig::default() })?;
        }
        Ok(Stepper::new(s))
    }

    /// Steps taken (flash operations, and page requests without one), and in the run; after
    /// a recovery, those before the cut and those of the run since.
    pub fn cursor(&self) -> usize {
        match &self.after {
            Some(a) => a.cursor(),
            None => self.prior.cursor + self.cursor,
        }
    }
    pub fn total(&self) -> usize {
        match &self.after {
            Some(a) => a.total(),
            None => self.prior.cursor + self.total,
        }
    }

    /// The die whose step comes next: smallest (start, die) of each die's next step.
    fn next_die(&self) -> Option<usize> {
        (0..self.plan.len())
            .filter(|&d| self.pos[d].s < self.plan[d].steps.len())
            .min_by_key(|&d| (self.plan[d].unit_time(self.pos[d].s, self.pos[d].k).0, d))
    }

    /// Die `d`'s last step revealed, as (step, unit).
    fn last_of(&self, d: usize) -> Option<(usize, usize)> {
        let p = self.pos[d];
        if p.k > 0 {
            Some((p.s, p.k - 1))
        } else if p.s > 0 {
            Some((p.s - 1, self.plan[d].steps[p.s - 1].units() - 1))
        } else {
            None
        }
    }

    /// The die of the last step revealed: largest (start, die) of each die's last.
    fn last_die(&self) -> Option<usize> {
        (0..self.plan.len())
            .filter_map(|d| self.last_of(d).map(|(s, k)| ((self.plan[d].unit_time(s, k).0, d), d)))
            .max()
            .map(|(_, d)| d)
    }

    fn advance(&mut self, d: usize) {
        let (s, k) = (self.pos[d].s, self.pos[d].k);
        self.busy[d] += self.plan[d].unit_busy(s, k);
        let st = self.plan[d].steps[s];
        self.pos[d] = if k + 1 >= st.units() {
            // Its page request is done: one page less for its host request.
            let l = &mut self.left[st.host as usize];
            *l -= 1;
            self.done_hosts += usize::from(*l == 0);
            Pos { s: s + 1, k: 0 }
        } else {
            Pos { s, k: k + 1 }
        };
        self.cursor += 1;
    }

    fn retreat(&mut self, d: usize) {
        let (s, k) = self.last_of(d).expect("a step revealed on the die");
        self.busy[d] -= self.plan[d].unit_busy(s, k);
        if self.pos[d].k == 0 {
            // Back into page request s, which was done.
            let l = &mut self.left[self.plan[d].steps[s].host as usize];
            self.done_hosts -= usize::from(*l == 0);
            *l += 1;
        }
        self.pos[d] = Pos { s, k };
        self.cursor -= 1;
    }

    /// One more step (the next operation in time, on whichever die). False at the end.
    pub fn step_op(&mut self) -> Result<bool, String> {
        if let Some(a) = &mut self.after {
            return a.step_op();
        }
        if self.cut.is_some() {
            return self.step_cut();
        }
        let Some(d) = self.next_die() else { return Ok(false) };
        if !self.dies[d].step_op()? {
            return Err(format!("die {d} ran out of requests before its plan did"));
        }
        self.advance(d);
        Ok(true)
    }

    /// Back one step (the last operation in time). False at the start.
    pub fn back_op(&mut self) -> Result<bool, String> {
        if let Some(a) = &mut self.after {
            let moved = a.back_op()?;
            if a.cursor == 0 && a.cut.is_none() {
                // Back at the recovered moment: the run after it is planned again on Step.
                self.collapse();
            }
            return Ok(moved);
        }
        if self.cut.is_some() {
            self.back_cut()?;
            return Ok(true);
        }
        let Some(d) = self.last_die() else { return Ok(false) };
        self.dies[d].back_op()?;
        self.retreat(d);
        Ok(true)
    }

    /// The moment after `n` steps: the dies' places are worked out from the plan, then
    /// each die that moves goes there by its Stepper's `goto` (keyframes and replay).
    pub fn goto(&mut self, n: usize) -> Result<(), String> {
        let n = n.min(self.total);
        self.collapse();
        self.leave_cut()?;
        let before = self.pos.clone();
        while self.cursor < n {
            let d = self.next_die().expect("steps remain");
            self.advance(d);
        }
        while self.cursor > n {
            let d = self.last_die().expect("steps revealed");
            self.retreat(d);
        }
        for (d, was) in before.iter().enumerate() {
            let p = self.pos[d];
            if p != *was {
                if p.k == 0 {
                    self.dies[d].seek(p.s)?;
                } else {
                    self.dies[d].goto(p.s, p.k)?;
                }
            }
        }
        Ok(())
    }

    /// The last step revealed (None at the start): the die the screen highlights.
    pub fn current(&self) -> Option<DeviceOp> {
        match &self.after {
            Some(a) => a.current(),
            None => self.current_here(),
        }
    }

    fn current_here(&self) -> Option<DeviceOp> {
        let d = self.last_die()?;
        let (s, k) = self.last_of(d)?;
        Some(self.op_at(d, s, k))
    }

    /// The next step (None at the end).
    pub fn next(&self) -> Option<DeviceOp> {
        if let Some(a) = &self.after {
            return a.next();
        }
        let d = self.next_die()?;
        Some(self.op_at(d, self.pos[d].s, self.pos[d].k))
    }

    fn op_at(&self, d: usize, s: usize, k: usize) -> DeviceOp {
        let st = &self.plan[d].steps[s];
        let (start_ns, end_ns) = self.plan[d].unit_time(s, k);
        DeviceOp {
            span: OpSpan {
                die: d as u32,
                op: if st.ops == 0 { 0 } else { k as u32 + 1 },
                ops: st.ops,
                start_ns,
                end_ns,
            },
            request: st.request,
            host: self.host_ids[st.host as usize],
            local_request: (self.base[d] + s) as u32,
        }
    }

    /// The device's time at the moment shown: the latest end of a step revealed (after a
    /// recovery, at least the recovery's end).
    pub fn now_ns(&self) -> u64 {
        if let Some(a) = &self.after {
            return a.now_ns();
        }
        (0..self.plan.len())
            .filter_map(|d| self.last_of(d).map(|(s, k)| self.plan[d].unit_time(s, k).1))
            .max()
            .unwrap_or(0)
            .max(self.t0)
    }

    /// Busy time of each die so far (the steps revealed; after a recovery, with the steps
    /// before the cut and the recovery's operations), ns.
    pub fn busy_ns(&self) -> &[u64] {
        match &self.after {
            Some(a) => a.busy_ns(),
            None => &self.busy,
        }
    }

    /// Each die's share of the time so far busy (busy / `now_ns`; 0 at the start).
    pub fn utilisation(&self) -> Vec<f64> {
        if let Some(a) = &self.after {
            return a.utilisation();
        }
        let now = self.now_ns();
        self.busy.iter().map(|&b| if now == 0 { 0.0 } else { b as f64 / now as f64 }).collect()
    }

    /// The device at the moment shown, each die's queue listed up to `queue_limit`.
    pub fn moment(&self, queue_limit: usize) -> DeviceMoment {
        if let Some(a) = &self.after {
            return a.moment(queue_limit);
        }
        let util = self.utilisation();
        let now = self.now_ns();
        let dies = (0..self.plan.len())
            .map(|d| {
                let s = &self.dies[d];
                let mut queue = self.queue(d, queue_limit + 1);
                let more = queue.len().saturating_sub(queue_limit) as u32;
                queue.truncate(queue_limit);
                DieMoment {
                    die: d as u32,
                    channel: d as u32 / self.shape.dies_per_channel,
                    step: s.step() as u32,
                    op_cursor: s.op_cursor() as u32,
                    op_count: s.op_count() as u32,
                    requests: (self.base[d] + self.plan[d].steps.len()) as u32,
                    busy_ns: self.busy[d],
                    utilisation: util[d],
                    queue,
                    queue_more: more,
                }
            })
            .collect();
        DeviceMoment {
            cursor: self.cursor() as u32,
            total: self.total() as u32,
            channels: self.shape.channels,
            dies_per_channel: self.shape.dies_per_channel,
            stripe: self.shape.stripe.name().to_string(),
            stripe_unit_pages: self.unit,
            now_ns: now,
            current: self.current(),
            next: self.next(),
            hosts_done: (self.prior.hosts_done + self.done_hosts) as u32,
            hosts: self.prior.hosts as u32,
            dies,
            power: self.power(),
            recovery: self.recoveries(),
            recovery_current: self.recovery_current(),
            recovery_next: self.recovery_next(),
            recovered_cuts: self.prior.cuts,
        }
    }

    /// Die `d`'s queue at the moment shown (at the start of the current step): its page
    /// request under way, then those whose host request has arrived, in FIFO order; at
    /// most `limit`.
    pub fn queue(&self, d: usize, limit: usize) -> Vec<DieQueueItem> {
        if let Some(a) = &self.after {
            return a.queue(d, limit);
        }
        let now = self.current_here().map_or(self.t0, |c| c.span.start_ns);
        let p = &self.plan[d];
        let (first, running) = match self.last_of(d) {
            // The die's page request under way: not all of it revealed, or its last
            // operation revealed still running at the moment shown.
            Some((s, k)) if k + 1 < p.steps[s].units() || p.unit_time(s, k).1 > now => (s, true),
            _ => (self.pos[d].s, false),
        };
        p.steps[first..]
            .iter()
            .enumerate()
            .map(|(i, st)| (i, st, self.hosts[st.host as usize].arrival_ns))
            .take_while(|&(i, _, arrival)| (i == 0 && running) || arrival <= now)
            .take(limit)
            .map(|(i, st, arrival_ns)| {
                let req = p.local[first + i];
                DieQueueItem {
                    request: st.request,
                    host: self.host_ids[st.host as usize],
                    lpn: req.lpn().unwrap_or(0),
                    read: matches!(req, Request::Read { .. }),
                    arrival_ns,
                    start_ns: st.start_ns,
                    running: i == 0 && running,
                }
            })
            .collect()
    }
}

/// A die's jobs as a schedule: bit s set when its page request s begins a host
/// request's share of the die, and each job's arrival (its host request's).
fn die_jobs(p: &DiePlan, hosts: &[DeviceHost]) -> (Vec<u64>, Vec<u64>) {
    let mut starts = vec![0u64; p.steps.len().div_ceil(64)];
    // At most one job a page request: no growth beyond it (ssd_step/memory.rs counts it so).
    let mut arrivals = Vec::with_capacity(p.steps.len());
    for (s, st) in p.steps.iter().enumerate() {
        if s == 0 || p.steps[s - 1].host != st.host {
            starts[s / 64] |= 1 << (s % 64);
            arrivals.push(hosts[st.host as usize].arrival_ns);
        }
    }
    (starts, arrivals)
}

/// An operation's duration on the chip.
fn op_ns(kind: OpKind, t: &Timing) -> u64 {
    match kind {
        OpKind::Read => t.read_ns,
        OpKind::ReadOob => t.read_oob_ns,
        OpKind::Program => t.program_ns,
        OpKind::Erase => t.erase_ns,
    }
}

type Plan = (Vec<DiePlan>, Vec<DeviceHost>, Vec<DieStats>, Vec<u32>);

/// Where a plan starts: each die's state and how many of its page requests it has done
/// (fresh dies, none done; or the dies a recovery left), and the earliest any host
/// request is served (0; or the recovery's end).
struct Start {
    states: Vec<State>,
    done: Vec<usize>,
    t0: u64,
}

/// Runs the workload once on the dies `from` gives, recording each page request's
/// operations and its start on its die under the device's timing (`DeviceClock`, which
/// `Device::run` drives too). The page requests each die has done are skipped; a host
/// request arriving before `t0` is served from `t0` (arrivals are moved, not dropped: the
/// host sends again what a dead device never acknowledged). Also returns the workload's
/// host request of each planned host request.
fn plan(w: &Workload, from: Start, mut clock: DeviceClock, unit: u32) -> Result<Plan, String> {
    let (requests, schedule, arrivals) = (&w.requests, &w.schedule, w.arrivals.as_deref());
    let Start { mut states, done, t0 } = from;
    let d = clock.dies();
    for s in &mut states {
        s.flash.set_recording(true);
    }
    let mut dies: Vec<DiePlan> = (0..d).map(|_| DiePlan::default()).collect();
    let mut stats = vec![DieStats::default(); d];
    let mut hosts: Vec<DeviceHost> = Vec::new();
    let mut host_ids: Vec<u32> = Vec::new();
    let mut seen = vec![0usize; d];
    // The workload's host request of page request i.
    let mut host = 0usize;
    let floors = arrivals.map(DeviceClock::floors);
    for (i, &req) in requests.iter().enumerate() {
        let Some(lpn) = req.lpn() else {
            return Err(format!("request {} ({req:?}): time-shift requests need a device of one die", i + 1));
        };
        if i > 0 && schedule.begins(i) {
            host += 1;
        }
        let (die, local) = place(lpn, d as u32, unit);
        let di = die as usize;
        seen[di] += 1;
        if seen[di] > done[di] {
            if schedule.begins(i) || !clock.in_host() {
                let arrival = arrivals.and_then(|a| a.get(host).copied()).unwrap_or(clock.last_done()).max(t0);
                let floor = floors.as_ref().and_then(|f| f.get(host).copied()).unwrap_or(arrival).max(t0);
                clock.begin(arrival, floor);
                host_ids.push(host as u32);
            }
            let die = (&mut states[di], &mut dies[di], &mut stats[di]);
            plan_page(die, &mut clock, (i, req, di, local), hosts.len())?;
        }
        if schedule.ends(i) && clock.in_host() {
            hosts.push(clock.end());
        }
    }
    Ok((dies, hosts, stats, host_ids))
}

/// Page request `i` (`req`, die-local LPN `local`) of planned host request `host`, on
/// die `di` (`st`, its plan `p`).
fn plan_page(
    (st, p, stats): (&mut State, &mut DiePlan, &mut DieStats),
    clock: &mut DeviceClock,
    (i, req, di, local): (usize, Request, usize, u32),
    host: usize,
) -> Result<(), String> {
    let local_req = match req {
        Request::Read { .. } => Request::Read { lpn: local },
        _ => Request::Write { lpn: local },
    };
    if local >= st.ftl.logical_pages() {
        return Err(format!("request {}: lpn {} is beyond the device's logical space", i + 1, req.lpn().unwrap_or(0)));
    }
    let w = exec_page(st, local_req).map_err(|e| format!("request {} ({req:?}) on die {di} failed: {e}", i + 1))?;
    let service = w.service_ns;
    let t = *st.flash.timing();
    let first_op = p.op_ns.len() as u32;
    for e in st.flash.take_events() {
        if let Event::Op { kind, .. } = e {
            let ns = op_ns(kind, &t);
            p.op_ns.push(u32::try_from(ns).map_err(|_| "an operation longer than 4 s".to_string())?);
        }
    }
    let ops = p.op_ns.len() as u32 - first_op;
    debug_assert_eq!(p.op_ns[first_op as usize..].iter().map(|&n| n as u64).sum::<u64>(), service);
    let pt = clock.page(di, w, stats);
    // The operations run back to back from here; a write's wait for the channel
    // comes first, a read's before its data-out, at the end of its last operation
    // (PageTime): either way the page request ends at `pt.end_ns`.
    let (start_ns, tail) =
        if w.read { (pt.ready_ns, pt.channel_wait_ns) } else { (pt.ready_ns + pt.channel_wait_ns, 0) };
    let tail_wait_ns = u32::try_from(tail).map_err(|_| "a wait for the channel longer than 4 s".to_string())?;
    p.steps.push(DieStep { request: i as u32, host: host as u32, start_ns, first_op, ops, tail_wait_ns });
    debug_assert_eq!(p.unit_time(p.steps.len() - 1, p.steps.last().map_or(0, |s| s.units() - 1)).1, pt.end_ns);
    p.local.push(local_req);
    Ok(())
}
