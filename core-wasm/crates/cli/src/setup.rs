//! The flags every command that runs a scenario shares (chip, scheme parameters,
//! workload, trace options), and turning them into a scenario and a simulator.

use std::io::Read;

use clap::Args;
use ftl_sim::ftl::SchemeParams;
use ftl_sim::scenario::{ChipSpec, Scenario};
use ftl_sim::sim::Simulator;
use ftl_sim::trace::fit::{Fit, TraceSummary};
use ftl_sim::trace::gen::Workload;
use ftl_sim::trace::load;
use ftl_sim::trace::parse::{Format, RawTrace, TraceParser};

/// Chip, scheme parameters and workload: shared by the commands that run a scenario.
#[derive(Args)]
pub(crate) struct Setup {
    /// Chip preset.
    #[arg(long, default_value = "classroom")]
    pub(crate) chip: String,
    /// Override the preset's number of blocks.
    #[arg(long)]
    pub(crate) blocks: Option<u32>,
    /// Override the preset's pages per block.
    #[arg(long)]
    pub(crate) pages_per_block: Option<u32>,
    /// Over-provisioning ratio (page mapping; LTFTL: spare share of its data section).
    #[arg(long, allow_negative_numbers = true)]
    pub(crate) op: Option<f64>,
    /// Number of log blocks (hybrid schemes; LTFTL: blocks of its log section). `sweep` takes a comma-separated list
    /// (`--log-blocks 4,8,16,32,64`); `run` takes one value.
    #[arg(long, value_delimiter = ',')]
    pub(crate) log_blocks: Vec<u32>,
    /// Associativity K (KAST, KRAFT).
    #[arg(long)]
    pub(crate) k: Option<u32>,
    /// KRAFT: largest v_page for which an early switch counts as low cost (default N/2).
    #[arg(long)]
    pub(crate) switch_max: Option<u32>,
    /// KRAFT: largest number of pages a fill may copy (default max(1, N/4)).
    #[arg(long)]
    pub(crate) fill_max: Option<u32>,
    /// RFTL / GFTL / NFTL: share of the logical blocks in use, in (0, 1].
    #[arg(long, allow_negative_numbers = true)]
    pub(crate) utilisation: Option<f64>,
    /// FastCheck: LPNs per log region (checkpoint period P_fastcheck; default page size / 4 B).
    /// fast-ltlog: records per log page (P_ltftl; default page size / 16 B).
    #[arg(long)]
    pub(crate) checkpoint_lpns: Option<u32>,
    /// Generated workload, e.g. `uniform:n=10000,seed=1,read_ratio=0.2`,
    /// `hotcold:n=5000,seed=2,hot_fraction=0.2,hot_ratio=0.8`, `sequential:n=1000`.
    #[arg(long, conflicts_with_all = ["pattern", "trace"])]
    pub(crate) gen: Option<String>,
    /// Inline pattern, e.g. "w0 w4 w8 w12 r3 (w1 w2)x3".
    #[arg(long, conflicts_with = "trace")]
    pub(crate) pattern: Option<String>,
    /// Trace file: UMass/SPC, MSR Cambridge, blkparse text, DiskSim/MQSim ASCII,
    /// Alibaba/SNIA block CSV, FIU, libCacheSim oracleGeneral binary, CSV with a header
    /// (or --column mappings), or the inline pattern language; gzip or zstd compressed
    /// files are read as they are (docs/traces.md).
    #[arg(long)]
    pub(crate) trace: Option<std::path::PathBuf>,
    /// Trace format (default: auto-detect): umass, msr, blkparse, disksim, csv, pattern,
    /// alibaba, fiu, oracle_general.
    #[arg(long, requires = "trace")]
    pub(crate) format: Option<String>,
    /// Addresses beyond the logical space: fold (modulo), compact (renumber touched
    /// logical blocks densely), scale (grow the chip). Default: refuse with a message.
    #[arg(long, requires = "trace")]
    pub(crate) fit: Option<String>,
    /// Keep only this device of a multi-device trace (ASU, DiskNumber, device, or
    /// blkparse `major,minor`).
    #[arg(long, requires = "trace")]
    pub(crate) device: Option<String>,
    /// Skip malformed lines (their count and the first ones are reported).
    #[arg(long, requires = "trace")]
    pub(crate) skip_bad_lines: bool,
    /// blkparse: which action counts (D = issued to the device, Q = queued, C = completed).
    #[arg(long, requires = "trace")]
    pub(crate) blkparse_action: Option<String>,
    /// CSV column mapping, repeatable: ROLE=NAME[:UNIT], ROLE one of op, address, size,
    /// device, time; NAME a header name or a 1-based column number (files without a
    /// header); UNIT bytes, sectors or pages. E.g. --column address=lbn:sectors.
    #[arg(long = "column", value_name = "ROLE=NAME[:UNIT]", requires = "trace")]
    pub(crate) columns: Vec<String>,
    /// CSV op value meaning write, repeatable, case-insensitive (e.g. 2a, W, 1).
    #[arg(long = "write-op", value_name = "VALUE", requires = "trace")]
    pub(crate) write_ops: Vec<String>,
    /// CSV op value meaning read, repeatable, case-insensitive (e.g. 28, R, 0).
    #[arg(long = "read-op", value_name = "VALUE", requires = "trace")]
    pub(crate) read_ops: Vec<String>,
    /// Fill the device before measuring: `fill` (each logical page once), `fill,random=N`
    /// (then N random writes, as fio / SNIA steady-state tests), `random=N,seed=S`; metrics
    /// count only what runs after it.
    #[arg(long)]
    pub(crate) precondition: Option<String>,
    /// The trace file once parsed.
    #[arg(skip)]
    pub(crate) parsed: std::cell::OnceCell<RawTrace>,
}

impl Setup {
    pub(crate) fn scenario(&self, scheme: &str) -> Result<Scenario, String> {
        if self.log_blocks.len() > 1 {
            return Err("give one --log-blocks value (use `ftl sweep` for several)".into());
        }
        self.scenario_with(scheme, self.log_blocks.first().copied(), false)
    }

    /// `shared`: the flags are shared by several schemes (`sweep`): each scheme gets the
    /// parameters it reads (sweep() refuses a flag no scheme of the sweep reads).
    pub(crate) fn scenario_with(
        &self,
        scheme: &str,
        log_blocks: Option<u32>,
        shared: bool,
    ) -> Result<Scenario, String> {
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
    pub(crate) fn build(&self, scheme: &str) -> Result<(Simulator, Option<TraceSummary>), String> {
        let scenario = self.scenario(scheme)?;
        self.sim_for(&scenario)
    }

    /// The simulator for a scenario of this setup; a trace file is streamed and parsed
    /// once (cached for `sweep`'s several schemes) and fitted per scheme.
    pub(crate) fn sim_for(&self, scenario: &Scenario) -> Result<(Simulator, Option<TraceSummary>), String> {
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

    pub(crate) fn parse_trace(&self, scenario: &Scenario, path: &std::path::Path) -> Result<(RawTrace, Fit), String> {
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
