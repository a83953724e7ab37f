//! What a device stepped op by op keeps beside its dies' chip states and keyframes (issue
//! 40; `limits::device_memory` charges it): the workload's copy the run after a recovery
//! is planned from, the plan, and each die Simulator's own requests and job arrivals.

use std::mem::size_of;

use super::{DeviceStepper, DiePlan, DieStep, Workload};
use crate::ssd::{DeviceHost, DieStats};
use crate::timing::Schedule;
use crate::trace::Request;

/// A schedule's heap: its bitset of host-request starts and its arrivals.
fn schedule_bytes(s: &Schedule) -> u64 {
    (s.pages().div_ceil(64) * 8 + s.arrivals().map_or(0, |a| a.len() * 8)) as u64
}

impl Workload {
    fn bytes(&self) -> u64 {
        (self.requests.capacity() * size_of::<Request>() + self.arrivals.as_ref().map_or(0, |a| a.capacity() * 8))
            as u64
            + schedule_bytes(&self.schedule)
    }
}

impl DiePlan {
    /// The plan's own vectors and the die Simulator's copy (`die_stepper`): its requests,
    /// its schedule's start bits, and its jobs' arrivals twice (the schedule's and the
    /// Simulator's own), at most one job a page request.
    fn bytes(&self) -> u64 {
        let n = self.local.len();
        let plan = self.steps.capacity() * size_of::<DieStep>()
            + self.op_ns.capacity() * 4
            + self.local.capacity() * size_of::<Request>();
        (plan + n * size_of::<Request>() + n.div_ceil(64) * 8 + 2 * n * 8) as u64
    }
}

impl DeviceStepper {
    /// Bytes of the workload's copy (page requests, host requests, arrivals: kept to plan
    /// the run after a recovery), the plan (each die's steps, operation times and requests,
    /// the host requests in time and their pages left) and each die's Simulator's requests and job arrivals,
    /// the run after a recovery's too. Counted from the vectors' capacities: `tests/session_memory.rs`
    /// holds what the allocator gives to it.
    pub fn workload_bytes(&self) -> u64 {
        let hosts =
            self.hosts.capacity() * size_of::<DeviceHost>() + (self.host_ids.capacity() + self.left.capacity()) * 4;
        let dies = self.die_stats.capacity() * size_of::<DieStats>();
        let plan: u64 = self.plan.iter().map(DiePlan::bytes).sum();
        let after = self.after.as_ref().map_or(0, |a| a.workload_bytes());
        self.workload.bytes() + plan + (hosts + dies) as u64 + after
    }
}
