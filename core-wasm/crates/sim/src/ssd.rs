//! An SSD of C channels × W dies per channel (issue 40, item 1-2): each die a flash chip
//! with its own FTL instance (any scheme of the registry, unchanged) over a striped share
//! of the logical space, the arrangement of the papers' FTLs in a multi-chip device.
//!
//! Striping: logical page `lpn` is in stripe unit `lpn / unit` (unit = 1 page, or one
//! block of `pages_per_block` pages); unit `u` goes to die `u % D`, where it is unit
//! `u / D` of the die's own logical space. A block-mapped or hybrid scheme (NFTL, RFTL,
//! GFTL, BAST, FAST, ...) keeps whole logical blocks on one die only with block striping,
//! so page striping is refused for them (docs/ssd.md).
//!
//! Timing (open or closed, as timing.rs): each die has its own FIFO queue and busy time.
//! A host request's pages on a die run back to back from when that die is free (and the
//! request has arrived); the request completes when its last page, on whichever die, does.
//! Channel transfer is not modelled yet (zero cost; docs/ssd.md). The dies never
//! interleave their operations' effects: they are independent chips, so running each
//! page request on its die in host order gives every die's state exactly.

use serde::Serialize;

use crate::ftl::registry::Mapping;
use crate::sim::State;
use crate::timing::Schedule;
use crate::trace::Request;

/// Stripe unit of the logical space over the dies.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Stripe {
    Page,
    Block,
}

impl Stripe {
    pub fn from_name(s: &str) -> Result<Stripe, String> {
        match s.trim().to_ascii_lowercase().as_str() {
            "page" => Ok(Stripe::Page),
            "block" => Ok(Stripe::Block),
            o => Err(format!("unknown stripe unit '{o}': expected page or block")),
        }
    }
    pub fn name(self) -> &'static str {
        match self {
            Stripe::Page => "page",
            Stripe::Block => "block",
        }
    }
}

/// The device's shape: C channels × W dies per channel, and the stripe unit.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct Shape {
    pub channels: u32,
    pub dies_per_channel: u32,
    pub stripe: Stripe,
}

impl Shape {
    pub fn dies(&self) -> u32 {
        self.channels * self.dies_per_channel
    }
    /// Refuses an empty device and page striping for a scheme whose logical blocks must
    /// stay whole (block or hybrid mapping).
    pub fn check(&self, scheme: &str) -> Result<(), String> {
        if self.channels == 0 || self.dies_per_channel == 0 {
            return Err("a device needs at least one channel and one die per channel".into());
        }
        let mapping = crate::ftl::entry(scheme).map(|e| e.mapping);
        if self.stripe == Stripe::Page && self.dies() > 1 && mapping.is_some_and(|m| m != Mapping::Page) {
            return Err(format!(
                "{scheme} maps logical blocks (block or log-block mapping): page striping would split each logical \
                 block over the dies; use --stripe block"
            ));
        }
        Ok(())
    }
}

/// Die and die-local LPN of logical page `lpn` for `dies` dies of stripe unit `unit` pages.
pub fn place(lpn: u32, dies: u32, unit: u32) -> (u32, u32) {
    let (chunk, off) = (lpn / unit, lpn % unit);
    (chunk % dies, (chunk / dies) * unit + off)
}

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
}

/// A device run: every die's state and the host requests in time.
pub struct Device {
    pub shape: Shape,
    /// Stripe unit, pages.
    pub unit: u32,
    pub dies: Vec<State>,
    pub die_stats: Vec<DieStats>,
    pub hosts: Vec<DeviceHost>,
    free_at: Vec<u64>,
}

impl Device {
    /// A device of `shape.dies()` fresh dies, each `fresh()` (same chip and scheme).
    pub fn new(shape: Shape, scheme: &str, fresh: &dyn Fn() -> State) -> Result<Device, String> {
        shape.check(scheme)?;
        let dies: Vec<State> = (0..shape.dies()).map(|_| fresh()).collect();
        let unit = match shape.stripe {
            Stripe::Page => 1,
            Stripe::Block => dies[0].flash.geometry().pages_per_block,
        };
        let n = dies.len();
        Ok(Device {
            shape,
            unit,
            dies,
            die_stats: vec![DieStats::default(); n],
            hosts: Vec::new(),
            free_at: vec![0; n],
        })
    }

    /// Logical pages the device exports (every die's share).
    pub fn logical_pages(&self) -> u64 {
        self.dies.iter().map(|d| d.ftl.logical_pages() as u64).sum()
    }

    /// Runs `requests` grouped into host requests by `schedule`, arriving at `arrivals`
    /// (open model, ns by host request) or each when the previous one completed (closed).
    pub fn run(&mut self, requests: &[Request], schedule: &Schedule, arrivals: Option<&[u64]>) -> Result<(), String> {
        let d = self.dies.len() as u32;
        let mut touched: Vec<bool> = vec![false; d as usize];
        let mut host: Option<DeviceHost> = None;
        let mut last_done = 0u64;
        for (i, &req) in requests.iter().enumerate() {
            let lpn = req
                .lpn()
                .ok_or_else(|| format!("request {} ({req:?}): time-shift requests need a device of one die", i + 1))?;
            if schedule.begins(i) || host.is_none() {
                let k = self.hosts.len();
                let arrival = arrivals.and_then(|a| a.get(k).copied()).unwrap_or(last_done);
                host = Some(DeviceHost {
                    arrival_ns: arrival,
                    start_ns: u64::MAX,
                    done_ns: arrival,
                    pages: 0,
                    read: false,
                });
                touched.iter_mut().for_each(|t| *t = false);
            }
            let h = host.as_mut().expect("a host request in service");
            let (die, local) = place(lpn, d, self.unit);
            let (di, local_req) = (die as usize, with_lpn(req, local));
            let st = &mut self.dies[di];
            if local >= st.ftl.logical_pages() {
                return Err(format!("request {}: lpn {lpn} is beyond the device's logical space", i + 1));
            }
            let t0 = st.flash.elapsed_ns;
            st.exec(local_req).map_err(|e| format!("request {} ({req:?}) on die {die} failed: {e}", i + 1))?;
            let service = st.flash.elapsed_ns - t0;
            let stats = &mut self.die_stats[di];
            if !touched[di] {
                // The request joins this die's FIFO queue at its arrival.
                touched[di] = true;
                let start = h.arrival_ns.max(self.free_at[di]);
                stats.jobs += 1;
                stats.wait_ns_sum += start - h.arrival_ns;
                self.free_at[di] = start;
                h.start_ns = h.start_ns.min(start);
            }
            self.free_at[di] += service;
            stats.busy_ns += service;
            stats.page_requests += 1;
            h.done_ns = h.done_ns.max(self.free_at[di]);
            h.pages += 1;
            h.read = matches!(req, Request::Read { .. });
            if schedule.ends(i) {
                let h = host.take().expect("a host request in service");
                last_done = h.done_ns;
                self.hosts.push(h);
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
                DieSummary {
                    die: i as u32,
                    channel: i as u32 / self.shape.dies_per_channel,
                    page_requests: st.page_requests,
                    jobs: st.jobs,
                    busy_us: st.busy_ns as f64 / 1000.0,
                    utilisation: if end > 0 { st.busy_ns as f64 / end as f64 } else { 0.0 },
                    mean_wait_us: if st.jobs > 0 { st.wait_ns_sum as f64 / st.jobs as f64 / 1000.0 } else { 0.0 },
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
            Responses::of(&r)
        };
        DeviceSummary {
            channels: self.shape.channels,
            dies_per_channel: self.shape.dies_per_channel,
            dies: self.dies.len() as u32,
            stripe: self.shape.stripe,
            stripe_unit_pages: self.unit,
            channel_transfer_us: 0.0,
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
    pub wrong_reads: u64,
    pub erases: u64,
    pub write_amplification: f64,
}

#[derive(Clone, Debug, Serialize)]
pub struct DeviceSummary {
    pub channels: u32,
    pub dies_per_channel: u32,
    pub dies: u32,
    pub stripe: Stripe,
    pub stripe_unit_pages: u32,
    /// Not modelled yet: channels cost nothing (docs/ssd.md).
    pub channel_transfer_us: f64,
    pub logical_pages: u64,
    pub host_requests: u64,
    pub wrong_reads: u64,
    pub makespan_us: f64,
    pub read: Responses,
    pub write: Responses,
    pub per_die: Vec<DieSummary>,
}
