//! A device run in time (issue 40, item 2): each die has its own FIFO queue and busy time,
//! each channel one bus its dies share.
//!
//! A host request's pages on a die run back to back from when that die is free (and the
//! request has arrived); the request completes when its last page, on whichever die, does.
//! The dies never interleave their operations' effects: they are independent chips, so
//! running each page request on its die in host order gives every die's state exactly.
//!
//! Channels (docs/ssd.md, "Channels"): a chip preset's read and program times are a page
//! operation on the chip's own bus, the page's transfer included (a one-chip run counts it
//! so). On a device the transfer part, `page_bytes / bus rate`, must hold the die's
//! channel: a host read's data goes out at the end of its service, a host write's comes in
//! at the start. When another die of the channel holds the bus, the page waits for it.
//! GC and merge copies stay inside the die (copy-back program: no data on the channel).
//! With one die per channel nothing waits, so one die is the one-chip run exactly.

use std::collections::VecDeque;

use serde::Serialize;

use super::{place, Shape};
use crate::nand::{Cause, OpKind};
use crate::sim::State;
use crate::timing::Schedule;
use crate::trace::Request;

/// One host request in time on the device (ns on the run's clock).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize)]
pub struct DeviceHost {
    pub arrival_ns: u64,
    /// When its first page started on any die.
    pub start_ns: u64,
    /// When its last page finished.
    pub done_ns: u64,
    pub pages: u32,
    pub read: bool,
    /// GC / merge / metadata work its own pages carried (service beyond the host's pages).
    pub gc_ns: u64,
    /// It waited for a die while that die finished another request's GC / merge work
    /// (docs/ssd.md, "Delayed by GC").
    pub delayed_by_gc: bool,
}

/// One die's share of the run.
#[derive(Clone, Debug, Default, Serialize)]
pub struct DieStats {
    pub page_requests: u64,
    /// Host requests that needed this die.
    pub jobs: u64,
    pub busy_ns: u64,
    /// Sum of the jobs' waits for this die (from arrival to their first page on it).
    pub wait_ns_sum: u64,
    /// Sum of the pages' waits for the channel bus (held by another die's transfer).
    pub channel_wait_ns: u64,
    /// GC / merge / metadata work the die did.
    pub gc_ns: u64,
    /// Jobs that waited for this die while it finished another request's GC work.
    pub delayed_by_gc: u64,
    /// When its last page request ended (the channel wait included; not printed).
    #[serde(skip)]
    pub end_ns: u64,
}

/// A channel's bus: its busy intervals (sorted, disjoint), those before every later
/// request's arrival forgotten.
#[derive(Clone, Debug, Default)]
struct Bus {
    busy: VecDeque<(u64, u64)>,
}

impl Bus {
    /// Holds the bus for `len` ns from the first free gap at or after `ready`; returns the
    /// start. Transfers are placed in host order, each in the earliest gap that fits.
    fn reserve(&mut self, ready: u64, len: u64) -> u64 {
        if len == 0 {
            return ready;
        }
        let mut t = ready;
        let mut i = self.busy.partition_point(|&(_, e)| e <= ready);
        while let Some(&(s, e)) = self.busy.get(i) {
            if t + len <= s {
                break;
            }
            t = t.max(e);
            i += 1;
        }
        // Merge with touching neighbours so a busy bus stays one interval.
        let (mut s, mut e) = (t, t + len);
        if i > 0 && self.busy[i - 1].1 == s {
            s = self.busy[i - 1].0;
            self.busy.remove(i - 1);
            i -= 1;
        }
        if self.busy.get(i).is_some_and(|&(ns, _)| ns == e) {
            e = self.busy[i].1;
            self.busy.remove(i);
        }
        self.busy.insert(i, (s, e));
        t
    }
    fn forget_before(&mut self, floor: u64) {
        while self.busy.front().is_some_and(|&(_, e)| e <= floor) {
            self.busy.pop_front();
        }
    }
}

/// What one page request cost its die (`exec_page`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct PageWork {
    /// The die's chip time for it (every operation, the page transfer included).
    pub service_ns: u64,
    /// GC / merge / metadata work in it: the service beyond the host page's own operation.
    pub gc_ns: u64,
    /// The host page's data crossed the channel (the die read or programmed it for the
    /// host; a read of a never-written page moves nothing).
    pub moved: bool,
    pub read: bool,
}

/// Runs `req` (a die-local request) on die `st` and measures it.
pub fn exec_page(st: &mut State, req: Request) -> Result<PageWork, crate::nand::FlashError> {
    let f = &st.flash;
    let (t0, h0) = (f.elapsed_ns, f.time_ns(Cause::Host));
    let moved0 = f.count(OpKind::Read, Cause::Host) + f.count(OpKind::Program, Cause::Host);
    st.exec(req)?;
    let f = &st.flash;
    let service_ns = f.elapsed_ns - t0;
    Ok(PageWork {
        service_ns,
        gc_ns: service_ns - (f.time_ns(Cause::Host) - h0),
        moved: f.count(OpKind::Read, Cause::Host) + f.count(OpKind::Program, Cause::Host) > moved0,
        read: matches!(req, Request::Read { .. }),
    })
}

/// When one page request ran on its die.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct PageTime {
    /// Its turn in the die's FIFO queue: the die is its from here.
    pub ready_ns: u64,
    pub end_ns: u64,
    /// Time inside [ready, end) spent waiting for the channel bus: before the first
    /// operation for a write (its data comes in first), before the data-out at the end
    /// for a read. end = ready + service + channel wait.
    pub channel_wait_ns: u64,
}

/// The device's timing arithmetic, page request by page request (module comment): one
/// FIFO queue per die, one bus per channel, host requests' arrivals and completions, and
/// the delayed-by-GC rule. `Device::run` and the stepper (ssd_step.rs) both drive it, so
/// they cannot disagree.
#[derive(Clone, Debug)]
pub struct DeviceClock {
    dies_per_channel: usize,
    pub transfer_ns: u64,
    free_at: Vec<u64>,
    bus: Vec<Bus>,
    /// By die: when the last job that carried GC work on it finished there.
    gc_done: Vec<Option<u64>>,
    touched: Vec<bool>,
    job_done: Vec<u64>,
    job_gc: Vec<u64>,
    used: Vec<usize>,
    host: Option<DeviceHost>,
    last_done: u64,
}

impl DeviceClock {
    pub fn new(shape: &Shape, transfer_ns: u64) -> DeviceClock {
        let n = shape.dies() as usize;
        DeviceClock {
            dies_per_channel: shape.dies_per_channel as usize,
            transfer_ns,
            free_at: vec![0; n],
            bus: vec![Bus::default(); shape.channels as usize],
            gc_done: vec![None; n],
            touched: vec![false; n],
            job_done: vec![0; n],
            job_gc: vec![0; n],
            used: Vec::new(),
            host: None,
            last_done: 0,
        }
    }

    /// The earliest arrival from each host request on (`floor` for `begin`): bus time
    /// before it is never asked for again (trace times may step back, docs/timing.md).
    pub fn floors(arrivals: &[u64]) -> Vec<u64> {
        let mut f = arrivals.to_vec();
        for i in (0..f.len().saturating_sub(1)).rev() {
            f[i] = f[i].min(f[i + 1]);
        }
        f
    }

    pub fn dies(&self) -> usize {
        self.free_at.len()
    }

    /// A host request in service (begun, not ended).
    pub fn in_host(&self) -> bool {
        self.host.is_some()
    }

    /// When the last host request completed (the closed model's next arrival).
    pub fn last_done(&self) -> u64 {
        self.last_done
    }

    /// A host request arrives at `arrival`; no later one arrives before `floor`.
    pub fn begin(&mut self, arrival: u64, floor: u64) {
        self.bus.iter_mut().for_each(|b| b.forget_before(floor.min(arrival)));
        self.host =
            Some(DeviceHost { arrival_ns: arrival, start_ns: u64::MAX, done_ns: arrival, ..Default::default() });
        for &u in &self.used {
            self.touched[u] = false;
            self.job_gc[u] = 0;
        }
        self.used.clear();
    }

    /// The current host request's next page request ran on die `di` with `w`.
    pub fn page(&mut self, di: usize, w: PageWork, stats: &mut DieStats) -> PageTime {
        let h = self.host.as_mut().expect("a host request in service");
        let x = if w.moved { self.transfer_ns.min(w.service_ns) } else { 0 };
        if !self.touched[di] {
            // The request joins this die's FIFO queue at its arrival.
            self.touched[di] = true;
            self.used.push(di);
            let start = h.arrival_ns.max(self.free_at[di]);
            stats.jobs += 1;
            stats.wait_ns_sum += start - h.arrival_ns;
            // Delayed by GC: it waited, and a job that finished on this die during the
            // wait carried GC work (one die: timing.rs's definition exactly).
            if start > h.arrival_ns && self.gc_done[di].is_some_and(|g| g > h.arrival_ns) {
                stats.delayed_by_gc += 1;
                h.delayed_by_gc = true;
            }
            self.free_at[di] = start;
            h.start_ns = h.start_ns.min(start);
        }
        let ready = self.free_at[di];
        let bus = &mut self.bus[di / self.dies_per_channel];
        let (end, wait) = if w.read {
            // Data out after the die's own work.
            let a = ready + w.service_ns - x;
            let t = bus.reserve(a, x);
            (t + x, t - a)
        } else {
            // Data in before the program.
            let t = bus.reserve(ready, x);
            (t + w.service_ns, t - ready)
        };
        self.free_at[di] = end;
        stats.busy_ns += w.service_ns;
        stats.channel_wait_ns += wait;
        stats.gc_ns += w.gc_ns;
        stats.page_requests += 1;
        stats.end_ns = end;
        self.job_done[di] = end;
        self.job_gc[di] += w.gc_ns;
        h.gc_ns += w.gc_ns;
        h.done_ns = h.done_ns.max(end);
        if h.pages == 0 {
            // Its kind is its first page's (as timing.rs counts it).
            h.read = w.read;
        }
        h.pages += 1;
        PageTime { ready_ns: ready, end_ns: end, channel_wait_ns: wait }
    }

    /// The current host request's last page request ran: the request, completed.
    pub fn end(&mut self) -> DeviceHost {
        for &u in &self.used {
            if self.job_gc[u] > 0 {
                self.gc_done[u] = Some(self.job_done[u]);
            }
        }
        let h = self.host.take().expect("a host request in service");
        self.last_done = h.done_ns;
        h
    }
}

/// A device run: every die's state and the host requests in time.
pub struct Device {
    pub shape: Shape,
    /// Stripe unit, pages.
    pub unit: u32,
    /// A page's transfer over the channel bus, ns.
    pub transfer_ns: u64,
    pub dies: Vec<State>,
    pub die_stats: Vec<DieStats>,
    pub hosts: Vec<DeviceHost>,
    /// Every page request's die and work, in request order, when recording
    /// (`record_pages`: `ftl run --timeline` on a device).
    pub pages: Option<Vec<PageRecord>>,
    /// Requests run so far (`run_range` goes on from here).
    pub pos: usize,
    clock: DeviceClock,
}

/// One page request of a device run (`Device::pages`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct PageRecord {
    pub die: u32,
    /// Its die-local LPN.
    pub lpn: u32,
    /// Its service on the die (as one chip's `--timeline` counts it) and the GC / merge
    /// work in it.
    pub service_ns: u64,
    pub gc_ns: u64,
}

/// A page's transfer on `shape`'s channel for the chip of `st`, refused when it does not
/// fit inside the chip's read or program time (docs/ssd.md, "Channels").
pub fn transfer_ns(shape: &Shape, st: &State) -> Result<u64, String> {
    let (g, t) = (*st.flash.geometry(), *st.flash.timing());
    let x = shape.transfer_ns(g.page_bytes);
    let op = t.read_ns.min(t.program_ns);
    if x > op {
        let need = (g.page_bytes as u64 * 1000).div_ceil(op.max(1));
        return Err(format!(
            "a {}-byte page takes {:.2} us on a {} MB/s channel, longer than the chip's read ({} us) or program \
             ({} us) it is part of (docs/ssd.md): give a bus rate of at least {need} MB/s",
            g.page_bytes,
            x as f64 / 1000.0,
            shape.bus_mb_s(),
            t.read_ns as f64 / 1000.0,
            t.program_ns as f64 / 1000.0
        ));
    }
    Ok(x)
}

impl Device {
    /// A device of `shape.dies()` fresh dies, each `fresh()` (same chip and scheme).
    pub fn new(shape: Shape, scheme: &str, fresh: &dyn Fn() -> State) -> Result<Device, String> {
        shape.check(scheme)?;
        let dies: Vec<State> = (0..shape.dies()).map(|_| fresh()).collect();
        let transfer_ns = transfer_ns(&shape, &dies[0])?;
        let n = dies.len();
        Ok(Device {
            shape,
            unit: shape.unit(dies[0].flash.geometry().pages_per_block),
            transfer_ns,
            dies,
            die_stats: vec![DieStats::default(); n],
            hosts: Vec::new(),
            pages: None,
            pos: 0,
            clock: DeviceClock::new(&shape, transfer_ns),
        })
    }

    /// Logical pages the device exports (whole stripe units of every die's share).
    pub fn logical_pages(&self) -> u64 {
        super::device_pages(self.dies[0].ftl.logical_pages(), self.dies.len() as u32, self.unit)
    }

    /// Records every page request's die and work from now on (`pages`).
    pub fn record_pages(&mut self, on: bool) {
        self.pages = on.then(Vec::new);
    }

    /// Runs `requests` grouped into host requests by `schedule`, arriving at `arrivals`
    /// (open model, ns by host request) or each when the previous one completed (closed).
    pub fn run(&mut self, requests: &[Request], schedule: &Schedule, arrivals: Option<&[u64]>) -> Result<(), String> {
        self.run_to(requests, schedule, arrivals, requests.len())
    }

    /// As `run`, from request `pos` (where the last call stopped) to request `to`
    /// (exclusive): the run in pieces is the run whole (a host request cut by a piece's end
    /// goes on in the next). `ftl run --recovery` recovers the dies between pieces.
    pub fn run_to(
        &mut self,
        requests: &[Request],
        schedule: &Schedule,
        arrivals: Option<&[u64]>,
        to: usize,
    ) -> Result<(), String> {
        let d = self.dies.len() as u32;
        let floors = arrivals.map(DeviceClock::floors);
        let from = self.pos.min(to);
        for (i, &req) in requests.iter().enumerate().take(to).skip(from) {
            let lpn = req
                .lpn()
                .ok_or_else(|| format!("request {} ({req:?}): time-shift requests need a device of one die", i + 1))?;
            if schedule.begins(i) || !self.clock.in_host() {
                let k = self.hosts.len();
                let arrival = arrivals.and_then(|a| a.get(k).copied()).unwrap_or(self.clock.last_done());
                let floor = floors.as_ref().and_then(|f| f.get(k).copied()).unwrap_or(arrival);
                self.clock.begin(arrival, floor);
            }
            let (die, local) = place(lpn, d, self.unit);
            let (di, local_req) = (die as usize, with_lpn(req, local));
            let st = &mut self.dies[di];
            if local >= st.ftl.logical_pages() {
                return Err(format!("request {}: lpn {lpn} is beyond the device's logical space", i + 1));
            }
            let w = exec_page(st, local_req)
                .map_err(|e| format!("request {} ({req:?}) on die {die} failed: {e}", i + 1))?;
            self.clock.page(di, w, &mut self.die_stats[di]);
            if let Some(p) = &mut self.pages {
                p.push(PageRecord { die, lpn: local, service_ns: w.service_ns, gc_ns: w.gc_ns });
            }
            self.pos = i + 1;
            if schedule.ends(i) {
                self.hosts.push(self.clock.end());
            }
        }
        Ok(())
    }

    /// Reads that disagreed with each die's reference model.
    pub fn wrong_reads(&self) -> u64 {
        self.dies.iter().map(|s| s.host.wrong_reads).sum()
    }

    /// What `ftl run` prints for the device.
    pub fn summary(&self) -> DeviceSummary {
        let end = self.hosts.iter().map(|h| h.done_ns).max().unwrap_or(0);
        let dies = self
            .dies
            .iter()
            .zip(&self.die_stats)
            .enumerate()
            .map(|(i, (s, st))| {
                let m = s.metrics();
                let per = |v: u64, n: u64| if n > 0 { v as f64 / n as f64 / 1000.0 } else { 0.0 };
                DieSummary {
                    die: i as u32,
                    channel: i as u32 / self.shape.dies_per_channel,
                    page_requests: st.page_requests,
                    jobs: st.jobs,
                    busy_us: st.busy_ns as f64 / 1000.0,
                    utilisation: if end > 0 { st.busy_ns as f64 / end as f64 } else { 0.0 },
                    mean_wait_us: per(st.wait_ns_sum, st.jobs),
                    mean_channel_wait_us: per(st.channel_wait_ns, st.page_requests),
                    gc_us: st.gc_ns as f64 / 1000.0,
                    delayed_by_gc: st.delayed_by_gc,
                    wrong_reads: s.host.wrong_reads,
                    erases: m.erases,
                    write_amplification: m.write_amplification,
                }
            })
            .collect();
        let kind = |read: bool| {
            let mut r: Vec<u64> =
                self.hosts.iter().filter(|h| h.read == read).map(|h| h.done_ns - h.arrival_ns).collect();
            r.sort_unstable();
            let mut out = Responses::of(&r);
            out.delayed_by_gc = self.hosts.iter().filter(|h| h.read == read && h.delayed_by_gc).count() as u64;
            out.delayed_by_gc_share = if out.count > 0 { out.delayed_by_gc as f64 / out.count as f64 } else { 0.0 };
            out
        };
        DeviceSummary {
            channels: self.shape.channels,
            dies_per_channel: self.shape.dies_per_channel,
            dies: self.dies.len() as u32,
            stripe: self.shape.stripe,
            stripe_unit_pages: self.unit,
            bus_mb_s: self.shape.bus_mb_s(),
            channel_transfer_us: self.transfer_ns as f64 / 1000.0,
            logical_pages: self.logical_pages(),
            host_requests: self.hosts.len() as u64,
            wrong_reads: self.wrong_reads(),
            makespan_us: end as f64 / 1000.0,
            read: kind(true),
            write: kind(false),
            per_die: dies,
        }
    }
}

fn with_lpn(req: Request, lpn: u32) -> Request {
    match req {
        Request::Read { .. } => Request::Read { lpn },
        Request::Write { .. } => Request::Write { lpn },
        other => other,
    }
}

/// Host response times of one kind, µs (nearest-rank percentiles).
#[derive(Clone, Debug, Default, Serialize)]
pub struct Responses {
    pub count: u64,
    pub mean_us: f64,
    pub p50_us: f64,
    pub p99_us: f64,
    pub max_us: f64,
    /// Requests that waited for a die while it finished another request's GC work.
    pub delayed_by_gc: u64,
    pub delayed_by_gc_share: f64,
}

impl Responses {
    /// `sorted`: response times in ns, ascending.
    fn of(sorted: &[u64]) -> Responses {
        let n = sorted.len();
        if n == 0 {
            return Responses::default();
        }
        let rank = |p: f64| sorted[((p / 100.0 * n as f64).ceil() as usize).clamp(1, n) - 1] as f64 / 1000.0;
        Responses {
            count: n as u64,
            mean_us: sorted.iter().sum::<u64>() as f64 / n as f64 / 1000.0,
            p50_us: rank(50.0),
            p99_us: rank(99.0),
            max_us: sorted[n - 1] as f64 / 1000.0,
            ..Default::default()
        }
    }
}

#[derive(Clone, Debug, Serialize)]
pub struct DieSummary {
    pub die: u32,
    pub channel: u32,
    pub page_requests: u64,
    pub jobs: u64,
    pub busy_us: f64,
    /// Busy time / the run's makespan (first arrival to last completion).
    pub utilisation: f64,
    pub mean_wait_us: f64,
    /// Mean wait of a page for the channel bus (another die's transfer).
    pub mean_channel_wait_us: f64,
    pub gc_us: f64,
    pub delayed_by_gc: u64,
    pub wrong_reads: u64,
    pub erases: u64,
    pub write_amplification: f64,
}

#[derive(Clone, Debug, Serialize)]
pub struct DeviceSummary {
    pub channels: u32,
    pub dies_per_channel: u32,
    pub dies: u32,
    pub stripe: super::Stripe,
    pub stripe_unit_pages: u32,
    pub bus_mb_s: u32,
    /// One page over the channel bus (docs/ssd.md, "Channels").
    pub channel_transfer_us: f64,
    pub logical_pages: u64,
    pub host_requests: u64,
    pub wrong_reads: u64,
    pub makespan_us: f64,
    pub read: Responses,
    pub write: Responses,
    pub per_die: Vec<DieSummary>,
}
