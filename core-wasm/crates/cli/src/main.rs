//! `ftl`: the native command line over the same simulator the app runs as wasm.
//! See docs/cli.md for the commands and the stable JSON field names.

use std::process::ExitCode;

use clap::{Args, Parser, Subcommand};
use ftl_sim::ftl::SchemeParams;
use ftl_sim::metrics::Metrics;
use ftl_sim::nand::PRESET_NAMES;
use ftl_sim::scenario::{ChipSpec, Scenario};
use ftl_sim::sim::{RunMode, Simulator};
use ftl_sim::trace::fit::{Fit, TraceSummary};
use ftl_sim::trace::gen::{Workload, GENERATORS};
use ftl_sim::trace::load;
use ftl_sim::trace::parse::{Format, RawTrace, TraceParser, FORMATS};
use ftl_sim::trace::write::write_trace;
use std::io::Read;

#[derive(Parser)]
#[command(name = "ftl", version, about = "Simulate NAND flash translation layers (ftlscope)")]
struct Cli {
    #[command(subcommand)]
    cmd: Cmd,
}

#[derive(Subcommand)]
enum Cmd {
    /// Run one scheme on one workload and print its metrics.
    Run(RunArgs),
    /// Run several schemes and log-block counts on one workload (FAST paper Figure 10):
    /// erases, merges by kind and elapsed time per scheme and log-block count.
    Sweep(SweepArgs),
    /// Cut power at chosen flash-operation boundaries, recover from the chip alone,
    /// verify against the reference model.
    CrashSweep(CrashArgs),
    /// Time full-speed runs of one scenario (JSON, as the app's Session takes it).
    Bench(BenchArgs),
    /// List the schemes, chip presets, generators and trace formats.
    List,
    /// Parse a trace (--trace FILE) and print its summary as JSON: format, requests,
    /// read/write mix, footprint, the fit applied (docs/traces.md).
    Trace(TraceArgs),
    /// Write a workload (--gen, --pattern or --trace) as a trace file on stdout, in the
    /// logical space of --scheme on --chip; addresses use the chip's page size.
    Export(ExportArgs),
    /// Mapping RAM of FAST and KRAFT by the KRAFT paper's bit widths: with the RAM FAST
    /// needs for its log blocks, how many log blocks can KRAFT afford?
    Ram(RamArgs),
}

#[derive(Args)]
struct ExportArgs {
    #[arg(long, default_value = "page")]
    scheme: String,
    #[command(flatten)]
    setup: Setup,
    /// Output format: umass, msr, blkparse, disksim, csv, pattern.
    #[arg(long, default_value = "pattern")]
    to: String,
}

#[derive(Args)]
struct TraceArgs {
    /// Scheme whose logical space the trace is fitted into.
    #[arg(long, default_value = "page")]
    scheme: String,
    #[command(flatten)]
    setup: Setup,
}

#[derive(Args)]
struct RamArgs {
    /// Device capacity, binary units (64GB = 64·2^30 bytes).
    #[arg(long, default_value = "64GB")]
    capacity: String,
    /// Page (sector) size in bytes (the paper's MLC chip: 2048).
    #[arg(long, default_value_t = 2048)]
    page_bytes: u64,
    /// Pages per block, N (the paper's MLC chip: 128).
    #[arg(long, default_value_t = 128)]
    pages_per_block: u64,
    /// FAST's number of log blocks.
    #[arg(long, default_value_t = 128)]
    log_blocks: u64,
    /// KRAFT's associativity K.
    #[arg(long, default_value_t = 8)]
    k: u32,
    /// Print one JSON object (docs/cli.md).
    #[arg(long)]
    json: bool,
}

fn ram(a: &RamArgs) -> Result<(), String> {
    use ftl_sim::ftl::ram::{parse_capacity, MapGeometry};
    if a.k == 0 {
        return Err("--k must be at least 1".into());
    }
    let g = MapGeometry::from_capacity(parse_capacity(&a.capacity)?, a.page_bytes, a.pages_per_block)?;
    let c = g.compare(a.log_blocks, a.k);
    if a.json {
        println!("{}", serde_json::to_string(&c).expect("serialise"));
    } else {
        println!(
            "{} blocks of {} pages; PBN {} bits, LBN {} bits, LSN {} bits, RI {} bits, RLSN {} bits",
            g.physical_blocks, g.pages_per_block, c.pbn_bits, c.lbn_bits, c.lsn_bits, c.ri_bits, c.rlsn_bits
        );
        println!("  block map (both)          {} bytes", c.block_map_bytes);
        println!("  FAST log block            {} bits", c.fast_log_bits_per_block);
        println!("  KRAFT log block (K = {:2})  {} bits", a.k, c.kraft_log_bits_per_block);
        println!("  FAST with {} log blocks    {} bytes", c.fast_log_blocks, c.fast_bytes);
        println!("  KRAFT with {} log blocks   {} bytes", c.fast_log_blocks, c.kraft_bytes_same_log_blocks);
        println!("  KRAFT affords {} log blocks in FAST's RAM ({} bytes)", c.kraft_log_blocks, c.kraft_bytes);
    }
    Ok(())
}

#[derive(Args)]
struct BenchArgs {
    /// Scenario JSON, or @FILE.
    #[arg(long)]
    scenario: String,
    /// Runs to take the median of.
    #[arg(long, default_value_t = 5)]
    runs: usize,
}

#[derive(Args)]
struct CrashArgs {
    #[arg(long)]
    scheme: String,
    #[command(flatten)]
    setup: Setup,
    /// Cut at every operation boundary of the run.
    #[arg(long, conflicts_with_all = ["every", "random"])]
    all: bool,
    /// Cut at every N-th operation boundary.
    #[arg(long, conflicts_with = "random")]
    every: Option<u64>,
    /// Cut at N random operation boundaries.
    #[arg(long)]
    random: Option<u64>,
    /// Seed of the random cut points and of the cuts inside recovery.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Do not cut again inside each recovery.
    #[arg(long)]
    no_recut: bool,
    #[arg(long)]
    json: bool,
    /// One run that cuts power N times (between requests, mid-request, mid-merge,
    /// mid-checkpoint, inside a recovery, right after one), recovers, verifies and goes on
    /// from the recovered state; its own random workload (seed --seed). docs/schemes/recovery.md.
    #[arg(long, conflicts_with_all = ["all", "every", "random"])]
    chain: Option<u64>,
    /// Chain: freeze / unfreeze / revert in the workload (time-shifting schemes: ltftl).
    #[arg(long, requires = "chain")]
    time_shift: bool,
    /// Chain: also cut programs with the MLC paired-page model (the lower page tears too).
    #[arg(long, requires = "chain")]
    paired_pages: bool,
    /// Chain: also cut programs so early that the page reads as erased.
    #[arg(long, requires = "chain")]
    reads_erased: bool,
    /// Chain: write every cut's verdict to this file, one JSON object a line.
    #[arg(long, requires = "chain")]
    verdicts: Option<std::path::PathBuf>,
}

fn crash_chain(a: &CrashArgs, n: u64) -> ExitCode {
    use ftl_sim::crash::{chain, ChainOptions};
    let run = || -> Result<ftl_sim::crash::ChainReport, String> {
        let st = &a.setup;
        if st.gen.is_some() || st.pattern.is_some() || st.trace.is_some() {
            return Err("a chain makes its own workload from --seed: drop --gen / --pattern / --trace".into());
        }
        if st.log_blocks.len() > 1 {
            return Err("give one --log-blocks value".into());
        }
        let scenario = Scenario {
            scheme: a.scheme.clone(),
            params: SchemeParams {
                op: st.op,
                log_blocks: st.log_blocks.first().copied(),
                k: st.k,
                switch_max: st.switch_max,
                fill_max: st.fill_max,
                utilisation: st.utilisation,
                checkpoint_lpns: st.checkpoint_lpns,
            },
            chip: ChipSpec { preset: st.chip.clone(), blocks: st.blocks, pages_per_block: st.pages_per_block },
            workload: Workload::Pattern { text: String::new() },
            run: Default::default(),
        };
        scenario.validate()?;
        let state = scenario.fresh()?;
        let mut o = ChainOptions::new(n, a.seed);
        o.time_shift = a.time_shift;
        o.paired_pages = a.paired_pages;
        o.reads_erased = a.reads_erased;
        if a.time_shift && !state.ftl.time_shift() {
            return Err(format!("scheme '{}' has no time shift", a.scheme));
        }
        if a.no_recut {
            o.recut_chance = 0.0;
        }
        let mut out = match &a.verdicts {
            Some(p) => Some(std::io::BufWriter::new(
                std::fs::File::create(p).map_err(|e| format!("cannot write {}: {e}", p.display()))?,
            )),
            None => None,
        };
        let mut last = std::time::Instant::now();
        let r = chain(&state, &scenario.recoverer(), &o, |v| {
            if let Some(w) = &mut out {
                use std::io::Write;
                let _ = writeln!(w, "{}", serde_json::to_string(v).expect("verdict serialises"));
            }
            if last.elapsed().as_millis() > 1000 {
                eprint!("\r{}/{n} cuts", v.cut);
                last = std::time::Instant::now();
            }
        });
        eprint!("\r{:40}\r", "");
        Ok(r)
    };
    match run() {
        Ok(r) => {
            if a.json {
                println!("{}", serde_json::to_string(&r).expect("report serialises"));
            } else {
                println!(
                    "crash chain of {} (seed {}): {} cuts over {} requests",
                    r.scheme,
                    r.seed,
                    r.cuts,
                    r.requests_run + r.cuts
                );
                println!("  cuts at               between {} mid-request {} mid-merge {} mid-checkpoint {} (right after a recovery {})", r.between, r.mid_request, r.mid_merge, r.mid_checkpoint, r.right_after_recovery);
                println!("  recut points          {} ({} inside the recovery); share of all cut points inside a recovery {:.1} %", r.recut_points, r.recut_inside_recovery, 100.0 * r.share_inside_recovery);
                println!("  in flight took effect {}", r.took_effect);
                println!("  recovered correctly   {}", r.recovered_correctly);
                println!("  acked writes lost     {}", r.acked_writes_lost);
                println!("  wrong data            {}", r.wrong_reads);
                println!("  torn pages mapped     {}", r.torn_mapped);
                println!("  frozen states damaged {}", r.frozen_damaged);
                println!("  errors                {}", r.errors);
                let p = &r.recovery_ops;
                println!(
                    "  recovery ops          min {:.0} mean {:.1} p99 {:.0} max {:.0}",
                    p.min, p.mean, p.p99, p.max
                );
                for f in &r.first_failures {
                    println!("  FAILED: {f}");
                }
                if let Some(s) = &r.stopped {
                    println!("  STOPPED: {s}");
                }
            }
            let clean = r.recovered_correctly == r.cuts && r.wrong_reads == 0 && r.stopped.is_none();
            if clean {
                ExitCode::SUCCESS
            } else {
                ExitCode::from(3)
            }
        }
        Err(e) => {
            eprintln!("error: {e}");
            ExitCode::from(2)
        }
    }
}

#[derive(Args)]
struct RunArgs {
    /// Scheme: see `ftl list`.
    #[arg(long)]
    scheme: String,
    #[command(flatten)]
    setup: Setup,
    /// Print one JSON object with stable field names (docs/cli.md).
    #[arg(long)]
    json: bool,
    /// Write every request's response time to this CSV file
    /// (`request,op,lpn,total_us,gc_us`; gc_us = GC / merge work carried by the request).
    #[arg(long)]
    timeline: Option<std::path::PathBuf>,
}

#[derive(Args)]
struct SweepArgs {
    /// Comma-separated schemes, e.g. `bast,fast,ofast`.
    #[arg(long, value_delimiter = ',', required = true)]
    schemes: Vec<String>,
    #[command(flatten)]
    setup: Setup,
    /// Print CSV (one header line, one row per scheme and log-block count).
    #[arg(long)]
    csv: bool,
    /// Also cut power at the end of each run and recover from the chip (FastCheck
    /// Figures 7 and 8): adds metadata writes and recovery pages read.
    #[arg(long)]
    recovery: bool,
    /// With --recovery: recover at this many points spread evenly over the run (after
    /// requests total·i/K, i = 1..K) and report the means (the last point is the end).
    #[arg(long, default_value_t = 1)]
    recovery_samples: usize,
}

/// Chip, scheme parameters and workload: shared by the commands that run a scenario.
#[derive(Args)]
struct Setup {
    /// Chip preset.
    #[arg(long, default_value = "classroom")]
    chip: String,
    /// Override the preset's number of blocks.
    #[arg(long)]
    blocks: Option<u32>,
    /// Override the preset's pages per block.
    #[arg(long)]
    pages_per_block: Option<u32>,
    /// Over-provisioning ratio (page mapping; LTFTL: spare share of its data section).
    #[arg(long, allow_negative_numbers = true)]
    op: Option<f64>,
    /// Number of log blocks (hybrid schemes; LTFTL: blocks of its log section). `sweep` takes a comma-separated list
    /// (`--log-blocks 4,8,16,32,64`); `run` takes one value.
    #[arg(long, value_delimiter = ',')]
    log_blocks: Vec<u32>,
    /// Associativity K (KAST, KRAFT).
    #[arg(long)]
    k: Option<u32>,
    /// KRAFT: largest v_page for which an early switch counts as low cost (default N/2).
    #[arg(long)]
    switch_max: Option<u32>,
    /// KRAFT: largest number of pages a fill may copy (default max(1, N/4)).
    #[arg(long)]
    fill_max: Option<u32>,
    /// RFTL / GFTL / NFTL: share of the logical blocks in use, in (0, 1].
    #[arg(long, allow_negative_numbers = true)]
    utilisation: Option<f64>,
    /// FastCheck: LPNs per log region (checkpoint period P_fastcheck; default page size / 4 B).
    /// fast-ltlog: records per log page (P_ltftl; default page size / 16 B).
    #[arg(long)]
    checkpoint_lpns: Option<u32>,
    /// Generated workload, e.g. `uniform:n=10000,seed=1,read_ratio=0.2`,
    /// `hotcold:n=5000,seed=2,hot_fraction=0.2,hot_ratio=0.8`, `sequential:n=1000`.
    #[arg(long, conflicts_with_all = ["pattern", "trace"])]
    gen: Option<String>,
    /// Inline pattern, e.g. "w0 w4 w8 w12 r3 (w1 w2)x3".
    #[arg(long, conflicts_with = "trace")]
    pattern: Option<String>,
    /// Trace file: UMass/SPC, MSR Cambridge, blkparse text, DiskSim/MQSim ASCII,
    /// Alibaba/SNIA block CSV, FIU, libCacheSim oracleGeneral binary, CSV with a header
    /// (or --column mappings), or the inline pattern language; gzip or zstd compressed
    /// files are read as they are (docs/traces.md).
    #[arg(long)]
    trace: Option<std::path::PathBuf>,
    /// Trace format (default: auto-detect): umass, msr, blkparse, disksim, csv, pattern,
    /// alibaba, fiu, oracle_general.
    #[arg(long, requires = "trace")]
    format: Option<String>,
    /// Addresses beyond the logical space: fold (modulo), compact (renumber touched
    /// logical blocks densely), scale (grow the chip). Default: refuse with a message.
    #[arg(long, requires = "trace")]
    fit: Option<String>,
    /// Keep only this device of a multi-device trace (ASU, DiskNumber, device, or
    /// blkparse `major,minor`).
    #[arg(long, requires = "trace")]
    device: Option<String>,
    /// Skip malformed lines (their count and the first ones are reported).
    #[arg(long, requires = "trace")]
    skip_bad_lines: bool,
    /// blkparse: which action counts (D = issued to the device, Q = queued, C = completed).
    #[arg(long, requires = "trace")]
    blkparse_action: Option<String>,
    /// CSV column mapping, repeatable: ROLE=NAME[:UNIT], ROLE one of op, address, size,
    /// device, time; NAME a header name or a 1-based column number (files without a
    /// header); UNIT bytes, sectors or pages. E.g. --column address=lbn:sectors.
    #[arg(long = "column", value_name = "ROLE=NAME[:UNIT]", requires = "trace")]
    columns: Vec<String>,
    /// CSV op value meaning write, repeatable, case-insensitive (e.g. 2a, W, 1).
    #[arg(long = "write-op", value_name = "VALUE", requires = "trace")]
    write_ops: Vec<String>,
    /// CSV op value meaning read, repeatable, case-insensitive (e.g. 28, R, 0).
    #[arg(long = "read-op", value_name = "VALUE", requires = "trace")]
    read_ops: Vec<String>,
    /// Fill the device before measuring: `fill` (each logical page once), `fill,random=N`
    /// (then N random writes, as fio / SNIA steady-state tests), `random=N,seed=S`; metrics
    /// count only what runs after it.
    #[arg(long)]
    precondition: Option<String>,
    /// The trace file once parsed.
    #[arg(skip)]
    parsed: std::cell::OnceCell<RawTrace>,
}

impl Setup {
    fn scenario(&self, scheme: &str) -> Result<Scenario, String> {
        if self.log_blocks.len() > 1 {
            return Err("give one --log-blocks value (use `ftl sweep` for several)".into());
        }
        self.scenario_with(scheme, self.log_blocks.first().copied(), false)
    }

    /// `shared`: the flags are shared by several schemes (`sweep`): each scheme gets the
    /// parameters it reads (sweep() refuses a flag no scheme of the sweep reads).
    fn scenario_with(&self, scheme: &str, log_blocks: Option<u32>, shared: bool) -> Result<Scenario, String> {
        let workload = if let Some(g) = &self.gen {
            parse_gen(g)?
        } else if let Some(p) = &self.pattern {
            Workload::Pattern { text: p.clone() }
        } else if self.trace.is_some() {
            // The text is streamed from the file by `build`, not held in the scenario.
            Workload::Trace {
                text: String::new(),
                format: self.format.as_deref().map(Format::from_name).transpose()?,
                fit: self.fit.as_deref().map(Fit::from_name).transpose()?.unwrap_or_default(),
                device: self.device.clone(),
                skip_bad_lines: self.skip_bad_lines,
                blkparse_action: self.blkparse_action.clone(),
            }
        } else {
            return Err("give a workload: --gen KIND:key=value,..., --pattern \"w0 w4\" or --trace FILE".into());
        };
        let mut scenario = Scenario {
            scheme: scheme.to_string(),
            params: SchemeParams {
                op: self.op,
                log_blocks,
                k: self.k,
                switch_max: self.switch_max,
                fill_max: self.fill_max,
                utilisation: self.utilisation,
                checkpoint_lpns: self.checkpoint_lpns,
            },
            chip: ChipSpec { preset: self.chip.clone(), blocks: self.blocks, pages_per_block: self.pages_per_block },
            workload,
            run: ftl_sim::scenario::RunOptions {
                workload_space: None,
                precondition: self
                    .precondition
                    .as_deref()
                    .map(ftl_sim::precondition::Precondition::parse)
                    .transpose()?
                    .flatten(),
            },
        };
        if shared {
            let reads = ftl_sim::ftl::scheme_params(scheme);
            let p = &mut scenario.params;
            for (name, v) in [("op", &mut p.op), ("utilisation", &mut p.utilisation)] {
                if !reads.contains(&name) {
                    *v = None;
                }
            }
            for (name, v) in [
                ("log_blocks", &mut p.log_blocks),
                ("k", &mut p.k),
                ("switch_max", &mut p.switch_max),
                ("fill_max", &mut p.fill_max),
                ("checkpoint_lpns", &mut p.checkpoint_lpns),
            ] {
                if !reads.contains(&name) {
                    *v = None;
                }
            }
        }
        // Parameters the scheme does not read, and out-of-range numbers, are refused here,
        // before a trace is parsed (the core's check, which the app gets too).
        scenario.validate()?;
        Ok(scenario)
    }
}

/// `uniform:n=10000,seed=1` → a Workload, through the same serde shape scenarios use.
fn parse_gen(spec: &str) -> Result<Workload, String> {
    let (kind, rest) = spec.split_once(':').unwrap_or((spec, ""));
    let mut obj = serde_json::Map::new();
    obj.insert("kind".into(), kind.into());
    for kv in rest.split(',').filter(|s| !s.is_empty()) {
        let (k, v) = kv.split_once('=').ok_or_else(|| format!("--gen: expected key=value, got '{kv}'"))?;
        let num: serde_json::Value = if let Ok(i) = v.parse::<u64>() {
            i.into()
        } else if let Ok(f) = v.parse::<f64>() {
            f.into()
        } else {
            return Err(format!("--gen: value of '{k}' must be a number, got '{v}'"));
        };
        obj.insert(k.into(), num);
    }
    serde_json::from_value(serde_json::Value::Object(obj)).map_err(|e| format!("--gen '{spec}': {e}"))
}

impl Setup {
    /// The simulator, and the trace summary when the workload is a trace file.
    fn build(&self, scheme: &str) -> Result<(Simulator, Option<TraceSummary>), String> {
        let scenario = self.scenario(scheme)?;
        self.sim_for(&scenario)
    }

    /// The simulator for a scenario of this setup; a trace file is streamed and parsed
    /// once (cached for `sweep`'s several schemes) and fitted per scheme.
    fn sim_for(&self, scenario: &Scenario) -> Result<(Simulator, Option<TraceSummary>), String> {
        let Some(path) = &self.trace else {
            return Ok((scenario.build()?, None));
        };
        let (_, fit) = load::options_for(scenario)?;
        if self.parsed.get().is_none() {
            let (raw, _) = self.parse_trace(scenario, path)?;
            let _ = self.parsed.set(raw);
        }
        let raw = self.parsed.get().expect("parsed above");
        let (sim, summary) = load::build_with_raw(scenario, raw, fit)?;
        Ok((sim, Some(summary)))
    }

    fn parse_trace(&self, scenario: &Scenario, path: &std::path::Path) -> Result<(RawTrace, Fit), String> {
        let (mut opts, fit) = load::options_for(scenario)?;
        for c in &self.columns {
            opts.mapping.set_column(c)?;
        }
        opts.mapping.write_ops = self.write_ops.clone();
        opts.mapping.read_ops = self.read_ops.clone();
        let mut file = std::fs::File::open(path).map_err(|e| format!("cannot read trace {}: {e}", path.display()))?;
        let mut parser = TraceParser::new(opts);
        let mut buf = vec![0u8; 1 << 20];
        loop {
            let n = file.read(&mut buf).map_err(|e| format!("cannot read trace {}: {e}", path.display()))?;
            if n == 0 || parser.feed(&buf[..n]).failed {
                break;
            }
        }
        let raw = parser.finish().map_err(|e| format!("trace {}: {e}", path.display()))?;
        Ok((raw, fit))
    }
}

/// User + system CPU seconds of this process (Linux /proc; 0 elsewhere), 10 ms ticks.
fn cpu_seconds() -> f64 {
    let Ok(stat) = std::fs::read_to_string("/proc/self/stat") else { return 0.0 };
    // Fields after the command name (which is in parentheses and may hold spaces).
    let rest = stat.rsplit_once(')').map(|x| x.1).unwrap_or("");
    let f: Vec<&str> = rest.split_whitespace().collect();
    let ticks = |i: usize| f.get(i).and_then(|x| x.parse::<f64>().ok()).unwrap_or(0.0);
    // utime and stime are fields 14 and 15 of stat: 12 and 13 after the ')'.
    (ticks(11) + ticks(12)) / 100.0
}

fn print_trace_summary(s: &TraceSummary) {
    let fmt = s.format.map(|f| f.name()).unwrap_or("?");
    eprintln!(
        "trace: {fmt}{}, {} records ({} reads, {} writes) -> {} page requests ({} reads, {} writes), {} logical blocks touched",
        if s.format_detected { " (detected)" } else { "" },
        s.records, s.record_reads, s.record_writes, s.requests, s.reads, s.writes, s.footprint_blocks
    );
    eprintln!("trace: {}", s.fit_note);
    if s.skipped_lines > 0 {
        eprintln!("trace: {} malformed lines skipped", s.skipped_lines);
    }
    for w in &s.warnings {
        eprintln!("trace: warning: {w}");
    }
}

fn run(args: &RunArgs) -> Result<Metrics, String> {
    // One scheme: the parsed trace is not cached (its records are dropped once fitted).
    let scenario = args.setup.scenario(&args.scheme)?;
    let (mut sim, summary) = match &args.setup.trace {
        Some(path) => {
            let (raw, fit) = args.setup.parse_trace(&scenario, path)?;
            let (sim, summary) = load::build_with_raw(&scenario, &raw, fit)?;
            (sim, Some(summary))
        }
        None => (scenario.build()?, None),
    };
    if let Some(s) = &summary {
        print_trace_summary(s);
    }
    // Nothing seeks here: no keyframes, no run log, metrics by counters.
    sim.set_mode(RunMode::FullSpeed);
    sim.record_timeline(args.timeline.is_some());
    let total = sim.total();
    sim.run(total)?;
    if let Some(path) = &args.timeline {
        use std::fmt::Write as _;
        let mut out = String::from("request,op,lpn,total_us,gc_us\n");
        for (i, (r, t)) in sim.requests().iter().zip(sim.timeline().unwrap_or(&[])).enumerate() {
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
    Ok(sim.state.metrics())
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
    plan: ftl_sim::trace::fit::Plan,
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
    // One workload and one chip for every row, decided once (trace::fit::plan).
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
    let plan = ftl_sim::trace::fit::plan(&plain, fit, need)?;
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

fn print_human(m: &Metrics) {
    println!("scheme {} on chip {}", m.scheme, m.chip);
    println!("  host requests      {} ({} reads, {} writes)", m.requests, m.host_reads, m.host_writes);
    println!("  page reads         {}", m.page_reads);
    println!("  OOB reads          {}", m.oob_reads);
    println!("  page programs      {}", m.page_programs);
    println!("  erases             {}", m.erases);
    println!("  write amplification {:.3}", m.write_amplification);
    println!(
        "  merges             switch {}, partial {}, full {} ({} victims)",
        m.merges.switch, m.merges.partial, m.merges.full, m.merges.full_victims
    );
    println!("  GC runs            {}", m.gc_runs);
    println!("  elapsed            {:.1} us", m.elapsed_us);
    let l = &m.latency_us;
    println!(
        "  read latency (us)  best {:.1} mean {:.1} p99 {:.1} worst {:.1}",
        l.read.best, l.read.mean, l.read.p99, l.read.worst
    );
    println!(
        "  write latency (us) best {:.1} mean {:.1} p99 {:.1} worst {:.1}",
        l.write.best, l.write.mean, l.write.p99, l.write.worst
    );
    println!("  erase count        min {} max {} mean {:.2}", m.erase_count.min, m.erase_count.max, m.erase_count.mean);
    println!("  mapping RAM        {} bytes", m.ram_bytes);
    println!("  wrong reads        {}", m.wrong_reads);
}

fn crash_sweep(a: &CrashArgs) -> Result<ftl_sim::crash::SweepReport, String> {
    use ftl_sim::crash::{sweep, Points};
    let points = match (a.all, a.every, a.random) {
        (true, _, _) => Points::All,
        (_, Some(n), _) => Points::Every(n),
        (_, _, Some(n)) => Points::Random { n, seed: a.seed },
        _ => return Err("choose the cut points: --all, --every N or --random N [--seed X]".into()),
    };
    let scenario = a.setup.scenario(&a.scheme)?;
    let (sim, _) = a.setup.sim_for(&scenario)?;
    let recut = (!a.no_recut).then_some(a.seed);
    let mut last = std::time::Instant::now();
    let report = sweep(&sim.state, sim.requests(), &scenario.recoverer(), points, recut, |done, total| {
        if last.elapsed().as_millis() > 500 {
            eprint!("\r{done}/{total} cut points");
            last = std::time::Instant::now();
        }
    });
    eprint!("\r{:40}\r", "");
    Ok(report)
}

/// Peak resident memory of this process (Linux), in bytes.
fn peak_rss() -> Option<u64> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    let line = status.lines().find(|l| l.starts_with("VmHWM:"))?;
    line.split_whitespace().nth(1)?.parse::<u64>().ok().map(|kb| kb * 1024)
}

fn bench(a: &BenchArgs) -> Result<serde_json::Value, String> {
    let json = match a.scenario.strip_prefix('@') {
        Some(path) => std::fs::read_to_string(path).map_err(|e| format!("cannot read {path}: {e}"))?,
        None => a.scenario.clone(),
    };
    let scenario = Scenario::from_json(&json)?;
    let mut secs = Vec::new();
    let (mut requests, mut ops) = (0, 0);
    for _ in 0..a.runs.max(1) {
        let mut sim = scenario.build()?;
        sim.set_mode(RunMode::FullSpeed);
        let total = sim.total();
        let t0 = std::time::Instant::now();
        sim.run(total)?;
        secs.push(t0.elapsed().as_secs_f64());
        let m = sim.state.metrics();
        if m.wrong_reads > 0 {
            return Err(format!("{} wrong reads", m.wrong_reads));
        }
        requests = total as u64;
        ops = sim.state.flash.total_ops();
    }
    secs.sort_by(|a, b| a.total_cmp(b));
    let median = secs[secs.len() / 2];
    Ok(serde_json::json!({
        "scheme": scenario.scheme,
        "requests": requests,
        "flash_ops": ops,
        "runs_s": secs,
        "median_s": median,
        "requests_per_s": requests as f64 / median,
        "flash_ops_per_s": ops as f64 / median,
        "peak_rss_bytes": peak_rss(),
    }))
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    match cli.cmd {
        Cmd::Bench(a) => match bench(&a) {
            Ok(v) => {
                println!("{v}");
                ExitCode::SUCCESS
            }
            Err(e) => {
                eprintln!("error: {e}");
                ExitCode::from(2)
            }
        },
        Cmd::CrashSweep(a) if a.chain.is_some() => crash_chain(&a, a.chain.unwrap()),
        Cmd::CrashSweep(a) => match crash_sweep(&a) {
            Ok(r) => {
                if a.json {
                    println!("{}", serde_json::to_string(&r).expect("report serialises"));
                } else {
                    println!("crash sweep of {} over a run of {} flash operations", r.scheme, r.run_ops);
                    println!(
                        "  points tried          {} ({} also cut inside recovery)",
                        r.points_tried, r.recut_points
                    );
                    println!("  recovered correctly   {}", r.recovered_correctly);
                    println!("  acked writes lost     {}", r.acked_writes_lost);
                    println!("  wrong data            {}", r.wrong_reads);
                    println!("  torn pages mapped     {}", r.torn_mapped);
                    println!("  other errors          {}", r.errors);
                    let p = &r.recovery_pages_read;
                    println!(
                        "  recovery pages read   min {:.0} mean {:.1} p99 {:.0} max {:.0}",
                        p.min, p.mean, p.p99, p.max
                    );
                    let t = &r.recovery_us;
                    println!(
                        "  recovery time (us)    min {:.0} mean {:.1} p99 {:.0} max {:.0}",
                        t.min, t.mean, t.p99, t.max
                    );
                    for f in &r.first_failures {
                        println!("  FAILED: {f}");
                    }
                }
                if r.recovered_correctly == r.points_tried {
                    ExitCode::SUCCESS
                } else {
                    ExitCode::from(3)
                }
            }
            Err(e) => {
                eprintln!("error: {e}");
                ExitCode::from(2)
            }
        },
        Cmd::List => {
            println!("schemes:");
            for e in ftl_sim::ftl::REGISTRY {
                println!("  {:8} {}", e.id, e.description);
            }
            println!("chips: {}", PRESET_NAMES.join(", "));
            println!("generators (--gen KIND:key=value,...):");
            for (name, what) in GENERATORS {
                println!("  {name:10} {what}");
            }
            println!("trace formats (--trace FILE --format F):");
            for (_, name, what) in FORMATS {
                println!("  {name:10} {what}");
            }
            ExitCode::SUCCESS
        }
        Cmd::Export(args) => {
            let out = || -> Result<Vec<u8>, String> {
                let to = Format::from_name(&args.to)?;
                let (sim, _) = args.setup.build(&args.scheme)?;
                let pb = sim.state.flash.geometry().page_bytes;
                if to == Format::OracleGeneral {
                    return ftl_sim::trace::write::write_oracle_general(sim.requests(), pb);
                }
                write_trace(sim.requests(), to, pb).map(String::into_bytes)
            };
            match out() {
                Ok(bytes) => {
                    use std::io::Write;
                    let _ = std::io::stdout().write_all(&bytes);
                    ExitCode::SUCCESS
                }
                Err(e) => {
                    eprintln!("error: {e}");
                    ExitCode::from(2)
                }
            }
        }
        Cmd::Trace(args) => {
            if args.setup.trace.is_none() {
                eprintln!("error: give the trace with --trace FILE");
                return ExitCode::from(2);
            }
            let summary = || -> Result<serde_json::Value, String> {
                let scenario = args.setup.scenario(&args.scheme)?;
                let path = args.setup.trace.as_ref().expect("checked");
                let t0 = std::time::Instant::now();
                let c0 = cpu_seconds();
                let (raw, fit) = args.setup.parse_trace(&scenario, path)?;
                let parse_s = t0.elapsed().as_secs_f64();
                let c1 = cpu_seconds();
                let s = match load::build_with_raw(&scenario, &raw, fit) {
                    Ok((_, s)) => s,
                    // The fit failed (e.g. addresses out of range and no --fit):
                    // still show the trace, with the reason as a warning.
                    Err(e) => {
                        let ppb = scenario.chip.chip()?.geometry.pages_per_block;
                        let mut s = raw.summary(ppb);
                        s.warnings.push(e);
                        s
                    }
                };
                let file_bytes = if raw.compression.is_some() { raw.compressed_bytes } else { raw.bytes };
                // CPU seconds as well as wall time: on a busy machine the wall clock
                // measures the neighbours.
                let c2 = cpu_seconds();
                eprintln!(
                    "trace: read {:.1} MB{} in {:.3} s wall, {:.2} s CPU ({:.0} MB/s of text per CPU second); summary and fit {:.3} s wall, {:.2} s CPU",
                    file_bytes as f64 / 1e6,
                    raw.compression.as_deref().map(|c| format!(" ({c}, {:.1} MB of text)", raw.bytes as f64 / 1e6)).unwrap_or_default(),
                    parse_s,
                    c1 - c0,
                    raw.bytes as f64 / 1e6 / (c1 - c0).max(0.01),
                    t0.elapsed().as_secs_f64() - parse_s,
                    c2 - c1
                );
                let mut v = serde_json::to_value(&s).expect("summary serialises");
                // How the CSV columns were read, and the compression: not in the
                // scheme-independent summary, but what a user checks first.
                if !raw.csv_columns.is_empty() {
                    v["columns"] = serde_json::json!(raw
                        .csv_columns
                        .iter()
                        .cloned()
                        .collect::<std::collections::BTreeMap<_, _>>());
                }
                if let Some(c) = &raw.compression {
                    v["compression"] = c.clone().into();
                }
                Ok(v)
            };
            match summary() {
                Ok(s) => {
                    println!("{}", serde_json::to_string(&s).expect("summary serialises"));
                    ExitCode::SUCCESS
                }
                Err(e) => {
                    eprintln!("error: {e}");
                    ExitCode::from(2)
                }
            }
        }
        Cmd::Sweep(args) => match sweep(&args) {
            Ok((head, rows)) => {
                print_sweep(&head, &rows, args.csv, args.setup.precondition.as_deref());
                let wrong: u64 = rows.iter().filter_map(|r| r.m.as_ref()).map(|m| m.wrong_reads).sum();
                if wrong > 0 {
                    eprintln!("error: {wrong} reads disagreed with the reference model");
                    return ExitCode::from(3);
                }
                ExitCode::SUCCESS
            }
            Err(e) => {
                eprintln!("error: {e}");
                ExitCode::from(2)
            }
        },
        Cmd::Ram(args) => match ram(&args) {
            Ok(()) => ExitCode::SUCCESS,
            Err(e) => {
                eprintln!("error: {e}");
                ExitCode::from(2)
            }
        },
        Cmd::Run(args) => match run(&args) {
            Ok(m) => {
                if args.json {
                    println!("{}", serde_json::to_string(&m).expect("metrics serialise"));
                } else {
                    print_human(&m);
                }
                if m.wrong_reads > 0 {
                    eprintln!("error: {} reads disagreed with the reference model", m.wrong_reads);
                    return ExitCode::from(3);
                }
                ExitCode::SUCCESS
            }
            Err(e) => {
                eprintln!("error: {e}");
                ExitCode::from(2)
            }
        },
    }
}
