//! `ftl run`: one scheme on one workload, its metrics and its whole setup. A sweep row is
//! the same computation (row.rs), and `--scenario FILE` runs an app scenario file, a
//! `ftl run --json` output or a `ftl sweep --json` row again.

use std::process::ExitCode;

use clap::Args;
use ftl_sim::scenario::Scenario;

use super::row::{run_point, run_scenario, Row, RowOptions};
use crate::output::{fail, print_human, print_json, print_trace_summary, EXIT_FAILED_CHECK};
use crate::setup::{Setup, TraceFile};
use crate::timing::{print_timing, TimingArgs};

#[derive(Args)]
pub(crate) struct RunArgs {
    /// Scheme: see `ftl list` (not with --scenario, which names it).
    #[arg(long, required_unless_present = "scenario")]
    pub(crate) scheme: Option<String>,
    /// Run a scenario given whole: an app scenario file (JSON), or one line of `ftl sweep
    /// --json` / the output of `ftl run --json` (its `scenario` and trace file are used).
    /// The chip, parameters, workload space and preconditioning come from the file; a
    /// trace comes from --trace, else from the row's `setup.trace.path`.
    #[arg(long, conflicts_with_all = ["scheme", "gen", "pattern"])]
    pub(crate) scenario: Option<std::path::PathBuf>,
    #[command(flatten)]
    pub(crate) setup: Setup,
    /// Print one JSON object with stable field names (docs/cli.md).
    #[arg(long)]
    pub(crate) json: bool,
    /// Write every request's response time to this CSV file
    /// (`request,op,lpn,total_us,gc_us`; gc_us = GC / merge work carried by the request).
    #[arg(long)]
    pub(crate) timeline: Option<std::path::PathBuf>,
    #[command(flatten)]
    pub(crate) timing: TimingArgs,
    /// With --scenario: run the trace given although its SHA-256 differs from the one the
    /// row recorded (a warning names both).
    #[arg(long, requires = "scenario")]
    pub(crate) accept_trace_change: bool,
    /// Also cut power at the end of the run and recover from the chip (as `ftl sweep
    /// --recovery`): adds the `recovery` object.
    #[arg(long)]
    pub(crate) recovery: bool,
    /// With --recovery: recover at this many points spread evenly over the run.
    #[arg(long, default_value_t = 1, requires = "recovery")]
    pub(crate) recovery_samples: usize,
    /// The row index of a sweep's job (`ftl sweep --list-jobs` sets it; `ftl merge`
    /// orders by it).
    #[arg(long, requires_all = ["rows", "sweep_spec"])]
    pub(crate) row: Option<u64>,
    /// The number of rows of the sweep the job belongs to.
    #[arg(long, requires = "row")]
    pub(crate) rows: Option<u64>,
    /// The plan of the sweep the job belongs to (JSON, from `--list-jobs`): the row
    /// carries it and its fingerprint, so `ftl merge` refuses rows of other sweeps.
    #[arg(long, value_name = "JSON", requires = "row")]
    pub(crate) sweep_spec: Option<String>,
    /// The device: channels, dies per channel, stripe, bus rate (docs/ssd.md).
    #[command(flatten)]
    pub(crate) ssd: crate::device::DeviceArgs,
}

pub(crate) fn execute(mut args: RunArgs) -> ExitCode {
    let sweep = match args.sweep_spec.as_deref().map(serde_json::from_str::<serde_json::Value>).transpose() {
        Ok(s) => s,
        Err(e) => return fail(format!("--sweep-spec: not the JSON --list-jobs writes: {e}")),
    };
    let cap = ftl_sim::limits::MAX_RECOVERY_SAMPLES;
    if let Err(e) = ftl_sim::limits::at_most("--recovery-samples", args.recovery_samples as u64, cap) {
        return fail(e);
    }
    let row = match run(&mut args) {
        Ok(r) => r,
        Err(e) => return fail(e),
    };
    if let Some(e) = &row.error {
        return fail(e);
    }
    if let Some(s) = &row.summary {
        print_trace_summary(s);
    }
    if let Some(d) = &row.device {
        if args.json {
            print_json(&with_row(row.to_json(&args.setup), &args, sweep.as_ref()));
        } else {
            print_device(d);
            print_setup(&row);
        }
        if d.wrong_reads > 0 {
            eprintln!("error: {} reads disagreed with the reference model", d.wrong_reads);
            return ExitCode::from(EXIT_FAILED_CHECK);
        }
        return ExitCode::SUCCESS;
    }
    let m = row.metrics.as_ref().expect("a row without error has metrics");
    if args.json {
        print_json(&with_row(row.to_json(&args.setup), &args, sweep.as_ref()));
    } else {
        print_human(m);
        print_setup(&row);
        print_timing(&m.timing);
    }
    if m.wrong_reads > 0 {
        eprintln!("error: {} reads disagreed with the reference model", m.wrong_reads);
        return ExitCode::from(EXIT_FAILED_CHECK);
    }
    ExitCode::SUCCESS
}

/// A row's JSON with, for a sweep's job line (`--row I --rows N --sweep-spec`), its place
/// in the sweep: `row`, `rows` and the sweep.
fn with_row(mut v: serde_json::Value, args: &RunArgs, sweep: Option<&serde_json::Value>) -> serde_json::Value {
    if let (Some(i), Some(n), Some(spec)) = (args.row, args.rows, sweep) {
        v["row"] = i.into();
        v["rows"] = n.into();
        v["sweep"] = super::sweep::sweep_json(spec);
    }
    v
}

/// A device of several dies: its shape, host response times and each die's share.
fn print_device(d: &ftl_sim::ssd::DeviceSummary) {
    println!(
        "device             {} channels x {} dies = {} dies, stripe {} ({} pages), channel {} MB/s ({:.2} us a page)",
        d.channels,
        d.dies_per_channel,
        d.dies,
        d.stripe.name(),
        d.stripe_unit_pages,
        d.bus_mb_s,
        d.channel_transfer_us
    );
    println!(
        "  host requests      {}, wrong reads {}, makespan {:.1} us",
        d.host_requests, d.wrong_reads, d.makespan_us
    );
    for (name, r) in [("read", &d.read), ("write", &d.write)] {
        println!(
            "  {name:<6} response  n {} mean {:.1} p50 {:.1} p99 {:.1} max {:.1} us, delayed by GC {} ({:.1} %)",
            r.count,
            r.mean_us,
            r.p50_us,
            r.p99_us,
            r.max_us,
            r.delayed_by_gc,
            r.delayed_by_gc_share * 100.0
        );
    }
    println!("  die  channel  pages   busy (us)  utilisation  mean wait (us)  bus wait (us)  GC-delayed  erases  WA");
    for x in &d.per_die {
        println!(
            "  {:<4} {:<8} {:<7} {:<10.1} {:<12.3} {:<15.1} {:<14.2} {:<11} {:<7} {:.2}",
            x.die,
            x.channel,
            x.page_requests,
            x.busy_us,
            x.utilisation,
            x.mean_wait_us,
            x.mean_channel_wait_us,
            x.delayed_by_gc,
            x.erases,
            x.write_amplification
        );
    }
}

/// What the human output adds under the metrics: space, fit, request-list hash (give
/// them back with --space and --fit to reproduce the run).
fn print_setup(row: &Row) {
    let p = row.plan.as_ref();
    println!(
        "  logical space      {} pages exported, workload in {} pages",
        p.and_then(|p| p.logical_pages).unwrap_or(0),
        p.and_then(|p| p.workload_pages).unwrap_or(0)
    );
    println!("  request list       {} requests, hash {}", row.requests, row.request_hash.as_deref().unwrap_or("-"));
    if let Some(f) = &row.trace {
        println!("  trace              {} ({} bytes, sha256 {}), fit {}", f.name, f.bytes, f.sha256, fit_name(row));
    }
}

fn fit_name(row: &Row) -> String {
    serde_json::to_value(row.fit).ok().and_then(|v| v.as_str().map(String::from)).unwrap_or_default()
}

fn run(args: &mut RunArgs) -> Result<Row, String> {
    if args.scenario.is_some() && args.ssd.given() {
        return Err("--scenario replays the device its scenario records (its `device`): give no device flags".into());
    }
    let opts = RowOptions {
        space: args.setup.space,
        recovery: args.recovery,
        recovery_samples: args.recovery_samples,
        timeline: args.timeline.is_some() || args.timing.request_timeline.is_some(),
        keep: true,
        timing: args.timing.option()?,
        own_trace: true,
        device: None,
    };
    let mut row = match &args.scenario {
        Some(file) => {
            let (sc, rec) = read_scenario(file)?;
            let given = args.setup.trace.first().cloned();
            let trace = given.clone().or(rec.trace.clone());
            // The row's trace flags, unless given again: the same request list.
            let st = &mut args.setup;
            if given.is_none() || (st.columns.is_empty() && st.write_ops.is_empty() && st.read_ops.is_empty()) {
                if st.columns.is_empty() {
                    st.columns = rec.columns.clone();
                }
                if st.write_ops.is_empty() {
                    st.write_ops = rec.write_ops.clone();
                }
                if st.read_ops.is_empty() {
                    st.read_ops = rec.read_ops.clone();
                }
                if st.id_unit.is_none() {
                    st.id_unit = rec.id_unit.clone();
                }
            }
            let mut sc = sc;
            if let Some(n) = args.setup.space {
                let ppb = sc.chip.chip()?.geometry.pages_per_block;
                sc.run.workload_space =
                    Some(ftl_sim::scenario::WorkloadSpace { logical_pages: n, pages_per_block: ppb });
            }
            let accept = args.accept_trace_change;
            let check = |f: &TraceFile| -> Result<(), String> {
                let Some(want) = rec.sha256.as_deref() else { return Ok(()) };
                if f.sha256 == want {
                    return Ok(());
                }
                let msg = format!(
                    "trace {} (sha256 {}) is not the trace the row ran ({}, sha256 {})",
                    f.path.display(),
                    &f.sha256[..12],
                    rec.trace_name.as_deref().unwrap_or("?"),
                    &want[..want.len().min(12)]
                );
                if accept {
                    eprintln!("warning: {msg}: running it as --accept-trace-change asks");
                    return Ok(());
                }
                Err(format!("{msg}: give that file with --trace FILE, or --accept-trace-change to run this one"))
            };
            let row = run_scenario(&args.setup, sc, trace.as_deref(), &opts, &check);
            let same_trace = row.trace.as_ref().map(|f| Some(f.sha256.as_str()) == rec.sha256.as_deref());
            if let (Some(want), Some(got)) = (&rec.hash, &row.request_hash) {
                if args.setup.space.is_none() && want != got && same_trace != Some(false) {
                    eprintln!(
                        "warning: the request list differs from the recorded one (hash {got}, recorded {want}): {}",
                        if row.trace.is_some() {
                            "the trace is the row's: give its trace flags (--column, --write-op, --read-op, --id-unit, --fit) as the row had them"
                        } else {
                            "the workload is not the row's"
                        }
                    );
                }
            }
            row
        }
        None => {
            let scheme = args.scheme.as_deref().expect("clap requires --scheme");
            let opts = RowOptions { device: args.ssd.shape(scheme)?, ..opts };
            let point = args.setup.point(scheme)?;
            run_point(&args.setup, &point, &opts)
        }
    };
    if let (Some(dev), Some(sim)) = (&row.dev, &row.sim) {
        write_device_timelines(args, dev, sim.requests())?;
        row.sim = None;
        row.dev = None;
        return Ok(row);
    }
    if let (Some(path), Some(sim)) = (&args.timeline, &row.sim) {
        use std::fmt::Write as _;
        let mut out = String::from("request,op,lpn,total_us,gc_us\n");
        let reqs = (0..sim.total()).map_while(|i| sim.request(i));
        for (i, (r, t)) in reqs.zip(sim.timeline().unwrap_or(&[])).enumerate() {
            let (op, lpn) = match r {
                ftl_sim::trace::Request::Read { lpn } => ("r", lpn.to_string()),
                ftl_sim::trace::Request::Write { lpn } => ("w", lpn.to_string()),
                other => {
                    (if matches!(other, ftl_sim::trace::Request::Freeze) { "freeze" } else { "state" }, String::new())
                }
            };
            let _ = writeln!(out, "{},{op},{lpn},{},{}", i + 1, t.total_ns as f64 / 1000.0, t.gc_ns as f64 / 1000.0);
        }
        std::fs::write(path, out).map_err(|e| format!("cannot write {}: {e}", path.display()))?;
    }
    if let Some(sim) = &row.sim {
        args.timing.write_request_timeline(sim)?;
    }
    row.sim = None;
    Ok(row)
}

/// `--timeline` and `--request-timeline` of a device run (docs/cli.md): one chip's columns,
/// the page request's die and die-local LPN after them; a host request's times on the
/// device's clock.
fn write_device_timelines(
    args: &RunArgs,
    dev: &ftl_sim::ssd::Device,
    requests: &[ftl_sim::trace::Request],
) -> Result<(), String> {
    use ftl_sim::trace::Request;
    use std::fmt::Write as _;
    let us = |ns: u64| ns as f64 / 1000.0;
    let op = |r: Option<&Request>| match r {
        Some(Request::Read { lpn }) => ("r", lpn.to_string()),
        Some(Request::Write { lpn }) => ("w", lpn.to_string()),
        _ => ("state", String::new()),
    };
    let write = |path: &std::path::Path, out: String| {
        std::fs::write(path, out).map_err(|e| format!("cannot write {}: {e}", path.display()))
    };
    if let Some(path) = &args.timeline {
        let mut out = String::from("request,op,lpn,total_us,gc_us,die,die_lpn\n");
        for (i, p) in dev.pages.as_deref().unwrap_or(&[]).iter().enumerate() {
            let (op, lpn) = op(requests.get(i));
            let _ = writeln!(out, "{},{op},{lpn},{},{},{},{}", i + 1, us(p.service_ns), us(p.gc_ns), p.die, p.lpn);
        }
        write(path, out)?;
    }
    if let Some(path) = &args.timing.request_timeline {
        let mut out =
            String::from("request,op,first_lpn,pages,arrival_us,start_us,wait_us,service_us,gc_us,response_us\n");
        let mut first = 0usize;
        for (k, h) in dev.hosts.iter().enumerate() {
            let (op, lpn) = op(requests.get(first));
            first += h.pages as usize;
            let _ = writeln!(
                out,
                "{},{op},{lpn},{},{},{},{},{},{},{}",
                k + 1,
                h.pages,
                us(h.arrival_ns),
                us(h.start_ns),
                us(h.start_ns - h.arrival_ns),
                us(h.done_ns - h.start_ns),
                us(h.gc_ns),
                us(h.done_ns - h.arrival_ns)
            );
        }
        write(path, out)?;
    }
    Ok(())
}

/// What a scenario file gives: an app scenario, or a row (`{"scenario": ..., "setup":
/// {"trace": {...}, "request_hash"}}`) with what identifies its trace.
#[derive(Default)]
struct Recorded {
    /// The row's trace, resolved (`resolve_trace`).
    trace: Option<std::path::PathBuf>,
    trace_name: Option<String>,
    sha256: Option<String>,
    hash: Option<String>,
    columns: Vec<String>,
    write_ops: Vec<String>,
    read_ops: Vec<String>,
    id_unit: Option<String>,
}

/// A row's `setup.trace.path`: absolute as rows record it; a relative one is taken
/// against the directory of the row file. When the file is not there, the trace's name
/// beside the row file (traces moved with their rows); the SHA-256 check guards either.
fn resolve_trace(path: &str, name: Option<&str>, file: &std::path::Path) -> std::path::PathBuf {
    let dir = file.parent().map(|d| if d.as_os_str().is_empty() { std::path::Path::new(".") } else { d });
    let dir = dir.unwrap_or(std::path::Path::new("."));
    let p = std::path::Path::new(path);
    let p = if p.is_absolute() { p.to_path_buf() } else { dir.join(p) };
    if !p.exists() {
        if let Some(beside) = name.map(|n| dir.join(n)).filter(|b| b.exists()) {
            return beside;
        }
    }
    p
}

fn read_scenario(file: &std::path::Path) -> Result<(Scenario, Recorded), String> {
    let f = std::fs::File::open(file).map_err(|e| format!("cannot read scenario {}: {e}", file.display()))?;
    // Streamed, at most MAX_SCENARIO_BYTES; a file of sweep rows holds one per line: the
    // first value is taken.
    let name = file.display().to_string();
    let v = ftl_sim::scenario::read_json_value(f, ftl_sim::limits::MAX_SCENARIO_BYTES, &name)?;
    if let Some(sc) = v.get("scenario") {
        if sc.is_null() {
            return Err(format!("{}: the row did not run (its error: {})", file.display(), v["error"]));
        }
        let t = &v["setup"]["trace"];
        let strs = |x: &serde_json::Value| -> Vec<String> {
            x.as_array().map(|a| a.iter().filter_map(|s| s.as_str().map(String::from)).collect()).unwrap_or_default()
        };
        let s = |x: &serde_json::Value| x.as_str().map(String::from);
        let sc =
            serde_json::from_value(sc.clone()).map_err(|e| format!("invalid scenario in {}: {e}", file.display()))?;
        return Ok((
            sc,
            Recorded {
                trace: t["path"].as_str().map(|p| resolve_trace(p, t["name"].as_str(), file)),
                trace_name: s(&t["name"]),
                sha256: s(&t["sha256"]),
                hash: s(&v["setup"]["request_hash"]),
                columns: strs(&t["columns"]),
                write_ops: strs(&t["write_ops"]),
                read_ops: strs(&t["read_ops"]),
                id_unit: s(&t["id_unit"]),
            },
        ));
    }
    let sc = serde_json::from_value(v).map_err(|e| format!("invalid scenario {}: {e}", file.display()))?;
    Ok((sc, Recorded::default()))
}
