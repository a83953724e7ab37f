//! One host request on a scheme, generic over the scheme's type, and the closed model's
//! full-speed loop built from it. The simulator runs them on `dyn Ftl`; a scheme may run
//! the loop on its own type (`Ftl::run_closed`: page mapping), so the loop calls its
//! `write` and `read` directly, not through `Box<dyn Ftl>` once a request (issue 37: the
//! call, its saved registers and the result returned through memory were about 17 of
//! page mapping's 273 instructions a request). Here, under `ftl`, because a scheme calls
//! it: in `sim` it made the module cycle ftl -> sim -> ftl.

use super::Ftl;
use crate::metrics::HostCounters;
use crate::nand::{Cause, Flash, FlashError, Lpn, PageKind};
use crate::oracle::Oracle;
use crate::timing::{Clock, Kind};
use crate::trace::Request;

/// A `State` but its scheme, borrowed field by field: what a request changes besides the
/// scheme (`sim::State::parts`).
pub struct Parts<'a> {
    pub flash: &'a mut Flash,
    pub oracle: &'a mut Oracle,
    pub host: &'a mut HostCounters,
    pub next_version: &'a mut u32,
    pub pos: &'a mut usize,
    pub clock: &'a mut Clock,
}

/// The body of one host request (`State::exec`), on places the caller names: `host::exec`
/// gives a `Parts`' borrows, `State::exec_inline` the simulator's own fields. One body,
/// not a `Parts` built a request on the simulator's per-request path: its six pointers
/// there cost a trace's `ftl run` 26 instructions a request (issue 37). `$other => $rest`
/// runs freeze, unfreeze and revert. A flash error (power loss, NAND violation) leaves
/// the request unacknowledged: the oracle is not updated.
macro_rules! exec_request {
    ($ftl:expr, $flash:expr, $oracle:expr, $host:expr, $next_version:expr, $pos:expr, $req:expr,
     $other:ident => $rest:expr) => {{
        let t0 = $flash.elapsed_ns;
        // The cleanings this request counts name its GC / merge work (`note_gc`).
        $flash.cleaned = 0;
        match $req {
            $crate::trace::Request::Write { lpn } => {
                let version = $next_version;
                $next_version += 1;
                $ftl.write(&mut $flash, lpn, version)?;
                $oracle.ack(lpn, version);
                $host.writes += 1;
                $host.write_latency.record($flash.elapsed_ns - t0);
            }
            $crate::trace::Request::Read { lpn } => {
                let ppn = $ftl.read(&mut $flash, lpn)?;
                let got = ppn.map(|p| $crate::ftl::host::version_at(&$flash, p, lpn)).unwrap_or(0);
                let want = $oracle.expected(lpn);
                if got != want {
                    $host.wrong_reads += 1;
                    $flash.note("wrong_read", || {
                        format!("WRONG READ: lpn {lpn} returned version {got}, the latest acknowledged is {want}")
                    });
                }
                $host.reads += 1;
                // Never written (no acknowledged version): counted apart (metrics.rs).
                if want == 0 {
                    $host.unwritten_reads += 1;
                    $host.unwritten_read_latency.record($flash.elapsed_ns - t0);
                } else {
                    $host.read_latency.record($flash.elapsed_ns - t0);
                }
            }
            $other => $rest?,
        }
        // A count announced for work that did no flash operation counts now, with its request.
        $flash.flush_counts();
        $pos += 1;
        Ok(())
    }};
}
pub(crate) use exec_request;

/// Runs one host request (`State::exec`) on a `Parts`.
#[inline(always)]
pub fn exec<F: Ftl + ?Sized>(ftl: &mut F, s: &mut Parts<'_>, req: Request) -> Result<(), FlashError> {
    exec_request!(ftl, *s.flash, *s.oracle, *s.host, *s.next_version, *s.pos, req, other => state_request(ftl, s, other))
}

/// Freeze, unfreeze and revert (the rest of `exec`; neither a read nor a write).
#[inline(never)]
pub fn state_request<F: Ftl + ?Sized>(ftl: &mut F, s: &mut Parts<'_>, req: Request) -> Result<(), FlashError> {
    match req {
        Request::Freeze => {
            if let Ok(id) = ftl.freeze(s.flash)? {
                s.oracle.freeze(id);
            }
        }
        Request::Unfreeze { state } => {
            if ftl.unfreeze(s.flash, state)?.is_ok() {
                s.oracle.unfreeze(state);
            }
        }
        Request::Revert { state } => {
            if ftl.revert(s.flash, state)?.is_ok() {
                s.oracle.revert(state);
            }
        }
        Request::Write { .. } | Request::Read { .. } => unreachable!("reads and writes run inline"),
    }
    Ok(())
}

/// Version of `lpn` held by page `ppn`, 0 if the page does not hold it
/// (a torn page never counts as data).
pub fn version_at(flash: &Flash, ppn: u32, lpn: Lpn) -> u32 {
    let p = flash.peek(ppn);
    if p.kind == PageKind::Data && p.lpn == lpn {
        p.version
    } else {
        0
    }
}

/// The closed model's full-speed loop (`Simulator::run_closed`: every page request a host
/// request of its own, no per-request timeline): each request run and timed on the clock.
/// The body of `Ftl::run_closed`; a failed request is returned with its error.
pub fn run_closed<F: Ftl + ?Sized>(
    ftl: &mut F,
    s: &mut Parts<'_>,
    reqs: &[Request],
) -> Result<(), (Request, FlashError)> {
    run_closed_ahead(ftl, s, reqs, |_, _, _, _| {})
}

/// Asks the cache for the line holding `*p`, to be read or written soon: a hint, with no
/// effect on any result (it never faults, whatever the address). Nothing on targets without
/// a prefetch instruction (wasm32).
#[inline(always)]
pub fn prefetch<T>(p: *const T) {
    #[cfg(target_arch = "x86_64")]
    // SAFETY: a prefetch reads nothing the program sees and does not fault on any address;
    // SSE is part of every x86_64 target.
    unsafe {
        core::arch::x86_64::_mm_prefetch::<{ core::arch::x86_64::_MM_HINT_T0 }>(p.cast());
    }
    #[cfg(not(target_arch = "x86_64"))]
    let _ = p;
}

/// How many requests' lines a scheme's closed loop reads together where it cannot prefetch
/// (wasm32: `run_closed_grouped`; a scheme's `touch` reads the next group's lines).
pub const GROUP: usize = 32;

/// A scheme's `Ftl::run_closed` that reads ahead where there is no prefetch instruction: on
/// wasm32, `run_closed_ahead` compiled for the scheme's type with `touch(ftl, s, reqs, i)`
/// called every `GROUP` requests, which loads (and sums, so the loads are kept) the lines the
/// next requests will miss on, all independent so their misses overlap (issue 37: in wasm
/// each was a miss waited for inside its request). `touch` must change nothing. Natively
/// `None`: the simulator's shared loop, unchanged (a read-ahead there would speed native too).
#[inline(always)]
pub fn run_closed_grouped<F: Ftl>(
    ftl: &mut F,
    parts: &mut Parts<'_>,
    reqs: &[Request],
    touch: impl Fn(&F, &Parts<'_>, &[Request], usize) -> u32,
) -> Option<Result<(), (Request, FlashError)>> {
    #[cfg(not(target_arch = "x86_64"))]
    return Some(run_closed_ahead(ftl, parts, reqs, |ftl: &F, s, reqs, i| {
        if i % GROUP == 0 {
            core::hint::black_box(touch(ftl, s, reqs, i));
        }
    }));
    #[cfg(target_arch = "x86_64")]
    {
        let _ = (ftl, parts, reqs, touch);
        None
    }
}

/// `run_closed` with `ahead(ftl, s, reqs, i)` called before request `i` runs: a scheme's
/// loop prefetches there what later requests of the batch will touch (`prefetch`; page
/// mapping: issue 37, its loop's time was cache misses on the map and the page states).
/// `ahead` must change nothing.
#[inline(always)]
pub fn run_closed_ahead<F: Ftl + ?Sized>(
    ftl: &mut F,
    s: &mut Parts<'_>,
    reqs: &[Request],
    ahead: impl Fn(&F, &Parts<'_>, &[Request], usize),
) -> Result<(), (Request, FlashError)> {
    // A local copy of the borrows, kept in registers (through `s`, every field a request
    // touches was one more load: 6 instructions a request, callgrind).
    let Parts { flash, oracle, host, next_version, pos, clock } = s;
    let s = &mut Parts { flash, oracle, host, next_version, pos, clock };
    // The latest request's (page, service, GC time): the clock's `last_done`, set once.
    let mut last = None;
    // The host's latency records before the loop: the clock's from them at its end.
    let then = [s.host.write_latency.clone(), s.host.read_latency.clone(), s.host.unwritten_read_latency.clone()];
    let mut r = Ok(());
    for (i, &req) in reqs.iter().enumerate() {
        ahead(ftl, s, reqs, i);
        // One match on the kind serves both the request and the clock.
        let done = match req {
            Request::Write { .. } => closed_one(ftl, s, req, Kind::Write),
            Request::Read { .. } => closed_one(ftl, s, req, Kind::Read),
            _ => closed_one(ftl, s, req, Kind::Other),
        };
        match done {
            Ok(done) => last = Some(done),
            Err(e) => {
                r = Err(e);
                break;
            }
        }
    }
    if let Some((page, service, gc)) = last {
        s.clock.closed_done(page, service, gc);
    }
    let h = &s.host;
    s.clock.write.record_since(&h.write_latency, &then[0]);
    s.clock.read.record_since(&h.read_latency, &then[1]);
    s.clock.read.record_since(&h.unwritten_read_latency, &then[2]);
    r
}

/// One request of `run_closed`, of kind `kind`: its page request, service and GC time.
#[inline(always)]
fn closed_one<F: Ftl + ?Sized>(
    ftl: &mut F,
    s: &mut Parts<'_>,
    req: Request,
    kind: Kind,
) -> Result<(u64, u64, u64), (Request, FlashError)> {
    let f = &*s.flash;
    let (t0, h0) = (f.elapsed_ns, f.time_ns(Cause::Host));
    if let Err(e) = exec(ftl, s, req) {
        return Err((req, e));
    }
    let f = &*s.flash;
    let service = f.elapsed_ns - t0;
    let gc = service - (f.time_ns(Cause::Host) - h0);
    if gc > 0 {
        note_gc(s.clock, s.flash);
    }
    let page = (*s.pos - 1) as u64;
    s.clock.page_closed_run(page, kind, service, gc, false);
    Ok((page, service, gc))
}

/// Names the GC / merge work the request just run carried (the cleanings it counted).
#[inline(never)]
pub fn note_gc(clock: &mut Clock, flash: &Flash) {
    clock.note_gc(flash.cleaning_name());
}
