//! `ftl sweep`: every combination of the schemes, chips, traces and parameter lists given
//! (FAST paper Figure 10: erases against log blocks), optionally with the cost of a
//! recovery (FastCheck Figures 7, 8). Each row is `ftl run` of its configuration
//! (row.rs): planned from itself alone, so rows are identical in any order, alone, or
//! in a shard (`--shard I/N`, gathered by `ftl merge`); `--list-jobs` prints the
//! `ftl run` line of each row for GNU parallel or a job array (docs/cli.md).

use std::process::ExitCode;

use clap::Args;

use super::row::{describe, run_point, Row, RowOptions};
use crate::output::{fail, print_json, EXIT_FAILED_CHECK, EXIT_ROWS_FAILED};
use crate::setup::{Point, Setup};

#[derive(Args)]
pub(crate) struct SweepArgs {
    /// Comma-separated schemes, e.g. `bast,fast,ofast`.
    #[arg(long, value_delimiter = ',', required = true)]
    pub(crate) schemes: Vec<String>,
    #[command(flatten)]
    pub(crate) setup: Setup,
    /// Print CSV (one header line, one row per configuration).
    #[arg(long, conflicts_with = "json")]
    pub(crate) csv: bool,
    /// Print JSON lines: one object per row with its whole setup (as `ftl run --json`,
    /// plus `row` and `rows`).
    #[arg(long)]
    pub(crate) json: bool,
    /// Print one `ftl run ... --json` command line per row (of this shard) and run nothing.
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
    let total = points.len();
    let (me, n) = match args.shard.as_deref().map(shard).transpose() {
        Ok(s) => s.unwrap_or((0, 1)),
        Err(e) => return fail(e),
    };
    let mine: Vec<(usize, &Point)> = points.iter().enumerate().filter(|(i, _)| i % n == me).collect();
    if args.list_jobs {
        for (_, p) in &mine {
            println!("{}", job_line(&args.setup, p));
        }
        return ExitCode::SUCCESS;
    }
    let opts = RowOptions {
        space: args.setup.space,
        recovery: args.recovery,
        recovery_samples: args.recovery_samples,
        ..Default::default()
    };
    let mut rows = Vec::new();
    for (i, p) in &mine {
        let row = run_point(&args.setup, p, &opts);
        if let Some(e) = &row.error {
            eprintln!("sweep: row {i} ({}) cannot run: {e}", describe(p));
        }
        if args.json {
            let mut v = row.to_json(&args.setup);
            v["row"] = (*i).into();
            v["rows"] = total.into();
            print_json(&v);
        }
        rows.push((*i, row));
    }
    if !args.json {
        print_sweep(&args.setup, &rows, args.csv);
    }
    let hashes: std::collections::BTreeSet<&str> = rows.iter().filter_map(|(_, r)| r.request_hash.as_deref()).collect();
    eprintln!(
        "sweep: {} of {} rows ran{}; {} distinct request list{}{}",
        rows.iter().filter(|(_, r)| r.error.is_none()).count(),
        rows.len(),
        if n > 1 { format!(" (shard {}/{n} of {total})", me + 1) } else { String::new() },
        hashes.len(),
        if hashes.len() == 1 { "" } else { "s" },
        if hashes.len() == 1 && rows.len() > 1 { ", identical for every row" } else { "" }
    );
    let wrong: u64 = rows.iter().filter_map(|(_, r)| r.metrics.as_ref()).map(|m| m.wrong_reads).sum();
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

/// The `ftl run` command line of one row: the same configuration, run alone.
pub(crate) fn job_line(s: &Setup, p: &Point) -> String {
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
        flag("trace", t.display().to_string());
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
    if let Some(n) = s.space {
        flag("space", n.to_string());
    }
    if s.skip_bad_lines && p.trace.is_some() {
        a.push("--skip-bad-lines".into());
    }
    a.push("--json".into());
    a.join(" ")
}

/// Rows as `(index, row)`, for the printers.
type Rows = [(usize, Row)];

/// `ftl sweep` without --json: a CSV table or a table in words, from the rows' JSON (so
/// `ftl merge --csv` prints the same lines).
fn print_sweep(setup: &Setup, rows: &Rows, csv: bool) {
    let with_rec = rows.iter().any(|(_, r)| r.rec.is_some());
    let json: Vec<serde_json::Value> = rows
        .iter()
        .map(|(i, r)| {
            let mut v = r.to_json(setup);
            v["row"] = (*i).into();
            v
        })
        .collect();
    if csv {
        println!("{}", crate::output::csv_header(with_rec));
        for v in &json {
            println!("{}", crate::output::csv_line(v, with_rec));
        }
        return;
    }
    crate::output::print_table(&json, with_rec);
}
