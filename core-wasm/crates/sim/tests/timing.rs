//! The request-level timing model (timing.rs, docs/timing.md): closed and open
//! arrivals, requests of several pages, reads that wait behind a merge, and the RFTL
//! paper's bounds (Table 2) under open arrivals.

use crate::common;

use std::sync::Arc;

use common::scenario;
use ftl_sim::ftl::SchemeParams;
use ftl_sim::metrics::Metrics;
use ftl_sim::scenario::load;
use ftl_sim::scenario::{ChipSpec, Scenario};
use ftl_sim::sim::{RunMode, Simulator};
use ftl_sim::timing::{HostTime, Model, Spacing, TimingConfig};
use ftl_sim::trace::fit::Fit;
use ftl_sim::trace::gen::Workload;
use ftl_sim::trace::parse::{parse_bytes, TimeUnit, TraceOptions};
use ftl_sim::trace::rng::SplitMix64;
use ftl_sim::trace::Request;

const US: u64 = 1000;

fn open() -> TimingConfig {
    TimingConfig { model: Model::Open, ..Default::default() }
}

/// BAST with one log block on the classroom chip (4 pages per block; read 15 us,
/// program 200 us, erase 2000 us) running a DiskSim-layout trace whose times are us.
fn bast_trace(text: &str, timing: Option<TimingConfig>) -> Simulator {
    let sc = scenario(
        "bast",
        SchemeParams { log_blocks: Some(1), ..Default::default() },
        16,
        4,
        Workload::Sequential { n: 1 },
    );
    let opts = TraceOptions { page_bytes: 512, time_unit: Some(TimeUnit::Us), ..TraceOptions::default() };
    let raw = parse_bytes(text.as_bytes(), opts).unwrap();
    let (mut sim, _) = load::build_with_raw(&sc, &raw, Fit::None).unwrap();
    sim.record_timeline(true);
    if let Some(t) = timing {
        sim.set_timing(t).unwrap();
    }
    sim.run(sim.total()).unwrap();
    assert_eq!(sim.state.host.wrong_reads, 0);
    sim
}

/// `time_us device lba sectors type` (type 0 write, 1 read; 512-byte sectors = pages).
const HAND: &str = "\
0 0 0 4 0
100 0 0 1 0
5000 0 4 1 0
6000 0 4 1 0
7000 0 1 1 1
10900 0 2 1 1
20000 0 3 1 1
";

fn times(sim: &Simulator) -> Vec<(u64, u64, u64, u64)> {
    sim.host_timeline()
        .unwrap()
        .iter()
        .map(|h: &HostTime| (h.arrival_ns / US, h.start_ns / US, h.done_ns / US, h.gc_ns / US))
        .collect()
}

/// Every response time of a hand-made trace, computed by hand. Costs: a program 200 us,
/// a read 15 us; BAST's full merge of LBN 0 (section 2.2: lpn 0 from the log block, lpns
/// 1-3 from the data block copied to a free block, then both erased) is
/// 4 × (15 + 200) + 2 × 2000 = 4,860 us, done before the write that needs the log block.
#[test]
fn open_model_response_times_equal_a_hand_computation() {
    let sim = bast_trace(HAND, Some(open()));
    let want = vec![
        // (arrival, start, done, gc) in us.
        // One record of 4 pages: one request, 4 programs.
        (0, 0, 800, 0),
        // Arrives while the first is served: waits 700 us.
        (100, 800, 1000, 0),
        // LBN 1's first write, the chip idle.
        (5000, 5000, 5200, 0),
        // lpn 4 again: LBN 1 needs the one log block → full merge of LBN 0 (4,860 us,
        // 6,000..10,860), then its program (10,860..11,060).
        (6000, 6000, 11060, 4860),
        // A read arriving mid-merge (at 7,000) waits the merge's remaining 3,860 us and
        // the write's program (200 us) it was scheduled with: 4,060 us, then 15 us.
        (7000, 11060, 11075, 0),
        // Arrives during that program (after the merge): waits behind the write and the
        // read before it.
        (10900, 11075, 11090, 0),
        // The chip idle again.
        (20000, 20000, 20015, 0),
    ];
    assert_eq!(times(&sim), want);
    let h = sim.host_timeline().unwrap();
    assert_eq!(h[4].wait_ns(), (10860 - 7000) * US + 200 * US, "the merge's remaining time, then the write's program");
    let m = sim.state.metrics();
    assert_eq!((m.timing.model, m.timing.arrivals), ("open", "trace"));
    // Multi-page requests count once: 4 write requests of 7 pages, 3 reads.
    assert_eq!((m.timing.write.requests, m.timing.write.pages, m.timing.read.requests), (4, 7, 3));
    assert_eq!((m.host_writes, m.host_reads), (7, 3), "page-level counts stay");
    let r = &m.timing.read;
    assert_eq!(r.response_us.max, 4075.0);
    assert_eq!(r.response_us.p50, 190.0, "nearest rank of 15, 190, 4,075 us");
    assert_eq!((r.waited, r.delayed_by_gc), (2, 2));
    assert!((r.delayed_by_gc_share - 2.0 / 3.0).abs() < 1e-12);
    assert_eq!(r.wait_us.max, 4060.0);
    assert_eq!(r.service_us.max, 15.0);
    let w = &m.timing.write;
    assert_eq!((w.response_us.max, w.response_us.p50, w.waited, w.delayed_by_gc), (5060.0, 800.0, 1, 0));
    assert_eq!(w.response_us.mean, (800.0 + 900.0 + 200.0 + 5060.0) / 4.0);
}

/// Closed model: each request starts when the previous one ends, so no request waits
/// and the response is the service; the page-level figures are today's, equal with or
/// without the open model (which changes only `timing`).
#[test]
fn closed_model_keeps_todays_figures() {
    let closed = bast_trace(HAND, None);
    let m = closed.state.metrics();
    assert_eq!((m.timing.model, m.timing.arrivals), ("closed", ""));
    let mut t = 0;
    for (h, (a, s, d, _)) in closed.host_timeline().unwrap().iter().zip(times(&closed)) {
        assert_eq!((a, s), (t, t), "request {} arrives when the previous ends", h.index);
        t = d;
    }
    assert_eq!(t * US, closed.state.flash.elapsed_ns, "the clock is the sum of operation times");
    assert_eq!((m.timing.read.waited, m.timing.write.waited), (0, 0));
    // Page-level latency: reads 15 us each; writes 200 us but one of 5,060.
    assert_eq!((m.latency_us.read.worst, m.latency_us.read.mean), (15.0, 15.0));
    assert_eq!(m.latency_us.write.worst, 5060.0);
    assert_eq!(m.latency_us.write.count, 7);
    // The 4-page record is one request of 800 us.
    assert_eq!(m.timing.write.service_us.max, 5060.0);
    assert_eq!(m.timing.write.response_us.p50, 200.0);
    assert_eq!(closed.host_timeline().unwrap()[0].response_ns(), 800 * US);
    let strip = |m: &Metrics| {
        let mut v = serde_json::to_value(m).unwrap();
        v.as_object_mut().unwrap().remove("timing");
        v
    };
    let opened = bast_trace(HAND, Some(open())).state.metrics();
    assert_eq!(strip(&m), strip(&opened), "the timing model changes no other figure");
    // Switching back to closed replays to the same figures.
    let mut sim = bast_trace(HAND, Some(open()));
    sim.set_timing(TimingConfig::default()).unwrap();
    assert_eq!(sim.state.metrics(), m);
}

/// Time scale multiplies the gaps; a seek replays the clock exactly; the player and
/// the full-speed path agree.
#[test]
fn time_scale_seek_and_full_speed_agree() {
    let mut half = bast_trace(HAND, Some(TimingConfig { time_scale: 0.5, ..open() }));
    assert_eq!(half.host_timeline().unwrap()[6].arrival_ns, 10_000 * US);
    let end = half.state.metrics();
    assert_eq!(end.timing.time_scale, 0.5);
    half.seek(3).unwrap();
    half.seek(half.total()).unwrap();
    assert_eq!(half.state.metrics(), end);
    let mut fast = bast_trace(HAND, None);
    fast.set_mode(RunMode::FullSpeed);
    fast.record_timeline(false);
    fast.set_timing(TimingConfig { time_scale: 0.5, ..open() }).unwrap();
    fast.run(fast.total()).unwrap();
    assert_eq!(fast.state.metrics(), end);
}

#[test]
fn open_needs_times_or_a_rate_and_rates_space_arrivals() {
    let sc = scenario("page", SchemeParams::default(), 16, 4, Workload::Sequential { n: 20 });
    let mut sim = sc.build().unwrap();
    let e = sim.set_timing(open()).unwrap_err();
    assert!(e.contains("arrival rate"), "{e}");
    sim.set_timing(TimingConfig { rate: Some(1000.0), ..open() }).unwrap();
    assert_eq!(&sim.arrivals().unwrap()[..3], &[0, 1_000_000, 2_000_000]);
    sim.set_timing(TimingConfig { rate: Some(1000.0), spacing: Spacing::Poisson, seed: 7, ..open() }).unwrap();
    let a = sim.arrivals().unwrap().to_vec();
    assert!(a.windows(2).all(|w| w[0] <= w[1]) && a[19] > 0);
    sim.run(20).unwrap();
    assert_eq!(sim.state.metrics().timing.arrivals, "poisson");
    assert!(TimingConfig { rate: Some(-1.0), ..open() }.check().is_err());
    assert!(TimingConfig { time_scale: 0.0, ..open() }.check().is_err());
}

/// Every LPN written once, then `n` random requests, 30 % reads (as tests/rftl.rs).
fn rftl_run(scheme: &str, n: usize, timing: TimingConfig) -> Simulator {
    let sc = Scenario {
        scheme: scheme.into(),
        params: SchemeParams { utilisation: Some(1.0), ..Default::default() },
        chip: ChipSpec { preset: "rftl-large".into(), blocks: Some(150), pages_per_block: None },
        workload: Workload::Sequential { n: 1 },
        run: Default::default(),
    };
    let first = sc.fresh().unwrap();
    let space = first.ftl.logical_pages();
    let mut reqs: Vec<Request> = (0..space).map(|lpn| Request::Write { lpn }).collect();
    let mut rng = SplitMix64::new(9);
    for _ in 0..n {
        let lpn = rng.below(space as u64) as u32;
        reqs.push(if rng.unit() < 0.3 { Request::Read { lpn } } else { Request::Write { lpn } });
    }
    let me = sc.clone();
    let mut sim = Simulator::new(Arc::new(move || me.fresh().unwrap()), reqs);
    sim.set_mode(RunMode::FullSpeed);
    sim.set_timing(timing).unwrap();
    sim.run(sim.total()).unwrap();
    assert_eq!(sim.state.host.wrong_reads, 0);
    sim
}

/// RFTL section 3: requests arrive at most once per period p and each is served within
/// L(p) = max{T_er + U(e_w), U(e_r)} = 2,325 us on the large-block chip (Table 2), so
/// with arrivals every 2,325 us no request ever waits and every response stays within
/// the bound. GFTL's service can reach T_er + T_rdpg + π T_rdoob = 2,825 us and NFTL's
/// merges take two erases: at the same arrivals, requests arriving during their GC
/// queue, and responses exceed the schemes' own worst service bounds (Table 5's order).
#[test]
fn rftl_bound_holds_under_open_arrivals_and_gftl_nftl_exceed_theirs() {
    let period_us = 2325.0;
    let at = |scheme| {
        rftl_run(scheme, 20_000, TimingConfig { rate: Some(1e6 / period_us), ..open() }).state.metrics().timing
    };
    let r = at("rftl");
    assert_eq!(r.model, "open");
    assert_eq!(r.write.response_us.max, 2325.0, "RFTL's worst write response is its bound, L(p)");
    assert_eq!(r.read.response_us.max, 50.0);
    assert_eq!((r.read.waited, r.write.waited), (0, 0), "nothing waits: every service is within the period");
    let g = at("gftl");
    let gftl_bound = 2000.0 + 25.0 + 32.0 * 25.0;
    assert!(g.read.delayed_by_gc + g.write.delayed_by_gc > 0);
    assert!(g.read.response_us.max.max(g.write.response_us.max) > gftl_bound, "GFTL: {g:?}");
    let n = at("nftl");
    let nftl_bound = 25.0 + 32.0 * 25.0 + 31.0 * 325.0 + 300.0 + 2.0 * 2000.0;
    assert!(n.read.delayed_by_gc > 0);
    assert!(n.read.response_us.max.max(n.write.response_us.max) > nftl_bound, "NFTL: {n:?}");
}

/// A trace read in one unit and meant in another is rescaled by the run's `time_unit`
/// (MQSim writes the DiskSim layout in ns; the parser reads DiskSim's ms).
#[test]
fn time_unit_rescales_a_trace_read_in_another_unit() {
    let sc = scenario("page", SchemeParams::default(), 16, 4, Workload::Sequential { n: 1 });
    let raw = parse_bytes(b"1000 0 0 1 0\n1500 0 1 1 0\n", TraceOptions { page_bytes: 512, ..TraceOptions::default() })
        .unwrap();
    let (mut sim, _) = load::build_with_raw(&sc, &raw, Fit::None).unwrap();
    sim.set_timing(open()).unwrap();
    assert_eq!(sim.arrivals(), Some(&[0, 500_000_000][..]), "read as DiskSim's ms");
    sim.set_timing(TimingConfig { time_unit: Some(TimeUnit::Ns), ..open() }).unwrap();
    assert_eq!(sim.arrivals(), Some(&[0, 500][..]), "meant as ns");
    sim.set_timing(TimingConfig { time_unit: Some(TimeUnit::Us), time_scale: 2.0, ..open() }).unwrap();
    assert_eq!(sim.arrivals(), Some(&[0, 1_000_000][..]));
}

/// Op-level stepping shows the queue: while BAST's full merge of LBN 0 runs, the read
/// that arrived at 7,000 us waits; when the read starts, the narration's sentence says
/// how long it waited and behind what.
#[test]
fn the_queue_at_each_operation_and_the_narration() {
    use ftl_sim::stepper::Stepper;
    let sc = scenario(
        "bast",
        SchemeParams { log_blocks: Some(1), ..Default::default() },
        16,
        4,
        Workload::Sequential { n: 1 },
    );
    let opts = TraceOptions { page_bytes: 512, time_unit: Some(TimeUnit::Us), ..TraceOptions::default() };
    let raw = parse_bytes(HAND.as_bytes(), opts).unwrap();
    let mut sc = sc;
    sc.run.timing = Some(open());
    let (sim, _) = load::build_with_raw(&sc, &raw, Fit::None).unwrap();
    let mut st = Stepper::new(sim);
    // Requests 0-2 (pages 0-5) whole: the chip is idle at 5,200 us.
    st.seek(6).unwrap();
    let q = st.queue();
    assert_eq!((q.model, q.now_us, q.waiting.len()), ("open", 5200.0, 0));
    // Into the write of lpn 4 (page 6): the merge's operations, one at a time.
    let mut seen_read_waiting = false;
    while st.step_op().unwrap() && st.sim.pos() == 7 && st.op_cursor() < st.op_count() {
        let q = st.queue();
        let s = q
            .serving
            .as_ref()
            .unwrap_or_else(|| panic!("{q:?} pos {} k {}/{}", st.sim.pos(), st.op_cursor(), st.op_count()));
        assert_eq!((s.index, s.op, s.lpn, s.waited_us), (3, "w", Some(4), 0.0));
        if q.now_us >= 7000.0 {
            assert_eq!(q.waiting[0].index, 4);
            assert_eq!((q.waiting[0].op, q.waiting[0].lpn), ("r", Some(1)));
            assert_eq!(q.waiting[0].waited_us, q.now_us - 7000.0);
            seen_read_waiting = true;
        } else {
            assert!(q.waiting.is_empty());
        }
        assert!(q.note.is_none());
    }
    assert!(seen_read_waiting, "the read arrives during the merge");
    // The read's one operation: it waited 4,060 us behind the full merge.
    st.step_op().unwrap();
    let q = st.queue();
    assert_eq!(q.serving.as_ref().unwrap().waited_us, 4060.0);
    assert_eq!(
        q.note.as_deref(),
        Some("read of lpn 1 waits 4.1 ms behind the full merge that the write of lpn 4 triggered")
    );
    assert!(
        st.narration()
            .contains("\nRead of lpn 1 waits 4.1 ms behind the full merge that the write of lpn 4 triggered."),
        "{}",
        st.narration()
    );
    // The read of lpn 2 (arrived at 10,900) waits behind it.
    assert_eq!(q.waiting.iter().map(|w| w.index).collect::<Vec<_>>(), vec![5]);
}

/// A Stepper on BAST (one log block, classroom chip) running `HAND` in `timing`.
fn hand_stepper(timing: TimingConfig) -> ftl_sim::stepper::Stepper {
    let mut sc = scenario(
        "bast",
        SchemeParams { log_blocks: Some(1), ..Default::default() },
        16,
        4,
        Workload::Sequential { n: 1 },
    );
    sc.run.timing = Some(timing);
    let opts = TraceOptions { page_bytes: 512, time_unit: Some(TimeUnit::Us), ..TraceOptions::default() };
    let raw = parse_bytes(HAND.as_bytes(), opts).unwrap();
    let (sim, _) = load::build_with_raw(&sc, &raw, Fit::None).unwrap();
    let mut st = ftl_sim::stepper::Stepper::new(sim);
    st.set_recoverer(sc.recoverer());
    st
}

/// Issue 34: a power cut inside BAST's full merge (the write of lpn 4, page request 6)
/// and the recovery take the chip's time. Closed model: the clock equals the chip's
/// operation time at every request boundary, cuts included (before, `elapsed_us` rose by
/// the interrupted work and the recovery while `now_us` stood still). The interrupted
/// write is not acknowledged: no response time, counted in `interrupted`; the recovery
/// is in `timing.recovery`.
#[test]
fn a_cut_and_its_recovery_take_the_chips_time_closed() {
    let mut st = hand_stepper(TimingConfig::default());
    st.seek(6).unwrap();
    let e0 = st.sim.state.flash.elapsed_ns;
    assert_eq!(st.queue().now_us * 1000.0, e0 as f64);
    for _ in 0..3 {
        st.step_op().unwrap();
    }
    st.power_cut().unwrap();
    let cut_ns = st.sim.state.flash.elapsed_ns;
    // Three of the merge's operations ran before the cut: a read, a program, a read.
    assert_eq!(cut_ns - e0, (15 + 200 + 15) * US);
    assert_eq!(st.queue().now_us * 1000.0, cut_ns as f64, "the interrupted work is on the clock");
    st.recover().unwrap();
    while st.recovering() {
        st.step_op().unwrap();
    }
    let rec_ns = st.sim.state.flash.elapsed_ns - cut_ns;
    assert!(rec_ns > 0, "BAST's recovery reads the chip");
    assert_eq!(st.queue().now_us * 1000.0, st.sim.state.flash.elapsed_ns as f64, "the recovery is on the clock");
    while st.step_request().unwrap() {
        assert_eq!(st.sim.state.clock.free_at(), st.sim.state.flash.elapsed_ns);
    }
    let t = st.sim.state.metrics().timing;
    assert_eq!((t.write.requests, t.write.interrupted, t.read.requests), (3, 1, 3));
    assert_eq!(t.recovery.recoveries, 1);
    assert_eq!(t.recovery.interrupted, 1);
    assert_eq!(t.recovery.interrupted_work_us, 230.0);
    assert_eq!(t.recovery.recovery_us.max, rec_ns as f64 / 1000.0);
    assert_eq!(t.requests, 6, "acknowledged host requests");
}

/// Open model: the same cut; the read of lpn 1 that arrives at 7,000 us waits for the
/// interrupted work and the recovery, exactly: the write started at 6,000 us (arrival; the
/// chip was idle), so the read starts at 6,000 + 230 + recovery. The narration names the
/// recovery, and the read counts as delayed by it.
#[test]
fn requests_queued_behind_a_recovery_wait_for_it_open() {
    let mut st = hand_stepper(open());
    st.seek(6).unwrap();
    for _ in 0..3 {
        st.step_op().unwrap();
    }
    st.power_cut().unwrap();
    let cut_ns = st.sim.state.flash.elapsed_ns;
    assert_eq!(st.queue().now_us, 6230.0);
    st.recover().unwrap();
    // While the recovery is revealed, the clock runs with its operations.
    let mut last = 6230.0;
    while st.recovering() {
        st.step_op().unwrap();
        let now = st.queue().now_us;
        assert!(now >= last, "the clock never goes back ({now} < {last})");
        last = now;
    }
    let rec_us = (st.sim.state.flash.elapsed_ns - cut_ns) / US;
    assert_eq!(st.queue().now_us, (6230 + rec_us) as f64);
    // The read of lpn 1 (host request 4, page request 7) arrived at 7,000 us.
    st.step_request().unwrap();
    let q = st.queue();
    let waited = 6230 + rec_us - 7000;
    assert!(waited > 0, "the recovery ({rec_us} us) outlasts the read's arrival");
    assert_eq!(q.serving.as_ref().map(|s| (s.index, s.waited_us)), Some((4, waited as f64)));
    let note =
        format!("read of lpn 1 waits {} behind the recovery from a power cut", ftl_sim::stepper::fmt_wait(waited * US));
    assert_eq!(q.note.as_deref(), Some(note.as_str()));
    while st.step_request().unwrap() {}
    let t = st.sim.state.metrics().timing;
    assert_eq!(t.read.delayed_by_recovery, 1);
    assert_eq!((t.write.requests, t.write.interrupted), (3, 1));
    assert_eq!(t.read.wait_us.max, waited as f64);
}

/// A record of 4 pages cut between its second and third page: the host never got its
/// acknowledgement, so it is counted as interrupted, not as a write with a response time,
/// though its last two pages still run (and take the chip) after the recovery. Before,
/// it was a completed write of 4 pages.
#[test]
fn a_record_cut_part_way_is_not_acknowledged() {
    for timing in [TimingConfig::default(), open()] {
        let mut st = hand_stepper(timing);
        st.seek(2).unwrap();
        assert_eq!(st.sim.state.clock.current().map(|h| h.pages), Some(2));
        st.power_cut().unwrap();
        st.recover().unwrap();
        while st.recovering() {
            st.step_op().unwrap();
        }
        while st.step_request().unwrap() {}
        let t = st.sim.state.metrics().timing;
        assert_eq!((t.write.requests, t.write.interrupted, t.write.pages), (3, 1, 7), "{}", t.model);
        // The three acknowledged writes are the one-page ones.
        assert_eq!(t.write.service_us.max, 200.0 + 4860.0, "{}", t.model);
        assert_eq!(t.recovery.recoveries, 1);
    }
}

/// Many cuts in one closed-model session (between requests, mid-request, inside a
/// recovery), on a trace of multi-page records: at every request boundary the clock equals
/// the chip's operation time, and every host request is acknowledged, interrupted or in
/// service.
#[test]
fn the_clock_keeps_the_chips_time_through_many_cuts() {
    use ftl_sim::stepper::Stepper;
    let mut text = String::new();
    let mut g = SplitMix64::new(34);
    for i in 0..600u64 {
        let pages = 1 + g.below(4);
        let lba = g.below(40 - pages);
        text.push_str(&format!("{} 0 {lba} {pages} {}\n", i * 100, u64::from(g.below(4) == 0)));
    }
    let mut sc = scenario(
        "fast",
        SchemeParams { log_blocks: Some(3), ..Default::default() },
        16,
        4,
        Workload::Sequential { n: 1 },
    );
    sc.run.timing = Some(TimingConfig::default());
    let opts = TraceOptions { page_bytes: 512, time_unit: Some(TimeUnit::Us), ..TraceOptions::default() };
    let raw = parse_bytes(text.as_bytes(), opts).unwrap();
    let (sim, _) = load::build_with_raw(&sc, &raw, Fit::None).unwrap();
    let mut st = Stepper::new(sim);
    st.set_recoverer(sc.recoverer());
    let mut recoveries = 0;
    for cut in 0..60 {
        for _ in 0..g.below(4) {
            st.step_request().unwrap();
        }
        for _ in 0..g.below(6) {
            st.step_op().unwrap();
        }
        if st.power_cut().is_err() {
            continue;
        }
        st.recover().unwrap();
        recoveries += 1;
        if st.recovering() && g.below(2) == 0 {
            st.step_op().unwrap();
            if st.recovering() {
                st.power_cut().unwrap();
                st.recover().unwrap();
            }
        }
        while st.recovering() {
            st.step_op().unwrap();
        }
        let s = &st.sim.state;
        assert_eq!(s.clock.free_at(), s.flash.elapsed_ns, "cut {cut}");
    }
    while st.step_request().unwrap() {}
    let s = &st.sim.state;
    assert_eq!(s.clock.free_at(), s.flash.elapsed_ns);
    let t = s.metrics().timing;
    assert_eq!(t.recovery.recoveries, recoveries);
    assert!(t.recovery.interrupted > 0);
    let begun = s.clock.begun();
    assert_eq!(t.read.requests + t.write.requests + t.read.interrupted + t.write.interrupted, begun);
}
