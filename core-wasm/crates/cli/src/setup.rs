//! The flags every command that runs a scenario shares (chip, scheme parameters,
//! workload, trace options), and turning them into a scenario and a simulator.

use std::io::Read;

use clap::Args;
use ftl_sim::ftl::SchemeParams;
use ftl_sim::scenario::load;
use ftl_sim::scenario::{ChipSpec, Scenario};
use ftl_sim::sim::Simulator;
use ftl_sim::trace::fit::{Fit, TraceSummary};
use ftl_sim::trace::gen::Workload;
use ftl_sim::trace::parse::{Format, RawTrace, TraceOptions, TraceParser};

/// Chip, scheme parameters and workload: shared by the commands that run a scenario.
#[derive(Args)]
pub(crate) struct Setup {
    /// Chip preset (`sweep`: a comma-separated list, e.g. `fast2007,fastcheck`).
    #[arg(long, value_delimiter = ',', default_value = "classroom")]
    pub(crate) chip: Vec<String>,
    /// Override the preset's number of blocks (`sweep`: a list).
    #[arg(long, value_delimiter = ',')]
    pub(crate) blocks: Vec<u32>,
    /// Override the preset's pages per block (`sweep`: a list).
    #[arg(long, value_delimiter = ',')]
    pub(crate) pages_per_block: Vec<u32>,
    /// The scheme parameters, one flag per `SchemeParams` field (`--log-blocks`, ...).
    #[command(flatten)]
    pub(crate) params: ParamFlags,
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
    /// `sweep`: several files, comma-separated or the flag repeated.
    #[arg(long, value_delimiter = ',')]
    pub(crate) trace: Vec<std::path::PathBuf>,
    /// Trace format (default: auto-detect): umass, msr, blkparse, disksim, csv, pattern,
    /// alibaba, fiu, oracle_general, vscsi, vscsi2, addresses.
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
    /// Unit of the ids of formats whose address has no unit of its own: oracleGeneral's
    /// obj_id and the one-address-per-line reader (default pages). libCacheSim's
    /// CloudPhysics sample: `--id-unit sectors` (its ids are the CSV's 512-byte lbn).
    #[arg(long, value_name = "bytes|sectors|pages", requires = "trace")]
    pub(crate) id_unit: Option<String>,
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
    /// The logical space the workload is generated or fitted in, in pages (default: the
    /// scheme's own space on the chip). Give the same N to every run of a comparison for
    /// one request list across runs; a run whose scheme exports fewer pages fails alone.
    #[arg(long)]
    pub(crate) space: Option<u32>,
    /// The last trace file parsed (a sweep parses each file once: rows are trace-major).
    #[arg(skip)]
    pub(crate) parsed: std::cell::RefCell<Option<Parsed>>,
}

/// A trace file as parsed for one page size, and what identifies the file.
pub(crate) struct Parsed {
    pub(crate) page_bytes: u32,
    /// The path as given (the file's own path is made absolute).
    pub(crate) given: std::path::PathBuf,
    pub(crate) raw: std::rc::Rc<RawTrace>,
    pub(crate) file: TraceFile,
    /// Parsed with its timestamps (`parse_trace`'s `timed`).
    pub(crate) timed: bool,
}

/// What identifies a trace file in every output: name, path, size and SHA-256.
#[derive(Clone, Debug, serde::Serialize, serde::Deserialize)]
pub(crate) struct TraceFile {
    pub(crate) name: String,
    pub(crate) path: std::path::PathBuf,
    pub(crate) bytes: u64,
    pub(crate) sha256: String,
}

/// One configuration of a run or a sweep row: scheme, chip and the parameter values
/// given (None: the scheme's default on the chip), and the trace file (if any).
#[derive(Clone, Debug)]
pub(crate) struct Point {
    pub(crate) scheme: String,
    pub(crate) chip: ChipSpec,
    pub(crate) params: SchemeParams,
    pub(crate) trace: Option<std::path::PathBuf>,
    /// The timing model of the row (a sweep's `--rate` / `--time-scale` lists); None: closed.
    pub(crate) timing: Option<ftl_sim::timing::TimingConfig>,
    /// The workload space the sweep gives the row (`--space`, or its chip's common one).
    pub(crate) space: Option<u32>,
}

/// The parameter lists of a sweep, by `SchemeParams` key.
type Lists = Vec<(&'static str, Vec<f64>)>;

/// One flag per scheme parameter, made from its declaration (`SchemeParams::FIELDS`: the
/// key gives `--log-blocks`, the doc comment the help, the type the parser): a new
/// parameter needs no edit here. Each takes a comma-separated list in `sweep`, one value
/// elsewhere.
#[derive(Clone, Debug, Default)]
pub(crate) struct ParamFlags(Lists);

impl clap::FromArgMatches for ParamFlags {
    fn from_arg_matches(m: &clap::ArgMatches) -> Result<Self, clap::Error> {
        let list = |key| m.get_many::<f64>(key).map(|v| v.copied().collect()).unwrap_or_default();
        Ok(ParamFlags(SchemeParams::FIELDS.iter().map(|f| (f.key, list(f.key))).collect()))
    }
    fn update_from_arg_matches(&mut self, m: &clap::ArgMatches) -> Result<(), clap::Error> {
        *self = Self::from_arg_matches(m)?;
        Ok(())
    }
}

impl ParamFlags {
    /// The values given for one parameter (None: not given).
    pub(crate) fn list(&self, key: &str) -> Option<&[f64]> {
        self.0.iter().find(|(k, v)| *k == key && !v.is_empty()).map(|(_, v)| v.as_slice())
    }
}

impl Args for ParamFlags {
    fn augment_args(cmd: clap::Command) -> clap::Command {
        use clap::builder::TypedValueParser;
        SchemeParams::FIELDS.iter().fold(cmd, |cmd, f| {
            // Built once per process: the flag's name lives as long as the command.
            let long: &'static str = Box::leak(f.key.replace('_', "-").into_boxed_str());
            let value: &'static str = Box::leak(f.key.to_uppercase().into_boxed_str());
            let help = f.doc.lines().map(str::trim).collect::<Vec<_>>().join(" ");
            let arg = clap::Arg::new(f.key)
                .long(long)
                .value_name(value)
                .value_delimiter(',')
                .action(clap::ArgAction::Append)
                .help(help);
            cmd.arg(if f.integer {
                arg.value_parser(clap::value_parser!(u32).map(f64::from))
            } else {
                // A negative ratio reaches the range check, whose message names the range.
                arg.value_parser(clap::value_parser!(f64)).allow_negative_numbers(true)
            })
        })
    }
    fn augment_args_for_update(cmd: clap::Command) -> clap::Command {
        Self::augment_args(cmd)
    }
}

impl Setup {
    fn lists(&self) -> Lists {
        self.params.0.clone()
    }

    /// The one configuration of a single run (`run`, `trace`, `export`, `crash-sweep`):
    /// every list must hold at most one value.
    pub(crate) fn point(&self, scheme: &str) -> Result<Point, String> {
        let chip_lists =
            [("chip", self.chip.len()), ("blocks", self.blocks.len()), ("pages-per-block", self.pages_per_block.len())];
        let lists = self.lists();
        let many = chip_lists
            .iter()
            .map(|&(n, l)| (n.to_string(), l))
            .chain(lists.iter().map(|(n, v)| (n.replace('_', "-"), v.len())))
            .chain([("trace".to_string(), self.trace.len())])
            .find(|(_, l)| *l > 1);
        if let Some((name, _)) = many {
            return Err(format!("give one --{name} value (use `ftl sweep` for several)"));
        }
        let mut params = SchemeParams::default();
        for (key, v) in &lists {
            if let Some(&x) = v.first() {
                params.set(key, x);
            }
        }
        Ok(Point {
            scheme: scheme.to_string(),
            chip: ChipSpec {
                preset: self.chip.first().cloned().unwrap_or_else(|| "classroom".into()),
                blocks: self.blocks.first().copied(),
                pages_per_block: self.pages_per_block.first().copied(),
            },
            params,
            trace: self.trace.first().cloned(),
            timing: None,
            space: None,
        })
    }

    /// Every configuration of a sweep, in a fixed order that depends on the flags alone:
    /// trace, chip, blocks, pages per block, scheme, then each parameter list the scheme
    /// reads (a scheme that does not read a parameter gets one row for it). Each list
    /// must be read by at least one scheme.
    pub(crate) fn points(&self, schemes: &[String]) -> Result<Vec<Point>, String> {
        // An unknown scheme is bad usage: refused before any row runs (exit 2).
        if let Some(x) = schemes.iter().find(|x| ftl_sim::ftl::entry(x).is_none()) {
            let known: Vec<&str> = ftl_sim::ftl::REGISTRY.iter().map(|e| e.id).collect();
            return Err(format!("unknown scheme '{x}' (known: {})", known.join(", ")));
        }
        let lists = self.lists();
        for (name, v) in &lists {
            if !v.is_empty() && !schemes.iter().any(|x| ftl_sim::ftl::scheme_params(x).contains(name)) {
                return Err(format!("none of the schemes {} reads '{name}'", schemes.join(", ")));
            }
        }
        let opt = |v: &[u32]| -> Vec<Option<u32>> {
            if v.is_empty() {
                vec![None]
            } else {
                v.iter().map(|&x| Some(x)).collect()
            }
        };
        let traces: Vec<Option<std::path::PathBuf>> =
            if self.trace.is_empty() { vec![None] } else { self.trace.iter().cloned().map(Some).collect() };
        let mut out = Vec::new();
        for trace in &traces {
            for preset in &self.chip {
                for blocks in opt(&self.blocks) {
                    for ppb in opt(&self.pages_per_block) {
                        for scheme in schemes {
                            let reads = ftl_sim::ftl::scheme_params(scheme);
                            let mut sets = vec![SchemeParams::default()];
                            for (key, v) in &lists {
                                if v.is_empty() || !reads.contains(key) {
                                    continue;
                                }
                                sets = sets
                                    .iter()
                                    .flat_map(|p| {
                                        v.iter().map(move |&x| {
                                            let mut q = p.clone();
                                            q.set(key, x);
                                            q
                                        })
                                    })
                                    .collect();
                            }
                            for params in sets {
                                out.push(Point {
                                    scheme: scheme.clone(),
                                    chip: ChipSpec { preset: preset.clone(), blocks, pages_per_block: ppb },
                                    params,
                                    trace: trace.clone(),
                                    timing: None,
                                    space: None,
                                });
                            }
                        }
                    }
                }
            }
        }
        Ok(out)
    }

    /// The workload the flags give (a trace file's text is streamed by `sim_for`).
    pub(crate) fn workload(&self) -> Result<Workload, String> {
        if let Some(g) = &self.gen {
            parse_gen(g)
        } else if let Some(p) = &self.pattern {
            Ok(Workload::Pattern { text: p.clone() })
        } else if !self.trace.is_empty() {
            Ok(Workload::Trace {
                text: String::new(),
                format: self.format.as_deref().map(Format::from_name).transpose()?,
                fit: self.fit.as_deref().map(Fit::from_name).transpose()?.unwrap_or_default(),
                device: self.device.clone(),
                skip_bad_lines: self.skip_bad_lines,
                blkparse_action: self.blkparse_action.clone(),
            })
        } else {
            Err("give a workload: --gen KIND:key=value,..., --pattern \"w0 w4\" or --trace FILE".into())
        }
    }

    /// The scenario of a single run.
    pub(crate) fn scenario(&self, scheme: &str) -> Result<Scenario, String> {
        self.scenario_for(&self.point(scheme)?)
    }

    /// The scenario of one configuration: its workload, preconditioning; parameters the
    /// scheme does not read and out-of-range numbers are refused here, before a trace is
    /// parsed (the core's check, which the app gets too).
    pub(crate) fn scenario_for(&self, p: &Point) -> Result<Scenario, String> {
        let scenario = Scenario {
            scheme: p.scheme.clone(),
            params: p.params.clone(),
            chip: p.chip.clone(),
            workload: self.workload()?,
            run: ftl_sim::scenario::RunOptions {
                workload_space: None,
                precondition: self
                    .precondition
                    .as_deref()
                    .map(ftl_sim::precondition::Precondition::parse)
                    .transpose()?
                    .flatten(),
                timing: None,
                device: None,
            },
        };
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
            if !f.is_finite() {
                return Err(format!("--gen: value of '{k}' must be a finite number, got '{v}'"));
            }
            f.into()
        } else {
            return Err(format!("--gen: value of '{k}' must be a number, got '{v}'"));
        };
        if obj.insert(k.into(), num).is_some() {
            return Err(format!("--gen '{spec}': '{k}' is given twice"));
        }
    }
    serde_json::from_value(serde_json::Value::Object(obj)).map_err(|e| format!("--gen '{spec}': {e}"))
}

impl Setup {
    /// The simulator, and the trace summary when the workload is a trace file.
    pub(crate) fn build(&self, scheme: &str) -> Result<(Simulator, Option<TraceSummary>), String> {
        let scenario = self.scenario(scheme)?;
        self.sim_for(&scenario, self.trace.first().map(|p| p.as_path()))
    }

    /// The simulator for a scenario of this setup; a trace file is streamed and parsed
    /// once per page size (cached while a sweep's rows use it) and fitted per scheme.
    pub(crate) fn sim_for(
        &self,
        scenario: &Scenario,
        trace: Option<&std::path::Path>,
    ) -> Result<(Simulator, Option<TraceSummary>), String> {
        let Some(path) = trace else {
            return Ok((scenario.build()?, None));
        };
        let (_, fit) = load::options_for(scenario)?;
        // With the timestamps: `build_with_raw` keeps the arrivals whatever the model.
        let (raw, _) = self.parsed_trace(scenario, path, true)?;
        let (sim, summary) = load::build_with_raw(scenario, &raw, fit)?;
        Ok((sim, Some(summary)))
    }

    /// The trace file parsed for the scenario's page size (the last one is kept), with its
    /// timestamps if `timed` (a trace parsed with them serves an untimed use too).
    pub(crate) fn parsed_trace(
        &self,
        scenario: &Scenario,
        path: &std::path::Path,
        timed: bool,
    ) -> Result<(std::rc::Rc<RawTrace>, TraceFile), String> {
        let page_bytes = scenario.chip.chip()?.geometry.page_bytes;
        if let Some(p) = &*self.parsed.borrow() {
            if p.page_bytes == page_bytes && p.given == path && (p.timed || !timed) {
                return Ok((p.raw.clone(), p.file.clone()));
            }
        }
        // Drop the previous trace before parsing the next (one in memory at a time).
        *self.parsed.borrow_mut() = None;
        let (raw, _, file) = self.parse_trace(scenario, path, timed)?;
        let raw = std::rc::Rc::new(raw);
        *self.parsed.borrow_mut() =
            Some(Parsed { page_bytes, given: path.to_path_buf(), raw: raw.clone(), file: file.clone(), timed });
        Ok((raw, file))
    }

    /// Streams and parses a trace file, hashing it (SHA-256 of the file as stored). Without
    /// `timed` no timestamp is kept (a closed-model run never reads them; issue 37).
    pub(crate) fn parse_trace(
        &self,
        scenario: &Scenario,
        path: &std::path::Path,
        timed: bool,
    ) -> Result<(RawTrace, Fit, TraceFile), String> {
        let (opts, fit) = self.trace_options(scenario, timed)?;
        let mut parser = TraceParser::new(opts);
        let file = read_trace(path, |chunk| parser.feed(chunk))?;
        let raw = parser.finish().map_err(|e| format!("trace {}: {e}", path.display()))?;
        Ok((raw, fit, file))
    }

    /// The parser's options for the scenario's chip and these flags, and the fit.
    pub(crate) fn trace_options(&self, scenario: &Scenario, timed: bool) -> Result<(TraceOptions, Fit), String> {
        let (mut opts, fit) = load::options_for(scenario)?;
        opts.drop_times = !timed;
        for c in &self.columns {
            opts.mapping.set_column(c)?;
        }
        opts.mapping.write_ops = self.write_ops.clone();
        opts.mapping.read_ops = self.read_ops.clone();
        if let Some(u) = &self.id_unit {
            opts.id_unit = Some(
                ftl_sim::trace::parse::Unit::from_word(u)
                    .ok_or_else(|| format!("--id-unit '{u}': expected bytes, sectors or pages"))?,
            );
        }
        Ok((opts, fit))
    }
}

/// Reads a trace file chunk by chunk into `feed` (a parser's) while another thread hashes
/// it: what identifies the file. Stops reading when the parse has failed; once the parser
/// is done (the request limit), the rest is only hashed.
pub(crate) fn read_trace(
    path: &std::path::Path,
    mut feed: impl FnMut(&[u8]) -> ftl_sim::trace::parse::Progress,
) -> Result<TraceFile, String> {
    let mut file = std::fs::File::open(path).map_err(|e| format!("cannot read trace {}: {e}", path.display()))?;
    let (bytes, sha256) = read_hashed(&mut file, |chunk| {
        let p = feed(chunk);
        if p.failed {
            return None;
        }
        Some(!p.done)
    })
    .map_err(|e| format!("cannot read trace {}: {e}", path.display()))?;
    let name = path.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
    // Absolute, so a row replays from any directory (`ftl run --scenario ROW`).
    let path = std::fs::canonicalize(path).unwrap_or_else(|_| path.to_path_buf());
    Ok(TraceFile { name, path, bytes, sha256 })
}

/// `read_trace` without the hash, for `ftl trace`, which shows none: the same chunks and
/// stops (a failed parse stops the read, and so does the parser's end).
pub(crate) fn read_trace_unhashed(
    path: &std::path::Path,
    mut feed: impl FnMut(&[u8]) -> ftl_sim::trace::parse::Progress,
) -> Result<(), String> {
    let cannot = |e: std::io::Error| format!("cannot read trace {}: {e}", path.display());
    let mut file = std::fs::File::open(path).map_err(cannot)?;
    let mut buf = vec![0u8; READ_CHUNK];
    loop {
        let n = file.read(&mut buf).map_err(cannot)?;
        if n == 0 {
            return Ok(());
        }
        let p = feed(&buf[..n]);
        if p.failed || p.done {
            return Ok(());
        }
    }
}

/// Bytes read at a time. A streamed run hands one batch per chunk to the run, and up to
/// four chunks are alive (read, parsed, two waiting for the hasher): 256 KB keeps the
/// process under the 32 MB target where 1 MB chunks and their batches cost 6-8 MB more
/// (issue 37, session 12), and reads no slower.
const READ_CHUNK: usize = 256 << 10;

/// Reads a file in `READ_CHUNK` chunks, handing each to `parse` while another thread computes the
/// file's SHA-256 (issue 37: the hash was 5 % of a page-mapping `ftl run` on one core).
/// `parse` answers whether it wants more (Some(false): only hash the rest) or stops the
/// read (None). Returns the bytes read and the digest in hex.
fn read_hashed(file: &mut impl Read, mut parse: impl FnMut(&[u8]) -> Option<bool>) -> std::io::Result<(u64, String)> {
    use sha2::Digest;
    use std::sync::{mpsc, Arc};
    std::thread::scope(|s| {
        let (to_hash, chunks) = mpsc::sync_channel::<(Arc<Vec<u8>>, usize)>(2);
        let (give_back, returned) = mpsc::channel::<Arc<Vec<u8>>>();
        let hasher = s.spawn(move || {
            let mut sha = sha2::Sha256::new();
            for (buf, n) in chunks {
                sha.update(&buf[..n]);
                let _ = give_back.send(buf);
            }
            sha.finalize()
        });
        let mut bytes = 0u64;
        let mut parsing = true;
        let read = loop {
            // A chunk the hasher is done with (and the parse too) is read into again.
            let mut buf =
                returned.try_recv().ok().and_then(|b| Arc::try_unwrap(b).ok()).unwrap_or_else(|| vec![0u8; READ_CHUNK]);
            let n = match file.read(&mut buf) {
                Ok(0) => break Ok(()),
                Ok(n) => n,
                Err(e) => break Err(e),
            };
            bytes += n as u64;
            let buf = Arc::new(buf);
            if to_hash.send((buf.clone(), n)).is_err() {
                break Ok(());
            }
            if parsing {
                match parse(&buf[..n]) {
                    None => break Ok(()),
                    Some(more) => parsing = more,
                }
            }
        };
        drop(to_hash);
        let digest = hasher.join().expect("the hashing thread does not panic");
        read.map(|()| (bytes, digest.iter().map(|b| format!("{b:02x}")).collect()))
    })
}
