//! The request queue at the stepper's moment (issue 28, docs/timing.md): the host
//! request the chip is serving, those that have arrived and wait behind it, and a
//! sentence for the narration ("read of lpn 8 waits 1.6 ms behind the full merge that
//! the write of lpn 4 triggered").

use serde::Serialize;
use ts_rs::TS;

use super::Stepper;
use crate::crash::request_words;
use crate::timing::{Clock, GcNote, Model};
use crate::trace::Request;

/// Most waiting requests listed (the rest are counted in `more`).
const SHOWN: usize = 24;
/// Requests looked at beyond the shown ones to count `more`.
const COUNTED: usize = 100_000;

/// One host request in the queue.
#[derive(Clone, Debug, PartialEq, Serialize, TS)]
#[ts(export)]
pub struct QueueItem {
    /// Host request index.
    #[ts(type = "number")]
    pub index: u64,
    /// "r", "w" or "state" (freeze / unfreeze / revert).
    #[ts(type = r#""r" | "w" | "state""#)]
    pub op: &'static str,
    pub lpn: Option<u32>,
    pub pages: u32,
    pub arrival_us: f64,
    /// How long it has waited (serving: how long it waited before it started).
    pub waited_us: f64,
}

/// The queue at one moment.
#[derive(Clone, Debug, PartialEq, Serialize, TS)]
#[ts(export)]
pub struct QueueView {
    #[ts(type = r#""closed" | "open""#)]
    pub model: &'static str,
    /// The chip's clock at this moment (the first arrival is 0).
    pub now_us: f64,
    pub serving: Option<QueueItem>,
    pub waiting: Vec<QueueItem>,
    /// Waiting requests beyond `waiting` (counted up to 100,000).
    #[ts(type = "number")]
    pub more: u64,
    /// The narration's sentence when the request served waited, else None.
    pub note: Option<String>,
}

fn us(ns: u64) -> f64 {
    ns as f64 / 1000.0
}

/// "1.6 ms" or "350 µs".
pub fn fmt_wait(ns: u64) -> String {
    if ns >= 1_000_000 {
        format!("{:.1} ms", ns as f64 / 1e6)
    } else {
        format!("{} µs", (ns as f64 / 1000.0).round())
    }
}

/// "read of lpn 8 waits 1.6 ms behind the full merge that the write of lpn 4 triggered".
fn sentence(who: Request, waited: u64, behind: Option<GcNote>, reqs: &[Request]) -> String {
    let who = request_words(who);
    match behind {
        Some(g) if g.what == "recovery" => {
            format!("{who} waits {} behind the recovery from a power cut", fmt_wait(waited))
        }
        Some(g) => format!(
            "{who} waits {} behind the {} that the {} triggered",
            fmt_wait(waited),
            g.what,
            request_words(reqs[g.first_page as usize])
        ),
        None => format!("{who} waits {} behind the requests before it", fmt_wait(waited)),
    }
}

impl Stepper {
    /// The queue at the moment shown: inside a request, the chip's clock has advanced by
    /// the operations revealed so far.
    pub fn queue(&self) -> QueueView {
        let sim = &self.sim;
        let sched = sim.schedule();
        let reqs = sim.requests();
        let arrivals = sim.arrivals();
        // The clock before the page request in progress (or the next one), its index,
        // and the chip time revealed of it.
        let (clock, page, revealed): (&Clock, usize, u64) = match (&self.before, self.in_request) {
            (Some(b), true) => (&b.clock, b.pos, self.view().flash.elapsed_ns.saturating_sub(b.flash.elapsed_ns)),
            _ => (&sim.state.clock, sim.pos(), 0),
        };
        // A recovery being revealed: the recovered clock less the recovery's operations
        // not shown yet (the chip is busy recovering; requests arriving meanwhile wait).
        let unrevealed =
            if self.recovering() { sim.state.flash.elapsed_ns.saturating_sub(self.view().flash.elapsed_ns) } else { 0 };
        let model = clock.config.model;
        let item = |index: u64, first: usize, arrival: u64, waited: u64| {
            let mut pages = 1u32;
            while first + (pages as usize) < sched.pages() && !sched.begins(first + pages as usize) {
                pages += 1;
            }
            let (op, lpn) = match reqs.get(first) {
                Some(Request::Read { lpn }) => ("r", Some(*lpn)),
                Some(Request::Write { lpn }) => ("w", Some(*lpn)),
                _ => ("state", None),
            };
            QueueItem { index, op, lpn, pages, arrival_us: us(arrival), waited_us: us(waited) }
        };
        let arrival_of = |k: u64, free: u64| arrivals.and_then(|a| a.get(k as usize).copied()).unwrap_or(free);
        // The host request in service at this moment: the one the page belongs to.
        let mut serving = None;
        let mut note = None;
        let mut now = clock.free_at().saturating_sub(unrevealed);
        let mut next_index = clock.begun();
        let in_request = self.in_request && !self.recovering() && page < reqs.len();
        if in_request {
            let (k, first, arrival, start) = if sched.begins(page) || clock.current().is_none() {
                let a = arrival_of(clock.begun(), clock.free_at());
                (clock.begun(), page, a, a.max(clock.free_at()))
            } else {
                let c = clock.current().expect("checked");
                (c.index, c.first_page as usize, c.arrival_ns, c.start_ns)
            };
            now = clock.free_at().max(start) + revealed;
            next_index = k + 1;
            let waited = start - arrival;
            serving = Some(item(k, first, arrival, waited));
            if waited > 0 {
                note = Some(sentence(reqs[first], waited, clock.last_gc.filter(|g| g.done_ns > arrival), reqs));
            }
        } else if let Some((h, behind)) =
            clock.last_done.filter(|(h, _)| self.request.is_some() && h.first_page as usize + h.pages as usize == page)
        {
            // The request just shown complete (a one-operation read is complete at once).
            serving = Some(item(h.index, h.first_page as usize, h.arrival_ns, h.wait_ns()));
            if h.wait_ns() > 0 {
                note = Some(sentence(reqs[h.first_page as usize], h.wait_ns(), behind, reqs));
            }
        } else if let Some(c) = clock.current() {
            // Between the pages of a multi-page request.
            serving = Some(item(c.index, c.first_page as usize, c.arrival_ns, c.start_ns - c.arrival_ns));
            next_index = c.index + 1;
        }
        let mut waiting = Vec::new();
        let mut more = 0u64;
        if let (Model::Open, Some(a)) = (model, arrivals) {
            // First page of request `next_index`: walk on from the page in progress.
            let mut p = if in_request || clock.current().is_some() { page + 1 } else { page };
            let mut k = next_index;
            while (k as usize) < a.len() && a[k as usize] <= now && waiting.len() + (more as usize) < SHOWN + COUNTED {
                while p < sched.pages() && !sched.begins(p) {
                    p += 1;
                }
                if waiting.len() < SHOWN {
                    waiting.push(item(k, p, a[k as usize], now - a[k as usize]));
                } else {
                    more += 1;
                }
                k += 1;
                p += 1;
            }
        }
        QueueView { model: model.name(), now_us: us(now), serving, waiting, more, note }
    }
}
