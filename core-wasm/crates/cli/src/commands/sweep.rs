//! `ftl sweep`: several schemes and log-block counts on one workload and one chip
//! (FAST paper Figure 10), optionally with the cost of a recovery (FastCheck Figures 7, 8).

use std::process::ExitCode;

use clap::Args;
use ftl_sim::metrics::Metrics;
use ftl_sim::scenario::Scenario;
use ftl_sim::sim::RunMode;
use ftl_sim::trace::fit::Fit;
use ftl_sim::trace::load;

use crate::output::{fail, EXIT_FAILED_CHECK};
use crate::setup::Setup;

#[derive(Args)]
pub(crate) struct SweepArgs {
    /// Comma-separated schemes, e.g. `bast,fast,ofast`.
    #[arg(long, value_delimiter = ',', required = true)]
    pub(crate) schemes: Vec<String>,
    #[command(flatten)]
    pub(crate) setup: Setup,
    /// Print CSV (one header line, one row per scheme and log-block count).
    #[arg(long)]
    pub(crate) csv: bool,
    /// Also cut power at the end of each run and recover from the chip (FastCheck
    /// Figures 7 and 8): adds metadata writes and recovery pages read.
    #[arg(long)]
    pub(crate) recovery: bool,
    /// With --recovery: recover at this many points spread evenly over the run (after
    /// requests total·i/K, i = 1..K) and report the means (the last point is the end).
    #[arg(long, default_value_t = 1)]
    pub(crate) recovery_samples: usize,
}

pub(crate) fn execute(args: SweepArgs) -> ExitCode {
    match sweep(&args) {
        Ok((head, rows)) => {
            print_sweep(&head, &rows, args.csv, args.setup.precondition.as_deref());
            let wrong: u64 = rows.iter().filter_map(|r| r.m.as_ref()).map(|m| m.wrong_reads).sum();
            if wrong > 0 {
                eprintln!("error: {wrong} reads disagreed with the reference model");
                return ExitCode::from(EXIT_FAILED_CHECK);
            }
            ExitCode::SUCCESS
        }
        Err(e) => fail(e),
    }
}

/// One row of `ftl sweep`.
struct SweepRow {
    scheme: String,
    log_blocks: Option<u32>,
    /// The chip the run got (blocks, pages per block) and the scheme's own logical space.
    blocks: u32,
    ppb: u32,
    logical_pages: u32,
    /// None when the configuration cannot hold the sweep's workload (`error`).
    m: Option<Metrics>,
    error: Option<String>,
    rec: Option<RecoveryCost>,
}

/// What every row of a sweep shares: one workload, its space, footprint and hash.
struct SweepHead {
    plan: ftl_sim::trace::plan::Plan,
    requests: usize,
    footprint_pages: u64,
    hash: u64,
    fit_note: Option<String>,
}

/// FNV-1a over the request list: equal for every run of a sweep.
fn request_hash(reqs: &[ftl_sim::trace::Request]) -> u64 {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for r in reqs {
        for b in format!("{r:?};").bytes() {
            h = (h ^ b as u64).wrapping_mul(0x0100_0000_01b3);
        }
    }
    h
}

/// Metadata writes of the run and the cost of one recovery at its end.
struct RecoveryCost {
    map_pages: u64,
    log_pages: u64,
    /// Every page and spare-area read of the recovery.
    pages_read: u64,
    /// Those restoring the log-page-mapping table (FastCheck equations 5-6: checkpoints or
    /// dump + log records, and the restoration scan); the whole scan for scan-based schemes.
    mapping_pages_read: u64,
}

fn recovery_cost(scenario: &Scenario, sim: &ftl_sim::sim::Simulator) -> Result<RecoveryCost, String> {
    use ftl_sim::nand::{Cause, OpKind};
    let f = &sim.state.flash;
    let mut flash = f.clone();
    let reads =
        |f: &ftl_sim::nand::Flash| f.count(OpKind::Read, Cause::Recovery) + f.count(OpKind::ReadOob, Cause::Recovery);
    let r0 = reads(&flash);
    let ftl = ftl_sim::ftl::recover(&scenario.scheme, &scenario.params, &mut flash)
        .map_err(|e| format!("recovery failed: {e}"))??;
    let pages_read = reads(&flash) - r0;
    let lr = &ftl.scheme_metrics()["recovery_logging"]["last_recovery"];
    let mapping = if lr.is_null() {
        pages_read
    } else {
        lr["checkpoints"].as_u64().unwrap_or(0) + lr["restoration"].as_u64().unwrap_or(0)
    };
    Ok(RecoveryCost {
        map_pages: f.count(OpKind::Program, Cause::Map),
        log_pages: f.count(OpKind::Program, Cause::Log),
        pages_read,
        mapping_pages_read: mapping,
    })
}

fn sweep(args: &SweepArgs) -> Result<(SweepHead, Vec<SweepRow>), String> {
    let counts: Vec<Option<u32>> = if args.setup.log_blocks.is_empty() {
        vec![None]
    } else {
        args.setup.log_blocks.iter().map(|&n| Some(n)).collect()
    };
    // The flags are shared: each must be read by at least one scheme of the sweep.
    let s = &args.setup;
    for (name, set) in [
        ("op", s.op.is_some()),
        ("log_blocks", !s.log_blocks.is_empty()),
        ("k", s.k.is_some()),
        ("switch_max", s.switch_max.is_some()),
        ("fill_max", s.fill_max.is_some()),
        ("utilisation", s.utilisation.is_some()),
        ("checkpoint_lpns", s.checkpoint_lpns.is_some()),
    ] {
        if set && !args.schemes.iter().any(|x| ftl_sim::ftl::scheme_params(x).contains(&name)) {
            return Err(format!("none of the schemes {} reads '{name}'", args.schemes.join(", ")));
        }
    }
    let mut scenarios = Vec::new();
    for scheme in &args.schemes {
        for &lb in &counts {
            scenarios.push((lb, args.setup.scenario_with(scheme, lb, true)?));
        }
    }
    // One workload and one chip for every row, decided once (trace::plan::plan).
    let (fit, need) = match &args.setup.trace {
        Some(path) => {
            let (_, fit) = load::options_for(&scenarios[0].1)?;
            if args.setup.parsed.get().is_none() {
                let (raw, _) = args.setup.parse_trace(&scenarios[0].1, path)?;
                let _ = args.setup.parsed.set(raw);
            }
            (fit, args.setup.parsed.get().and_then(|r| r.max_page()).map(|m| m + 1))
        }
        None => (Fit::None, None),
    };
    let plain: Vec<Scenario> = scenarios.iter().map(|(_, s)| s.clone()).collect();
    let plan = ftl_sim::trace::plan::plan(&plain, fit, need)?;
    let applied = plan.apply(&plain);
    let mut rows = Vec::new();
    let mut head: Option<(usize, u64, u64, Option<String>)> = None;
    for (((lb, _), planned), pr) in scenarios.iter().zip(applied).zip(&plan.runs) {
        let lb = *lb;
        let scheme = plain[rows.len()].scheme.clone();
        let mut row = SweepRow {
            scheme: scheme.clone(),
            log_blocks: lb,
            blocks: pr.blocks,
            ppb: pr.pages_per_block,
            logical_pages: pr.logical_pages.unwrap_or(0),
            m: None,
            error: None,
            rec: None,
        };
        let scenario = match planned {
            Ok(s) => s,
            Err(e) => {
                row.error = Some(e);
                rows.push(row);
                continue;
            }
        };
        let (mut sim, summary) = match args.setup.sim_for(&scenario) {
            Ok(x) => x,
            Err(e) => {
                row.error = Some(format!(
                    "{scheme} with {} log blocks: {e}",
                    lb.map(|n| n.to_string()).unwrap_or("default".into())
                ));
                rows.push(row);
                continue;
            }
        };
        let hash = request_hash(sim.requests());
        match &head {
            None => {
                let footprint = summary.as_ref().map(|s| s.fitted_footprint_pages).unwrap_or_else(|| {
                    let mut p: Vec<u32> = sim.requests().iter().filter_map(|r| r.lpn()).collect();
                    p.sort_unstable();
                    p.dedup();
                    p.len() as u64
                });
                head = Some((sim.total(), footprint, hash, summary.map(|s| s.fit_note)));
            }
            Some((_, _, h, _)) if *h != hash => {
                return Err(format!("{scheme}: the sweep's runs got different workloads (a bug)"))
            }
            _ => {}
        }
        sim.set_mode(RunMode::FullSpeed);
        let total = sim.total();
        let k = args.recovery_samples.max(1);
        let mut samples = Vec::new();
        for i in 1..=k {
            let upto = total * i / k;
            sim.run(upto - sim.pos())?;
            if args.recovery {
                samples.push(recovery_cost(&scenario, &sim)?);
            }
        }
        row.rec = (!samples.is_empty()).then(|| {
            let n = samples.len() as u64;
            let last = samples.last().unwrap();
            RecoveryCost {
                map_pages: last.map_pages,
                log_pages: last.log_pages,
                pages_read: samples.iter().map(|c| c.pages_read).sum::<u64>() / n,
                mapping_pages_read: samples.iter().map(|c| c.mapping_pages_read).sum::<u64>() / n,
            }
        });
        row.m = Some(sim.state.metrics());
        rows.push(row);
    }
    let (requests, footprint_pages, hash, fit_note) = head.unwrap_or((0, 0, 0, None));
    Ok((SweepHead { plan, requests, footprint_pages, hash, fit_note }, rows))
}

fn print_sweep(head: &SweepHead, rows: &[SweepRow], csv: bool, precondition: Option<&str>) {
    let lb = |r: &SweepRow| r.log_blocks.map(|n| n.to_string()).unwrap_or_else(|| "-".into());
    let rec_cols = |r: &SweepRow, sep: &str| match &r.rec {
        Some(c) => {
            format!("{sep}{}{sep}{}{sep}{}{sep}{}", c.map_pages, c.log_pages, c.pages_read, c.mapping_pages_read)
        }
        None if rows.iter().any(|r| r.rec.is_some()) => sep.repeat(4),
        None => String::new(),
    };
    let with_rec = rows.iter().any(|r| r.rec.is_some());
    // What every row shares, on stderr so that CSV on stdout stays one table.
    eprintln!("sweep: {}", head.plan.note);
    eprintln!(
        "sweep: workload of {} requests over {} distinct pages (footprint), request-list hash {:016x}, identical for every row",
        head.requests, head.footprint_pages, head.hash
    );
    if let Some(n) = &head.fit_note {
        eprintln!("sweep: trace fit: {n}");
    }
    eprintln!("sweep: preconditioning: {}", precondition.unwrap_or("none"));
    for r in rows.iter().filter(|r| r.error.is_some()) {
        eprintln!("sweep: {} with {} log blocks cannot run: {}", r.scheme, lb(r), r.error.as_deref().unwrap_or(""));
    }
    let ws = head.plan.logical_pages;
    if csv {
        println!(
            "scheme,log_blocks,blocks,pages_per_block,logical_pages,workload_pages,host_writes,erases,write_amplification,switch_merges,partial_merges,full_merges,full_merge_victims,page_reads,page_programs,elapsed_s,write_latency_mean_us,write_latency_worst_us,log_utilisation,wrong_reads,error{}",
            if with_rec { ",map_pages,log_pages,recovery_pages_read,recovery_mapping_pages_read" } else { "" }
        );
        for r in rows {
            let pre = format!("{},{},{},{},{},{}", r.scheme, lb(r), r.blocks, r.ppb, r.logical_pages, ws);
            let Some(m) = &r.m else {
                println!(
                    "{pre},,,,,,,,,,,,,,,\"{}\"{}",
                    r.error.as_deref().unwrap_or("").replace('"', "'"),
                    rec_cols(r, ",")
                );
                continue;
            };
            println!(
                "{pre},{},{},{:.4},{},{},{},{},{},{},{:.6},{:.3},{:.3},{},{},{}",
                m.host_writes,
                m.erases,
                m.write_amplification,
                m.merges.switch,
                m.merges.partial,
                m.merges.full,
                m.merges.full_victims,
                m.page_reads,
                m.page_programs,
                m.elapsed_us / 1e6,
                m.latency_us.write.mean,
                m.latency_us.write.worst,
                m.log_utilisation.map(|u| format!("{u:.4}")).unwrap_or_default(),
                m.wrong_reads,
                rec_cols(r, ",")
            );
        }
        return;
    }
    println!(
        "{:8} {:>10} {:>13} {:>9} {:>10} {:>7} {:>9} {:>9} {:>9} {:>9} {:>12} {:>8}{}",
        "scheme",
        "log blocks",
        "chip",
        "logical",
        "erases",
        "WA",
        "switch",
        "partial",
        "full",
        "victims",
        "elapsed (s)",
        "log util",
        if with_rec { "  map pages  log pages  rec. read  rec. mapping" } else { "" }
    );
    for r in rows {
        let chip = format!("{}x{}", r.blocks, r.ppb);
        let Some(m) = &r.m else {
            println!(
                "{:8} {:>10} {:>13} {:>9} cannot run: {}",
                r.scheme,
                lb(r),
                chip,
                r.logical_pages,
                r.error.as_deref().unwrap_or("")
            );
            continue;
        };
        let rc = match &r.rec {
            Some(c) => {
                format!(" {:>10} {:>10} {:>10} {:>13}", c.map_pages, c.log_pages, c.pages_read, c.mapping_pages_read)
            }
            None => String::new(),
        };
        println!(
            "{:8} {:>10} {:>13} {:>9} {:>10} {:>7.3} {:>9} {:>9} {:>9} {:>9} {:>12.3} {:>8}{}",
            m.scheme,
            lb(r),
            chip,
            r.logical_pages,
            m.erases,
            m.write_amplification,
            m.merges.switch,
            m.merges.partial,
            m.merges.full,
            m.merges.full_victims,
            m.elapsed_us / 1e6,
            m.log_utilisation.map(|u| format!("{:.1}%", u * 100.0)).unwrap_or_else(|| "-".into()),
            rc
        );
    }
}
