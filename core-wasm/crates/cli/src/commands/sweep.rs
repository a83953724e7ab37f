//! `ftl sweep`: every combination of the schemes, chips, traces and parameter lists given
//! (FAST paper Figure 10: erases against log blocks), optionally with the cost of a
//! recovery (FastCheck Figures 7, 8). Each row is `ftl run` of its configuration
//! (row.rs): planned from itself alone, so rows are identical in any order, alone, or
//! in a shard (`--shard I/N`, gathered by `ftl merge`); `--list-jobs` prints the
//! `ftl run` line of each row for GNU parallel or a job array (docs/cli.md).

use std::process::ExitCode;

use clap::Args;

use serde_json::{json, Value};

use super::row::{describe, run_point, RowOptions};
use crate::output::{fail, print_json, EXIT_FAILED_CHECK, EXIT_ROWS_FAILED};
use crate::setup::{Point, Setup};
use crate::timing::TimingArgs;

#[derive(Args)]
pub(crate) struct SweepArgs {
    /// Comma-separated schemes, e.g. `bast,fast,ofast`.
    #[arg(long, value_delimiter = ',', required = true)]
    pub(crate) schemes: Vec<String>,
    #[command(flatten)]
    pub(crate) setup: Setup,
    /// Each row's workload in its scheme's own logical space (each scheme's paper default),
    /// instead of one request list for every row on a chip (the smallest space among them).
    #[arg(long, conflicts_with = "space")]
    pub(crate) own_space: bool,
    /// Print CSV (one header line, one row per configuration).
    #[arg(long, conflicts_with = "json")]
    pub(crate) csv: bool,
    /// Print JSON lines: one object per row with its whole setup (as `ftl run --json`,
    /// plus `row`, `rows` and `sweep`).
    #[arg(long)]
    pub(crate) json: bool,
    /// Print one `ftl run ... --json` command line per row (of this shard) and run nothing;
    /// each carries its row index and the sweep's plan, so rows run in any order merge.
    #[arg(long)]
    pub(crate) list_jobs: bool,
    /// Run only share I of N (1-based): rows i with i mod N = I - 1. `ftl merge` gathers
    /// the shards' JSON lines.
    #[arg(long, value_name = "I/N")]
    pub(crate) shard: Option<String>,
    /// Also cut power at the end of each run and recover from the chip (FastCheck
    /// Figures 7 and 8): adds metadata writes and recovery pages read.
    #[arg(long)]
    pub(crate) recovery: bool,
    /// With --recovery: recover at this many points spread evenly over the run (after
    /// requests total·i/K, i = 1..K) and report the means (the last point is the end).
    #[arg(long, default_value_t = 1)]
    pub(crate) recovery_samples: usize,
    /// The timing model (docs/timing.md); `--rate` and `--time-scale` take lists.
    #[command(flatten)]
    pub(crate) timing: TimingArgs,
    /// Device shapes (docs/ssd.md): `--channels` and `--dies-per-channel` take lists, each
    /// combination a row.
    #[command(flatten)]
    pub(crate) ssd: crate::device::DeviceLists,
}

/// `I/N` → (I - 1, N).
fn shard(spec: &str) -> Result<(usize, usize), String> {
    let bad = || format!("--shard '{spec}': expected I/N with 1 <= I <= N, e.g. 2/3");
    let (i, n) = spec.split_once('/').ok_or_else(bad)?;
    let (i, n): (usize, usize) = (i.trim().parse().map_err(|_| bad())?, n.trim().parse().map_err(|_| bad())?);
    if i == 0 || i > n {
        return Err(bad());
    }
    Ok((i - 1, n))
}

/// A trace path as the plan and the job lines name it: absolute (a job may run in
/// another directory), as given when it does not exist (the row then fails, named).
fn absolute(p: &std::path::Path) -> String {
    std::fs::canonicalize(p).unwrap_or_else(|_| p.to_path_buf()).display().to_string()
}

/// The sweep's plan: every flag that decides its rows and their figures, only those
/// given (so `ftl merge` names what two sweeps differ in). Its hash is the fingerprint
/// every row carries.
fn sweep_spec(a: &SweepArgs) -> Value {
    let s = &a.setup;
    let mut o = serde_json::Map::new();
    let mut put = |k: &str, v: Value| {
        let empty = v.is_null() || v == Value::Bool(false) || v.as_array().is_some_and(|x| x.is_empty());
        if !empty {
            o.insert(k.to_string(), v);
        }
    };
    put("ftl_version", json!(env!("CARGO_PKG_VERSION")));
    put("schemes", json!(a.schemes));
    put("chip", json!(s.chip));
    put("blocks", json!(s.blocks));
    put("pages_per_block", json!(s.pages_per_block));
    for f in ftl_sim::ftl::SchemeParams::FIELDS {
        if let Some(v) = s.params.list(f.key) {
            // Integers as integers (log_blocks [4, 8], not [4.0, 8.0]).
            put(f.key, v.iter().map(|&x| if f.integer { json!(x as u64) } else { json!(x) }).collect());
        }
    }
    put("gen", json!(s.gen));
    put("pattern", json!(s.pattern));
    put("trace", json!(s.trace.iter().map(|t| absolute(t)).collect::<Vec<_>>()));
    put("format", json!(s.format));
    put("fit", json!(s.fit));
    put("device", json!(s.device));
    put("skip_bad_lines", json!(s.skip_bad_lines));
    put("blkparse_action", json!(s.blkparse_action));
    put("columns", json!(s.columns));
    put("write_ops", json!(s.write_ops));
    put("read_ops", json!(s.read_ops));
    put("id_unit", json!(s.id_unit));
    put("precondition", json!(s.precondition));
    put("space", json!(s.space));
    put("own_space", json!(a.own_space));
    // Only given device flags enter the plan: a one-die sweep keeps its fingerprint.
    put("channels", json!(a.ssd.channels));
    put("dies_per_channel", json!(a.ssd.dies_per_channel));
    put("stripe", json!(a.ssd.stripe));
    put("channel_mb_s", json!(a.ssd.channel_mb_s));
    put("recovery", json!(a.recovery));
    if a.recovery {
        put("recovery_samples", json!(a.recovery_samples));
    }
    let t = &a.timing;
    put("timing", json!(t.timing));
    put("time_scale", json!(t.time_scale));
    put("rate", json!(t.rate));
    put("spacing", json!(t.spacing));
    put("arrival_seed", json!(t.arrival_seed));
    put("time_unit", json!(t.time_unit));
    Value::Object(o)
}

/// The fingerprint of a sweep's plan: the first 16 hex digits of the SHA-256 of its
/// JSON (keys sorted).
pub(crate) fn fingerprint(spec: &Value) -> String {
    use sha2::Digest;
    let d = sha2::Sha256::digest(spec.to_string().as_bytes());
    d.iter().take(8).map(|b| format!("{b:02x}")).collect()
}

/// The `sweep` object of every row: the plan's fingerprint and the plan.
pub(crate) fn sweep_json(spec: &Value) -> Value {
    json!({"fingerprint": fingerprint(spec), "spec": spec})
}

/// One request list for every row on a chip (issue 38, item 2): each row's workload
/// space is the smallest logical space among the rows of its trace and chip (the scheme
/// whose defaults leave the least space sets it), unless `--space` or `--own-space` says
/// otherwise. Each row's space is then given to it as `--space N`, so a row alone is
/// still `ftl run` of its configuration. Returns the spaces chosen, for the summary.
fn common_space(a: &SweepArgs, points: &mut [Point]) -> Vec<(String, u32)> {
    let s = &a.setup;
    if let Some(n) = s.space {
        points.iter_mut().for_each(|p| p.space = Some(n));
        return Vec::new();
    }
    let Ok(workload) = s.workload() else { return Vec::new() };
    if a.own_space || !ftl_sim::scenario::plan::space_shapes_requests(&workload) {
        return Vec::new();
    }
    // The rows of one trace and chip, each group's scenarios (a row whose flags the
    // scheme refuses is left out: it fails alone when run).
    type Group = (Option<std::path::PathBuf>, ftl_sim::scenario::ChipSpec);
    let group = |p: &Point| (p.trace.clone(), p.chip.clone());
    let mut groups: Vec<(Group, Vec<ftl_sim::scenario::Scenario>)> = Vec::new();
    for p in points.iter() {
        let sc = s.scenario_for(p).ok();
        match groups.iter_mut().find(|(g, _)| *g == group(p)) {
            Some((_, v)) => v.extend(sc),
            None => groups.push((group(p), sc.into_iter().collect())),
        }
    }
    let mins: Vec<(Group, u32)> =
        groups.into_iter().filter_map(|(g, scs)| ftl_sim::scenario::plan::common_space(&scs).map(|m| (g, m))).collect();
    for p in points.iter_mut() {
        p.space = mins.iter().find(|(g, _)| *g == group(p)).map(|(_, m)| *m);
    }
    mins.iter()
        .map(|((t, c), m)| {
            let mut name = describe_chip(c);
            if let Some(t) = t {
                name.push_str(&format!(" with {}", t.display()));
            }
            (name, *m)
        })
        .collect()
}

fn describe_chip(c: &ftl_sim::scenario::ChipSpec) -> String {
    let d = |v: Option<u32>| v.map(|n| n.to_string()).unwrap_or_else(|| "·".into());
    if c.blocks.is_some() || c.pages_per_block.is_some() {
        format!("{} {}x{}", c.preset, d(c.blocks), d(c.pages_per_block))
    } else {
        c.preset.clone()
    }
}

pub(crate) fn execute(args: SweepArgs) -> ExitCode {
    let points = match args.setup.points(&args.schemes) {
        Ok(p) => p,
        Err(e) => return fail(e),
    };
    // Flags are checked once, before anything runs (a bad workload fails every row).
    if let Err(e) = args.setup.workload() {
        return fail(e);
    }
    let cap = ftl_sim::limits::MAX_RECOVERY_SAMPLES;
    if let Err(e) = ftl_sim::limits::at_most("--recovery-samples", args.recovery_samples as u64, cap) {
        return fail(e);
    }
    if args.timing.request_timeline.is_some() {
        return fail("--request-timeline is for one run: give it to a row's `ftl run` (see --list-jobs)");
    }
    let timings = match args.timing.options() {
        Ok(t) => t,
        Err(e) => return fail(e),
    };
    // Device shapes, then the timing models, are the innermost lists: each configuration
    // on each shape at each rate. Every shape is checked before anything runs.
    let specs = args.ssd.specs();
    let mut points_shapes: Vec<(Point, Option<ftl_sim::ssd::Shape>)> = Vec::new();
    for p in points {
        for &spec in &specs {
            let shape = match args.ssd.shape(spec, &p.scheme) {
                Ok(s) => s,
                Err(e) => return fail(format!("{} on {} x {} dies: {e}", p.scheme, spec.0, spec.1)),
            };
            for t in &timings {
                points_shapes.push((Point { timing: *t, ..p.clone() }, shape));
            }
        }
    }
    let shapes: Vec<Option<ftl_sim::ssd::Shape>> = points_shapes.iter().map(|(_, s)| *s).collect();
    let mut points: Vec<Point> = points_shapes.into_iter().map(|(p, _)| p).collect();
    let spaces = common_space(&args, &mut points);
    let spec = sweep_spec(&args);
    let sweep = sweep_json(&spec);
    let total = points.len();
    let (me, n) = match args.shard.as_deref().map(shard).transpose() {
        Ok(s) => s.unwrap_or((0, 1)),
        Err(e) => return fail(e),
    };
    let mine: Vec<(usize, &Point)> = points.iter().enumerate().filter(|(i, _)| i % n == me).collect();
    if args.list_jobs {
        for (i, p) in &mine {
            println!("{}", job_line(&args, p, shapes[*i], *i, total, &spec));
        }
        return ExitCode::SUCCESS;
    }
    let mut rows = Vec::new();
    let mut values = Vec::new();
    for (i, p) in &mine {
        let opts = RowOptions {
            space: p.space,
            recovery: args.recovery,
            recovery_samples: args.recovery_samples,
            timing: p.timing,
            device: shapes[*i],
            ..Default::default()
        };
        let row = run_point(&args.setup, p, &opts);
        if let Some(e) = &row.error {
            let on =
                shapes[*i].map(|s| format!(" on {} x {} dies", s.channels, s.dies_per_channel)).unwrap_or_default();
            eprintln!("sweep: row {i} ({}{on}) cannot run: {e}", describe(p));
        }
        let mut v = row.to_json(&args.setup);
        v["row"] = (*i).into();
        v["rows"] = total.into();
        v["sweep"] = sweep.clone();
        if args.json {
            print_json(&v);
        }
        values.push(v);
        rows.push((*i, row));
    }
    if !args.json {
        print_sweep(&values, args.csv);
    }
    for (chip, m) in &spaces {
        eprintln!(
            "sweep: workload space {m} logical pages for every row on {chip} (the smallest among its rows; --own-space: each scheme's own)"
        );
    }
    let hashes: std::collections::BTreeSet<&str> = rows.iter().filter_map(|(_, r)| r.request_hash.as_deref()).collect();
    eprintln!(
        "sweep {}: {} of {} rows ran{}; {} distinct request list{}{}",
        sweep["fingerprint"].as_str().unwrap_or(""),
        rows.iter().filter(|(_, r)| r.error.is_none()).count(),
        rows.len(),
        if n > 1 { format!(" (shard {}/{n} of {total})", me + 1) } else { String::new() },
        hashes.len(),
        if hashes.len() == 1 { "" } else { "s" },
        if hashes.len() == 1 && rows.len() > 1 { ", identical for every row" } else { "" }
    );
    let wrong: u64 = rows.iter().filter_map(|(_, r)| r.metrics.as_ref()).map(|m| m.wrong_reads).sum::<u64>()
        + rows.iter().filter_map(|(_, r)| r.device.as_ref()).map(|d| d.wrong_reads).sum::<u64>();
    if wrong > 0 {
        eprintln!("error: {wrong} reads disagreed with the reference model");
        return ExitCode::from(EXIT_FAILED_CHECK);
    }
    let failed = rows.iter().filter(|(_, r)| r.error.is_some()).count();
    if failed > 0 {
        eprintln!("error: {failed} of {} rows could not run", rows.len());
        return ExitCode::from(EXIT_ROWS_FAILED);
    }
    ExitCode::SUCCESS
}

/// A value as one shell word (single-quoted unless plainly safe).
fn sh(s: &str) -> String {
    if !s.is_empty() && s.bytes().all(|c| c.is_ascii_alphanumeric() || b"-_./,:=+@%".contains(&c)) {
        s.to_string()
    } else {
        format!("'{}'", s.replace('\'', r"'\''"))
    }
}

/// The `ftl run` command line of one row: the same configuration run alone, with its
/// row index, the row count and the sweep's plan (so its output is the sweep's row).
pub(crate) fn job_line(
    args: &SweepArgs,
    p: &Point,
    shape: Option<ftl_sim::ssd::Shape>,
    row: usize,
    rows: usize,
    spec: &Value,
) -> String {
    let s = &args.setup;
    let mut a: Vec<String> = vec!["ftl".into(), "run".into(), "--scheme".into(), sh(&p.scheme)];
    let mut flag = |name: &str, v: String| {
        a.push(format!("--{name}"));
        a.push(sh(&v));
    };
    flag("chip", p.chip.preset.clone());
    if let Some(b) = p.chip.blocks {
        flag("blocks", b.to_string());
    }
    if let Some(n) = p.chip.pages_per_block {
        flag("pages-per-block", n.to_string());
    }
    for key in ftl_sim::ftl::SchemeParams::KEYS {
        if let Some(v) = p.params.get(key) {
            flag(&key.replace('_', "-"), v.to_string());
        }
    }
    if let Some(g) = &s.gen {
        flag("gen", g.clone());
    }
    if let Some(pat) = &s.pattern {
        flag("pattern", pat.clone());
    }
    if let Some(t) = &p.trace {
        flag("trace", absolute(t));
        for (name, v) in [
            ("format", &s.format),
            ("fit", &s.fit),
            ("device", &s.device),
            ("blkparse-action", &s.blkparse_action),
            ("id-unit", &s.id_unit),
        ] {
            if let Some(v) = v {
                flag(name, v.clone());
            }
        }
        for c in &s.columns {
            flag("column", c.clone());
        }
        for v in &s.write_ops {
            flag("write-op", v.clone());
        }
        for v in &s.read_ops {
            flag("read-op", v.clone());
        }
    }
    if let Some(pre) = &s.precondition {
        flag("precondition", pre.clone());
    }
    if let Some(n) = p.space {
        flag("space", n.to_string());
    }
    if let Some(t) = &p.timing {
        let ta = &args.timing;
        flag("timing", t.model.name().to_string());
        if let Some(r) = t.rate {
            flag("rate", r.to_string());
        }
        if !ta.time_scale.is_empty() {
            flag("time-scale", t.time_scale.to_string());
        }
        if let Some(sp) = &ta.spacing {
            flag("spacing", sp.clone());
        }
        if let Some(seed) = ta.arrival_seed {
            flag("arrival-seed", seed.to_string());
        }
        if let Some(u) = &ta.time_unit {
            flag("time-unit", u.clone());
        }
    }
    if args.recovery {
        a.push("--recovery".into());
        if args.recovery_samples != 1 {
            a.extend(["--recovery-samples".to_string(), args.recovery_samples.to_string()]);
        }
    }
    if s.skip_bad_lines && p.trace.is_some() {
        a.push("--skip-bad-lines".into());
    }
    if let Some(d) = shape {
        a.extend([
            "--channels".into(),
            d.channels.to_string(),
            "--dies-per-channel".into(),
            d.dies_per_channel.to_string(),
        ]);
        a.extend(["--stripe".into(), d.stripe.name().to_string()]);
        if let Some(r) = d.bus_mb_s {
            a.extend(["--channel-mb-s".into(), r.to_string()]);
        }
    }
    let mut flag = |name: &str, v: String| {
        a.push(format!("--{name}"));
        a.push(sh(&v));
    };
    flag("row", row.to_string());
    flag("rows", rows.to_string());
    flag("sweep-spec", spec.to_string());
    a.push("--json".into());
    a.join(" ")
}

/// `ftl sweep` without --json: a CSV table or a table in words, from the rows' JSON (so
/// `ftl merge --csv` prints the same lines).
fn print_sweep(json: &[Value], csv: bool) {
    let extra = crate::output::Extra::of(json);
    if csv {
        println!("{}", crate::output::csv_header(extra));
        for v in json {
            println!("{}", crate::output::csv_line(v, extra));
        }
        return;
    }
    crate::output::print_table(json, extra);
}
