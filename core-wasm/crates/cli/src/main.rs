//! `ftl`: the native command line over the same simulator the app runs as wasm.
//! See docs/cli.md for the commands and the stable JSON field names.

use std::process::ExitCode;

use clap::{Args, Parser, Subcommand};
use ftl_sim::ftl::{SchemeParams, SCHEMES};
use ftl_sim::metrics::Metrics;
use ftl_sim::nand::PRESET_NAMES;
use ftl_sim::scenario::{ChipSpec, Scenario};
use ftl_sim::trace::gen::Workload;

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
    /// List the schemes and chip presets.
    List,
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
    /// Trace file (the inline pattern language).
    #[arg(long)]
    trace: Option<std::path::PathBuf>,
}

impl Setup {
    fn scenario(&self, scheme: &str) -> Result<Scenario, String> {
        let workload = if let Some(g) = &self.gen {
            parse_gen(g)?
        } else if let Some(p) = &self.pattern {
            Workload::Pattern { text: p.clone() }
        } else if let Some(path) = &self.trace {
            let text = std::fs::read_to_string(path)
                .map_err(|e| format!("cannot read trace {}: {e}", path.display()))?;
            Workload::Pattern { text }
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

fn run(args: &RunArgs) -> Result<Metrics, String> {
    let scenario = args.setup.scenario(&args.scheme)?;
    let mut sim = scenario.build()?;
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
                other => (if matches!(other, ftl_sim::trace::Request::Freeze) { "freeze" } else { "state" }, String::new()),
            };
            let _ = writeln!(out, "{},{op},{lpn},{},{}", i + 1, t.total_ns as f64 / 1000.0, t.gc_ns as f64 / 1000.0);
        }
        std::fs::write(path, out).map_err(|e| format!("cannot write {}: {e}", path.display()))?;
    }
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
            ExitCode::SUCCESS
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
