//! `ftl`: the native command line over the same simulator the app runs as wasm.
//! See docs/cli.md for the commands and the stable JSON field names.

use std::process::ExitCode;

use clap::{Args, Parser, Subcommand};
use ftl_sim::ftl::{SchemeParams, SCHEMES};
use ftl_sim::metrics::Metrics;
use ftl_sim::nand::PRESET_NAMES;
use ftl_sim::scenario::{ChipSpec, Scenario};
use ftl_sim::sim::Simulator;
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
    /// List the schemes, chip presets, generators and trace formats.
    List,
    /// Parse a trace (--trace FILE) and print its summary as JSON: format, requests,
    /// read/write mix, footprint, the fit applied (docs/traces.md).
    Trace(TraceArgs),
    /// Write a workload (--gen, --pattern or --trace) as a trace file on stdout, in the
    /// logical space of --scheme on --chip; addresses use the chip's page size.
    Export(ExportArgs),
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
struct RunArgs {
    /// Scheme: see `ftl list`.
    #[arg(long)]
    scheme: String,
    #[command(flatten)]
    setup: Setup,
    /// Print one JSON object with stable field names (docs/cli.md).
    #[arg(long)]
    json: bool,
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
    /// Over-provisioning ratio (page mapping).
    #[arg(long)]
    op: Option<f64>,
    /// Number of log blocks (hybrid schemes).
    #[arg(long)]
    log_blocks: Option<u32>,
    /// Associativity K (KAST, KRAFT).
    #[arg(long)]
    k: Option<u32>,
    /// Share of the logical space in use.
    #[arg(long)]
    utilisation: Option<f64>,
    /// Generated workload, e.g. `uniform:n=10000,seed=1,read_ratio=0.2`,
    /// `hotcold:n=5000,seed=2,hot_fraction=0.2,hot_ratio=0.8`, `sequential:n=1000`.
    #[arg(long, conflicts_with_all = ["pattern", "trace"])]
    gen: Option<String>,
    /// Inline pattern, e.g. "w0 w4 w8 w12 r3 (w1 w2)x3".
    #[arg(long, conflicts_with = "trace")]
    pattern: Option<String>,
    /// Trace file: UMass/SPC, MSR Cambridge, blkparse text, DiskSim/MQSim ASCII, CSV
    /// with a header, or the inline pattern language (docs/traces.md).
    #[arg(long)]
    trace: Option<std::path::PathBuf>,
    /// Trace format (default: auto-detect): umass, msr, blkparse, disksim, csv, pattern.
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
}

impl Setup {
    fn scenario(&self, scheme: &str) -> Result<Scenario, String> {
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
        Ok(Scenario {
            scheme: scheme.to_string(),
            params: SchemeParams { op: self.op, log_blocks: self.log_blocks, k: self.k, utilisation: self.utilisation },
            chip: ChipSpec { preset: self.chip.clone(), blocks: self.blocks, pages_per_block: self.pages_per_block },
            workload,
        })
    }
}

/// `uniform:n=10000,seed=1` → a Workload, through the same serde shape scenarios use.
fn parse_gen(spec: &str) -> Result<Workload, String> {
    let (kind, rest) = spec.split_once(':').unwrap_or((spec, ""));
    let mut obj = serde_json::Map::new();
    obj.insert("kind".into(), kind.into());
    for kv in rest.split(',').filter(|s| !s.is_empty()) {
        let (k, v) = kv
            .split_once('=')
            .ok_or_else(|| format!("--gen: expected key=value, got '{kv}'"))?;
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
        let Some(path) = &self.trace else {
            return Ok((scenario.build()?, None));
        };
        let (raw, fit) = self.parse_trace(&scenario, path)?;
        let (sim, summary) = load::build_with_raw(&scenario, &raw, fit)?;
        Ok((sim, Some(summary)))
    }

    fn parse_trace(&self, scenario: &Scenario, path: &std::path::Path) -> Result<(RawTrace, Fit), String> {
        let (opts, fit) = load::options_for(scenario)?;
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
    let (mut sim, summary) = args.setup.build(&args.scheme)?;
    if let Some(s) = &summary {
        print_trace_summary(s);
    }
    let total = sim.total();
    sim.run(total)?;
    Ok(sim.state.metrics())
}

fn print_human(m: &Metrics) {
    println!("scheme {} on chip {}", m.scheme, m.chip);
    println!("  host requests      {} ({} reads, {} writes)", m.requests, m.host_reads, m.host_writes);
    println!("  page reads         {}", m.page_reads);
    println!("  OOB reads          {}", m.oob_reads);
    println!("  page programs      {}", m.page_programs);
    println!("  erases             {}", m.erases);
    println!("  write amplification {:.3}", m.write_amplification);
    println!("  merges             switch {}, partial {}, full {} ({} victims)", m.merges.switch, m.merges.partial, m.merges.full, m.merges.full_victims);
    println!("  GC runs            {}", m.gc_runs);
    println!("  elapsed            {:.1} us", m.elapsed_us);
    let l = &m.latency_us;
    println!("  read latency (us)  best {:.1} mean {:.1} p99 {:.1} worst {:.1}", l.read.best, l.read.mean, l.read.p99, l.read.worst);
    println!("  write latency (us) best {:.1} mean {:.1} p99 {:.1} worst {:.1}", l.write.best, l.write.mean, l.write.p99, l.write.worst);
    println!("  erase count        min {} max {} mean {:.2}", m.erase_count.min, m.erase_count.max, m.erase_count.mean);
    println!("  mapping RAM        {} bytes", m.ram_bytes);
    println!("  wrong reads        {}", m.wrong_reads);
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    match cli.cmd {
        Cmd::List => {
            println!("schemes:");
            for (name, what) in SCHEMES {
                println!("  {name:8} {what}");
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
            let out = || -> Result<String, String> {
                let to = Format::from_name(&args.to)?;
                let (sim, _) = args.setup.build(&args.scheme)?;
                write_trace(sim.requests(), to, sim.state.flash.geometry().page_bytes)
            };
            match out() {
                Ok(text) => {
                    print!("{text}");
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
            let summary = || -> Result<TraceSummary, String> {
                let scenario = args.setup.scenario(&args.scheme)?;
                let path = args.setup.trace.as_ref().expect("checked");
                let (raw, fit) = args.setup.parse_trace(&scenario, path)?;
                match load::build_with_raw(&scenario, &raw, fit) {
                    Ok((_, s)) => Ok(s),
                    // The fit failed (e.g. addresses out of range and no --fit):
                    // still show the trace, with the reason as a warning.
                    Err(e) => {
                        let ppb = scenario.chip.chip()?.geometry.pages_per_block;
                        let mut s = raw.summary(ppb);
                        s.warnings.push(e);
                        Ok(s)
                    }
                }
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
