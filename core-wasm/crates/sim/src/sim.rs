//! The simulator: runs host requests through one scheme on one chip, keeps the
//! reference model, and travels in time with keyframes + deterministic replay.

use std::sync::Arc;

use crate::ftl::host::{self, Parts};
use crate::ftl::Ftl;
use crate::metrics::{HostCounters, Metrics, Scheme};
use crate::nand::{Flash, FlashError, Lpn};
use crate::oracle::Oracle;
use crate::timing::{Clock, HostTime, Kind, Schedule, TimingConfig};
use crate::trace::requests::Requests;
use crate::trace::Request;

mod seek;
pub use seek::{Rebuild, REBUILD_REPLAY};
mod stream;
pub use stream::{StreamRun, Streamed};

impl Clone for Box<dyn Ftl> {
    fn clone(&self) -> Self {
        self.box_clone()
    }
}

/// Everything a run changes: cloned whole for keyframes.
#[derive(Clone)]
pub struct State {
    pub flash: Flash,
    pub ftl: Box<dyn Ftl>,
    pub oracle: Oracle,
    pub host: HostCounters,
    /// Version number the next host write gets (versions start at 1; 0 = never written).
    pub next_version: u32,
    /// Requests completed.
    pub pos: usize,
    /// Host requests in time (timing.rs): the chip's clock and the response times.
    pub clock: Clock,
}

impl State {
    pub fn new(flash: Flash, ftl: Box<dyn Ftl>) -> State {
        let oracle = Oracle::new(ftl.logical_pages());
        State { flash, ftl, oracle, host: HostCounters::default(), next_version: 1, pos: 0, clock: Clock::default() }
    }

    /// Runs one host request. A flash error (power loss, NAND violation) leaves the
    /// request unacknowledged: the oracle is not updated.
    pub fn exec(&mut self, req: Request) -> Result<(), FlashError> {
        self.exec_inline(req)
    }

    /// `exec` inline, for the simulator's loops (a call a request was about 25 of page
    /// mapping's 373 instructions, issue 37): ftl/host.rs's body on this state's own fields;
    /// freeze, unfreeze and revert out of line.
    #[inline(always)]
    fn exec_inline(&mut self, req: Request) -> Result<(), FlashError> {
        host::exec_request!(self.ftl, self.flash, self.oracle, self.host, self.next_version, self.pos, req,
            other => self.exec_state_request(other))
    }

    #[inline(never)]
    fn exec_state_request(&mut self, req: Request) -> Result<(), FlashError> {
        let (ftl, mut parts) = self.parts();
        host::state_request(ftl, &mut parts, req)
    }

    /// The scheme and, borrowed apart, everything else a request changes.
    pub fn parts(&mut self) -> (&mut dyn Ftl, Parts<'_>) {
        let State { flash, ftl, oracle, host, next_version, pos, clock } = self;
        (&mut **ftl, Parts { flash, oracle, host, next_version, pos, clock })
    }

    /// Logical pages whose current mapping disagrees with the reference model.
    pub fn mismatches(&self) -> Vec<Lpn> {
        (0..self.ftl.logical_pages())
            .filter(|&lpn| {
                let got = self.ftl.locate(lpn).map(|p| host::version_at(&self.flash, p, lpn)).unwrap_or(0);
                got != self.oracle.expected(lpn)
            })
            .collect()
    }

    pub fn metrics(&self) -> Metrics {
        let ftl = &self.ftl;
        let scheme = Scheme { name: ftl.name(), ram_bytes: ftl.ram_bytes(), metrics: ftl.scheme_metrics() };
        let mut m = Metrics::collect(&self.flash, &self.host, scheme);
        m.timing = self.clock.summary();
        m
    }
}

/// The kind of host request a page request belongs to (timing.rs).
fn kind_of(req: Request) -> Kind {
    match req {
        Request::Read { .. } => Kind::Read,
        Request::Write { .. } => Kind::Write,
        _ => Kind::Other,
    }
}

/// Runs one request on a `Simulator` and times it, the body its loops share: (the chip's
/// time before it, the host's part of that, its service time, GC's part of it); a failed
/// request returns its error from the caller. A macro: a method returning the values cost
/// page mapping 6 instructions a request (callgrind).
macro_rules! exec_timed {
    ($sim:ident, $req:ident) => {{
        let f = &$sim.state.flash;
        let (t0, h0) = (f.elapsed_ns, f.time_ns(crate::nand::Cause::Host));
        if let Err(e) = $sim.state.exec_inline($req) {
            return Err($sim.failed($req, e));
        }
        let f = &$sim.state.flash;
        let service = f.elapsed_ns - t0;
        (t0, h0, service, service - (f.time_ns(crate::nand::Cause::Host) - h0))
    }};
}

/// One request's response time (section 5.1 of the RFTL paper: its own flash operations
/// plus the GC / merge work scheduled with it), in ns, saturating at u32::MAX.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, serde::Serialize)]
pub struct RequestTime {
    pub total_ns: u32,
    /// The part of `total_ns` not caused by the host request itself (GC, merges, ...).
    pub gc_ns: u32,
}

/// Builds the state at step 0 (a fresh chip and scheme).
pub type Fresh = Arc<dyn Fn() -> State + Send + Sync>;

/// Keyframes are kept within this many bytes (roughly) per run, unless set otherwise
/// (the browser keeps less: wasm memory is small).
pub const KEYFRAME_BUDGET: usize = 96 << 20;

/// How `Simulator::run` drives the requests.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RunMode {
    /// The player (the app's Session, the Stepper): keyframes for seeking back, and the
    /// run log (timeline markers, sampled counts) recorded as the run first passes each step.
    Player,
    /// Metrics only, by the chip's counters: no keyframes, no run-log probes, a tight loop
    /// over the requests (`ftl run`, `sweep`, `bench`). The per-request response-time
    /// timeline is still kept when asked for (`record_timeline`). Same state, same metrics
    /// as the player (tests/full_speed.rs).
    FullSpeed,
}

pub struct Simulator {
    pub state: State,
    /// As runs of pages when built from a fitted trace (`with_requests`). A streamed run
    /// holds only its last batch (`feed_requests`).
    requests: Requests,
    /// Page requests before the first one held (a streamed run drops each batch once run).
    base: usize,
    /// The packed requests as a slice, made on the first `requests()` call.
    requests_slice: std::sync::OnceLock<Vec<Request>>,
    fresh: Fresh,
    keyframes: Vec<State>,
    interval: usize,
    /// One more keyframe, near the cursor: taken `near_gap` requests before the target of
    /// a long replay (back, or forward when worth the copy: `seek`), so the next steps back replay a few requests from it instead of
    /// the whole way from the last keyframe (or step 0, on a chip too large for any; issue
    /// 37, item 3). Off (0) unless the owner has memory for one more state.
    near: Option<State>,
    near_gap: usize,
    /// Changes whenever a kept state (a keyframe, the one near the cursor) is added, dropped
    /// or replaced: a rebuild made in parts (`Rebuild`) copies from one between the app's
    /// moves, and starts again when it may have changed.
    kept_gen: u64,
    /// Keyframe budget in bytes (used in `RunMode::Player`).
    budget: usize,
    mode: RunMode,
    /// First error that stopped the run (a NAND rule broken by the scheme).
    pub error: Option<String>,
    /// Per-request response times, indexed by request, when turned on
    /// (`record_timeline`). Kept here, not in `State`, so keyframes do not copy it;
    /// replay after a seek rewrites the same values (the run is deterministic).
    timeline: Option<Vec<RequestTime>>,
    /// Markers and sampled counts for the timeline and charts.
    pub log: crate::runlog::RunLog,
    /// Which page requests form one host request, and when each arrives (timing.rs).
    schedule: Schedule,
    timing: TimingConfig,
    /// Open model: each host request's arrival, ns (from the schedule or the rate).
    arrivals: Option<Vec<u64>>,
    /// Host requests in time, by host request index, when recording (`record_timeline`).
    host_timeline: Option<Vec<HostTime>>,
}

impl Simulator {
    pub fn new(fresh: Fresh, requests: Vec<Request>) -> Simulator {
        let state = fresh();
        Simulator::with_state(state, fresh, requests)
    }

    /// As `new`, with the step-0 state already built (a large chip is built once, not twice).
    pub fn with_state(state: State, fresh: Fresh, requests: Vec<Request>) -> Simulator {
        Simulator::with_requests(state, fresh, requests.into())
    }

    /// As `with_state`, the requests in any store (`ftl run` packs a fitted trace's).
    pub fn with_requests(state: State, fresh: Fresh, requests: Requests) -> Simulator {
        let log = crate::runlog::RunLog::new(requests.len());
        let schedule = Schedule::per_page(requests.len());
        let mut sim = Simulator {
            state,
            requests,
            base: 0,
            requests_slice: std::sync::OnceLock::new(),
            fresh,
            keyframes: Vec::new(),
            interval: 0,
            near: None,
            near_gap: 0,
            kept_gen: 0,
            budget: KEYFRAME_BUDGET,
            mode: RunMode::Player,
            error: None,
            timeline: None,
            log,
            schedule,
            timing: TimingConfig::default(),
            arrivals: None,
            host_timeline: None,
        };
        sim.set_keyframe_budget(KEYFRAME_BUDGET);
        sim
    }

    /// Spreads keyframes evenly over the run within `bytes`; a chip too large for even
    /// one keyframe gets none (seeking back then replays from step 0).
    pub fn set_keyframe_budget(&mut self, bytes: usize) {
        self.budget = bytes;
        self.kept_gen += 1;
        if self.mode == RunMode::FullSpeed {
            self.interval = usize::MAX;
            self.keyframes.clear();
            self.near = None;
            return;
        }
        let g = self.state.flash.geometry();
        // Rough size of one snapshot: pages (16 B) + a 4 B map entry per page + blocks.
        let snapshot = g.pages() as usize * 20 + g.blocks as usize * 32 + 1024;
        let max_frames = bytes / snapshot;
        // At least one request per 100 bytes of snapshot between keyframes, so cloning
        // stays a small share of a full-speed run (a request costs about as much as copying
        // a few hundred bytes); replaying that far back on a seek stays in milliseconds.
        let min_gap = (snapshot / 100).max(256);
        self.interval =
            if max_frames == 0 { usize::MAX } else { self.requests.len().div_ceil(max_frames).max(min_gap) };
        self.keyframes.retain(|k| k.pos % self.interval == 0);
    }

    /// Switches between the player and the full-speed path. Full speed drops the keyframes
    /// (seeking back then replays from step 0) and stops the run log where it is.
    pub fn set_mode(&mut self, mode: RunMode) {
        self.mode = mode;
        self.set_keyframe_budget(self.budget);
    }
    pub fn mode(&self) -> RunMode {
        self.mode
    }

    pub fn pos(&self) -> usize {
        self.state.pos
    }
    /// Page requests in the workload (a streamed run: fed so far).
    pub fn total(&self) -> usize {
        self.base + self.requests.len()
    }
    /// The requests as a slice (a streamed run: its last batch): for a packed store a copy, made once and kept (8 bytes a
    /// request more); `request`, `request_hash` and `total` read the store itself.
    pub fn requests(&self) -> &[Request] {
        match self.requests.as_slice() {
            Some(s) => s,
            None => self.requests_slice.get_or_init(|| self.requests.to_vec()),
        }
    }
    pub fn request(&self, i: usize) -> Option<Request> {
        self.requests.get(i.checked_sub(self.base)?)
    }
    /// `trace::request_hash` of the requests held, from the store as it is.
    pub fn request_hash(&self) -> String {
        crate::trace::request_hash_of(self.requests.iter())
    }
    pub fn next_request(&self) -> Option<Request> {
        self.request(self.state.pos)
    }

    /// The next batch of a streamed run (issue 37: a trace parsed while it runs, never
    /// held whole), with its schedule: the requests held before must all have run, and are
    /// dropped. Full speed only (nothing seeks back into a dropped batch).
    pub fn feed_requests(&mut self, requests: Requests, schedule: Schedule) -> Result<(), String> {
        if self.mode != RunMode::FullSpeed
            || self.state.pos != self.total()
            || self.timing.model != crate::timing::Model::Closed
        {
            return Err("a batch is fed to a closed-model run at full speed once the last one has run".into());
        }
        if schedule.pages() != requests.len() {
            return Err(format!(
                "the schedule covers {} page requests, the batch has {}",
                schedule.pages(),
                requests.len()
            ));
        }
        self.base = self.state.pos;
        self.requests = requests;
        self.requests_slice = std::sync::OnceLock::new();
        self.schedule = schedule;
        Ok(())
    }
    /// Groups the page requests into host requests with arrival times (a parsed trace's
    /// records, `RawTrace::schedule`). Refused when it does not cover the requests.
    pub fn set_schedule(&mut self, schedule: Schedule) -> Result<(), String> {
        if schedule.pages() != self.requests.len() {
            return Err(format!(
                "the schedule covers {} page requests, the run has {}",
                schedule.pages(),
                self.requests.len()
            ));
        }
        self.schedule = schedule;
        self.kept_gen += 1;
        if self.timing.model != crate::timing::Model::Closed {
            let t = self.timing;
            self.set_timing(t)?;
        }
        Ok(())
    }
    /// Builds the state at step 0 (a device builds one per die from it, ssd.rs).
    pub fn fresh(&self) -> &Fresh {
        &self.fresh
    }
    pub fn schedule(&self) -> &Schedule {
        &self.schedule
    }
    /// Chooses the timing model (timing.rs). Arrivals come from the schedule's times or
    /// the config's rate; an open model without either is refused. Requests already
    /// run are replayed under the new model.
    pub fn set_timing(&mut self, cfg: TimingConfig) -> Result<(), String> {
        let mut rng = crate::trace::rng::SplitMix64::new(cfg.seed);
        let arrivals = cfg.arrivals(&self.schedule, || rng.unit())?;
        self.arrivals = arrivals;
        self.timing = cfg;
        if let Some(t) = &mut self.host_timeline {
            t.clear();
        }
        let pos = self.state.pos;
        if pos == 0 {
            // Nothing ran: the state stands (a large or preconditioned chip is not rebuilt).
            self.state.clock = Clock::new(self.timing);
            return Ok(());
        }
        self.keyframes.clear();
        self.near = None;
        self.kept_gen += 1;
        self.state = (self.fresh)();
        self.state.clock.config = self.timing;
        self.seek(pos)
    }
    pub fn timing(&self) -> &TimingConfig {
        &self.timing
    }
    /// Each host request's arrival in the open model (None: closed).
    pub fn arrivals(&self) -> Option<&[u64]> {
        self.arrivals.as_deref()
    }
    /// Host requests in time, by host request index (when recording).
    pub fn host_timeline(&self) -> Option<&[HostTime]> {
        self.host_timeline.as_deref()
    }

    /// The clock after page request `self.state.pos - 1` ran `req` in `service_ns`, of
    /// which `gc_ns` GC / merge work. Inline, the rest out of line: a one-page request in
    /// the closed model is every request of the loop's (issue 37; a call cost about 20
    /// instructions a request in saving and restoring registers; `#[inline]` alone left it
    /// a call).
    #[inline(always)]
    fn tick(&mut self, req: Request, service_ns: u64, gc_ns: u64) {
        if gc_ns > 0 {
            self.note_gc();
        }
        let i = self.state.pos - 1;
        // The schedule covers the requests held (a streamed run's batch).
        let j = i - self.base;
        if self.arrivals.is_none() && self.schedule.begins(j) && self.schedule.ends(j) {
            // A one-page request in the closed model: it never waits (issue 37).
            let h = self.state.clock.page_closed(i as u64, kind_of(req), service_ns, gc_ns);
            if self.host_timeline.is_some() {
                self.keep_host_time(Some(h));
            }
            return;
        }
        self.tick_page(i, req, service_ns, gc_ns);
    }

    /// Names the GC / merge work the request just run carried (the cleanings it counted).
    #[inline(never)]
    fn note_gc(&mut self) {
        host::note_gc(&mut self.state.clock, &self.state.flash);
    }

    /// `tick` for a page request of a longer host request, or in the open model.
    #[inline(never)]
    fn tick_page(&mut self, i: usize, req: Request, service_ns: u64, gc_ns: u64) {
        let (begins, ends, arrival) = self.page_place(&self.state.clock, i);
        let done = self.state.clock.page(i as u64, begins, ends, arrival, kind_of(req), service_ns, gc_ns);
        self.keep_host_time(done);
    }

    /// Whether page request `i` begins and ends its host request, and its arrival (open
    /// model, when it begins one) for `clock`.
    fn page_place(&self, clock: &Clock, i: usize) -> (bool, bool, Option<u64>) {
        let j = i - self.base;
        let begins = self.schedule.begins(j);
        let arrival =
            if begins { self.arrivals.as_ref().and_then(|a| a.get(clock.begun() as usize).copied()) } else { None };
        (begins, self.schedule.ends(j), arrival)
    }

    /// A power cut left `cut` (the state before the request in flight, `req`, with the
    /// chip as the cut left it; None: a cut between requests): the interrupted page
    /// request's operations before the cut take the chip's time, and its host request is
    /// never acknowledged (timing.rs `Clock::interrupt`). `before_ns` / `before_host_ns`:
    /// the chip's time (all, the host's own) before the request.
    pub fn charge_cut(&mut self, cut: &mut State, req: Option<Request>, before_ns: u64, before_host_ns: u64) {
        let Some(req) = req else {
            cut.clock.interrupt_between();
            return;
        };
        let f = &cut.flash;
        let work = f.elapsed_ns.saturating_sub(before_ns);
        let gc = work.saturating_sub(f.time_ns(crate::nand::Cause::Host).saturating_sub(before_host_ns));
        let i = cut.pos;
        let (begins, ends, arrival) = self.page_place(&cut.clock, i);
        let done = cut.clock.interrupt(i as u64, begins, ends, arrival, kind_of(req), work, gc);
        self.keep_host_time(done);
    }

    fn keep_host_time(&mut self, done: Option<HostTime>) {
        if let (Some(h), Some(tl)) = (done, &mut self.host_timeline) {
            let k = h.index as usize;
            if k >= tl.len() {
                tl.resize(k, HostTime::default());
                tl.push(h);
            } else {
                tl[k] = h;
            }
        }
    }
    /// The requests at which keyframes are kept, in order.
    pub fn keyframe_steps(&self) -> Vec<usize> {
        self.keyframes.iter().map(|k| k.pos).collect()
    }
    pub fn keyframe_interval(&self) -> usize {
        self.interval
    }
    /// Drops keyframes after request `pos` (the run diverged there: a power cut and recovery).
    pub fn truncate_keyframes(&mut self, pos: usize) {
        self.keyframes.retain(|k| k.pos <= pos);
        self.kept_gen += 1;
        if self.near.as_ref().is_some_and(|k| k.pos > pos) {
            self.near = None;
        }
    }

    /// Keeps a keyframe near the cursor `gap` requests before the target of a long seek
    /// back (0: none, and the one kept is dropped). It costs one more state in memory.
    pub fn set_near_keyframe(&mut self, gap: usize) {
        self.near_gap = gap;
        self.kept_gen += 1;
        if gap == 0 {
            self.near = None;
        }
    }

    /// Turns the per-request response-time record (off by default: 8 bytes a request,
    /// reserved for the whole workload) and, when `hosts`, the host requests in time on or
    /// off. The app reads the first alone: a `HostTime` is 56 bytes a host request, grown by
    /// doubling (a fifth of Run to end's run in wasm; issue 37). Requests run before are not in it.
    pub fn record_times(&mut self, on: bool, hosts: bool) {
        self.timeline = on.then(|| self.timeline.take().unwrap_or_else(|| Vec::with_capacity(self.total())));
        self.host_timeline = (on && hosts).then(|| self.host_timeline.take().unwrap_or_default());
    }
    pub fn record_timeline(&mut self, on: bool) {
        self.record_times(on, true);
    }
    /// Response times of the requests run so far (when recording), by request index;
    /// requests run before recording started read as zero.
    pub fn timeline(&self) -> Option<&[RequestTime]> {
        self.timeline.as_deref()
    }

    /// Runs the next request. Ok(false) at the end of the workload.
    pub fn step(&mut self) -> Result<bool, String> {
        if let Some(e) = &self.error {
            return Err(e.clone());
        }
        let Some(req) = self.next_request() else { return Ok(false) };
        self.keyframe_here();
        let before = self.logs_here().then(|| crate::runlog::Probe::of(&self.state.flash));
        self.exec_logged(req, before)?;
        Ok(true)
    }

    /// Whether the request at the cursor goes into the run log (the player, the first
    /// time the run passes it).
    fn logs_here(&self) -> bool {
        self.mode == RunMode::Player && self.log.upto() == self.state.pos
    }

    /// Keeps the state as a keyframe when the cursor is on the keyframe interval (and
    /// none is kept there yet).
    fn keyframe_here(&mut self) {
        if self.state.pos.is_multiple_of(self.interval)
            && self.state.pos > 0
            && self.keyframes.last().is_none_or(|k| k.pos < self.state.pos)
        {
            self.keyframes.push(self.state.clone());
            self.kept_gen += 1;
        }
    }

    /// Runs `req` (the request at the cursor): the clock, the run log (with the chip's
    /// `before` probe when `logs_here`: then returns the probe after it) and the timeline
    /// (when recording). The body of `step` and of the player's run loop.
    fn exec_logged(
        &mut self,
        req: Request,
        before: Option<crate::runlog::Probe>,
    ) -> Result<Option<crate::runlog::Probe>, String> {
        let wrong0 = self.state.host.wrong_reads;
        let (t0, h0, service, gc) = exec_timed!(self, req);
        self.tick(req, service, gc);
        let after = before.map(|before| {
            let s = &self.state;
            let mut extra = 0;
            if s.host.wrong_reads != wrong0 {
                extra |= crate::runlog::MARK_WRONG_READ;
            }
            if req.lpn().is_none() {
                extra |= crate::runlog::MARK_TIME_SHIFT;
            }
            let after = crate::runlog::Probe::of(&s.flash);
            self.log.record(s.pos - 1, before, after, &s.flash, s.host.writes, extra);
            after
        });
        if self.timeline.is_some() {
            self.keep_time(t0, h0);
        }
        Ok(after)
    }

    /// The response time of the request just run, from the chip's time `t0` (of which
    /// the host's `h0`) before it, when recording the timeline.
    fn keep_time(&mut self, t0: u64, h0: u64) {
        if let Some(tl) = &mut self.timeline {
            let f = &self.state.flash;
            let total = f.elapsed_ns - t0;
            let host = f.time_ns(crate::nand::Cause::Host) - h0;
            let sat = |v: u64| v.min(u32::MAX as u64) as u32;
            let rt = RequestTime { total_ns: sat(total), gc_ns: sat(total - host) };
            let i = self.state.pos - 1;
            if i >= tl.len() {
                tl.resize(i, RequestTime::default());
                tl.push(rt);
            } else {
                tl[i] = rt;
            }
        }
    }

    /// Runs up to `n` requests; returns how many ran. In `RunMode::FullSpeed` a tight
    /// loop: nothing but the requests themselves (and the timeline, when asked for). In
    /// `RunMode::Player` ("Run to end", a seek's replay) a loop as tight that also keeps
    /// what the player needs: the run log, the timeline, and the keyframes, taken between
    /// stretches that run to the next keyframe position (no per-request check; issue 37
    /// item 4). Same states, log, timeline and keyframes as `step` n times (tests/run_loop.rs).
    pub fn run(&mut self, n: usize) -> Result<usize, String> {
        if let Some(e) = &self.error {
            return Err(e.clone());
        }
        if self.mode == RunMode::FullSpeed {
            return self.run_fast(n);
        }
        let start = self.state.pos;
        let end = start.saturating_add(n).min(self.total());
        // Read in order, runs of pages expanded as they come, not by index per request;
        // taken out of `self` while the loop borrows it.
        let requests = std::mem::take(&mut self.requests);
        let mut reqs = requests.iter_from(start - self.base);
        let mut r = Ok(());
        let mut probe = None;
        while r.is_ok() && self.state.pos < end {
            self.keyframe_here();
            let pos = self.state.pos;
            let next_keyframe = (pos / self.interval.max(1))
                .checked_add(1)
                .and_then(|k| k.checked_mul(self.interval))
                .unwrap_or(usize::MAX);
            for req in reqs.by_ref().take(next_keyframe.min(end) - pos) {
                // One request's probe after is the next one's before (nothing runs between).
                let before =
                    self.logs_here().then(|| probe.unwrap_or_else(|| crate::runlog::Probe::of(&self.state.flash)));
                match self.exec_logged(req, before) {
                    Ok(after) => probe = after,
                    Err(e) => {
                        r = Err(e);
                        break;
                    }
                }
            }
        }
        drop(reqs);
        self.requests = requests;
        r.map(|()| self.state.pos - start)
    }

    /// `run` on the full-speed loop in either mode: no keyframe, no run log (the player's
    /// "Run to end" between keyframe positions, checking the log a stretch at a time:
    /// `Stepper::run_ahead`, issue 37 item 4).
    pub fn run_unlogged(&mut self, n: usize) -> Result<usize, String> {
        match &self.error {
            Some(e) => Err(e.clone()),
            None => self.run_fast(n),
        }
    }

    fn run_fast(&mut self, n: usize) -> Result<usize, String> {
        let start = self.state.pos;
        let end = start.saturating_add(n).min(self.total());
        // The requests are read in order, runs of pages expanded as they come (issue 37);
        // taken out of `self` while the loop borrows it.
        let requests = std::mem::take(&mut self.requests);
        let from = start - self.base;
        // The closed model with no per-request timeline: each stretch of one-page host
        // requests with `tick`'s checks made once for the stretch (issue 37), the rest
        // request by request.
        let closed = self.arrivals.is_none() && self.timeline.is_none() && self.host_timeline.is_none();
        let (mut j, to) = (from, from + (end - start));
        let mut r = Ok(());
        while r.is_ok() && j < to {
            let (one, k) = if closed { self.schedule.one_page_stretch(j, to) } else { (false, to) };
            r = match (requests.as_slice(), one) {
                // Stored as given (a generated workload: `ftl bench`; a streamed batch): a
                // slice, without the store's match on every request (issue 37).
                (Some(s), true) => self.run_closed(&s[j..k]),
                (Some(s), false) => self.run_each(s[j..k].iter().copied()),
                (None, true) => self.run_closed_runs(requests.iter_from(j).take(k - j)),
                (None, false) => self.run_each(requests.iter_from(j).take(k - j)),
            };
            j = k;
        }
        self.requests = requests;
        r.map(|()| end - start)
    }

    /// A request the scheme refused: the run stops with this message (kept in `error`).
    #[cold]
    fn failed(&mut self, req: Request, e: impl std::fmt::Display) -> String {
        let msg = format!("request {} ({req:?}) failed: {e}", self.state.pos + 1);
        self.error = Some(msg.clone());
        msg
    }

    /// Full speed's own copy of `exec_logged` without the run log (folding the two cost
    /// `ftl bench` 3 % more instructions on page mapping: p-wasm, issue 37). Out of line:
    /// inlined in `run_fast` beside the closed loop's calls, it kept one value less in
    /// registers (a trace's `ftl run`: 2 instructions a request more, callgrind).
    #[inline(never)]
    fn run_each(&mut self, reqs: impl Iterator<Item = Request>) -> Result<(), String> {
        for req in reqs {
            let (t0, h0, service, gc) = exec_timed!(self, req);
            self.tick(req, service, gc);
            if self.timeline.is_some() {
                self.keep_time(t0, h0);
            }
        }
        Ok(())
    }

    /// `run_each` in the closed model with every page request a host request of its own
    /// and no per-request timeline (`run_fast`): `tick`'s checks made once for the run. The
    /// scheme's own loop if it has one (`Ftl::run_closed`), else the same loop on `dyn Ftl`
    /// (ftl/host.rs); one call through the vtable for the batch. Same clock, same state.
    #[inline(never)]
    fn run_closed(&mut self, reqs: &[Request]) -> Result<(), String> {
        let (ftl, mut parts) = self.state.parts();
        let r = match ftl.run_closed(&mut parts, reqs) {
            Some(r) => r,
            None => host::run_closed(ftl, &mut parts, reqs),
        };
        match r {
            Ok(()) => Ok(()),
            Err((req, e)) => Err(self.failed(req, e)),
        }
    }

    /// `run_closed` on stored runs of pages: expanded into a buffer, run a buffer at a time.
    /// Out of line, as `run_closed`: inlined, they cost the per-request loop of `run_each`
    /// (a trace's path) 5 instructions a request in registers (callgrind, issue 37).
    #[inline(never)]
    fn run_closed_runs(&mut self, mut reqs: impl Iterator<Item = Request>) -> Result<(), String> {
        let mut buf = [Request::Freeze; 1024];
        loop {
            let k = buf.iter_mut().zip(reqs.by_ref()).map(|(b, q)| *b = q).count();
            if k == 0 {
                return Ok(());
            }
            self.run_closed(&buf[..k])?;
        }
    }
}
