//! What the commands print beside their JSON: the human-readable metrics, the trace
//! summary on stderr, the crash reports (one printer for the sweep and the chain), and
//! the exit codes of docs/cli.md.

use std::process::ExitCode;

use ftl_sim::crash::{ChainReport, Summary, SweepReport};
use ftl_sim::metrics::Metrics;
use ftl_sim::trace::fit::TraceSummary;

/// Exit code: bad arguments or input, or a run that failed (message on stderr).
pub(crate) const EXIT_USAGE: u8 = 2;
/// Exit code: the run finished but a read disagreed with the reference model, or a
/// crash point was not recovered correctly.
pub(crate) const EXIT_FAILED_CHECK: u8 = 3;
/// Exit code: `ftl sweep` / `ftl merge` ran, but some rows could not run (each is named
/// on stderr and in its row's `error`), or `merge` found rows missing or twice.
pub(crate) const EXIT_ROWS_FAILED: u8 = 4;

/// Prints `error: {e}` on stderr and gives exit code 2.
pub(crate) fn fail(e: impl std::fmt::Display) -> ExitCode {
    eprintln!("error: {e}");
    ExitCode::from(EXIT_USAGE)
}

/// Prints one JSON object on a line of stdout.
pub(crate) fn print_json(v: &impl serde::Serialize) {
    println!("{}", serde_json::to_string(v).expect("serialises"));
}

pub(crate) fn print_trace_summary(s: &TraceSummary) {
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

pub(crate) fn print_human(m: &Metrics) {
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
    // A scheme with a cached mapping table (DFTL) reports its hits and translation pages.
    let sm = &m.scheme_metrics;
    if let (Some(hits), Some(misses)) = (sm["cmt_hits"].as_u64(), sm["cmt_misses"].as_u64()) {
        println!(
            "  CMT                hits {hits}, misses {misses} (hit ratio {:.4}, {} entries)",
            sm["cmt_hit_ratio"].as_f64().unwrap_or(0.0),
            sm["cmt_entries"]
        );
        println!("  translation pages  reads {}, writes {}", sm["translation_reads"], sm["translation_writes"]);
    }
    println!("  wrong reads        {}", m.wrong_reads);
}

/// One line of a crash report: the label in a column of 22.
fn row(label: &str, value: impl std::fmt::Display) {
    println!("  {label:22}{value}");
}

/// A distribution as the crash reports print it.
fn dist(p: &Summary) -> String {
    format!("min {:.0} mean {:.1} p99 {:.0} max {:.0}", p.min, p.mean, p.p99, p.max)
}

/// The verdict counts both crash reports print, then the first failures.
fn verdicts(recovered: u64, lost: u64, wrong: u64, torn: u64) {
    row("recovered correctly", recovered);
    row("acked writes lost", lost);
    row("wrong data", wrong);
    row("torn pages mapped", torn);
}

fn failures(first: &[String]) {
    for f in first {
        println!("  FAILED: {f}");
    }
}

/// `ftl crash-sweep` (cut points) in words.
pub(crate) fn print_sweep_report(r: &SweepReport) {
    println!("crash sweep of {} over a run of {} flash operations", r.scheme, r.run_ops);
    row("points tried", format!("{} ({} also cut inside recovery)", r.points_tried, r.recut_points));
    verdicts(r.recovered_correctly, r.acked_writes_lost, r.wrong_reads, r.torn_mapped);
    row("other errors", r.errors);
    row("recovery pages read", dist(&r.recovery_pages_read));
    row("recovery time (us)", dist(&r.recovery_us));
    failures(&r.first_failures);
}

/// `ftl crash-sweep --chain N` in words.
pub(crate) fn print_chain_report(r: &ChainReport) {
    // requests_run (the JSON's) counts the requests that ran uncut; each cut is one more.
    println!(
        "crash chain of {} (seed {}): {} cuts over {} requests ({} ran uncut, {} cut in flight)",
        r.scheme,
        r.seed,
        r.cuts,
        r.requests_run + r.cuts,
        r.requests_run,
        r.cuts
    );
    row(
        "cuts at",
        format!(
            "between {} mid-request {} mid-merge {} mid-checkpoint {} (right after a recovery {})",
            r.between, r.mid_request, r.mid_merge, r.mid_checkpoint, r.right_after_recovery
        ),
    );
    row(
        "recut points",
        format!(
            "{} ({} inside the recovery); share of all cut points inside a recovery {:.1} %",
            r.recut_points,
            r.recut_inside_recovery,
            100.0 * r.share_inside_recovery
        ),
    );
    row("in flight took effect", r.took_effect);
    verdicts(r.recovered_correctly, r.acked_writes_lost, r.wrong_reads, r.torn_mapped);
    row("frozen states damaged", r.frozen_damaged);
    row("errors", r.errors);
    row("recovery ops", dist(&r.recovery_ops));
    if r.targets.iter().any(|t| t.offered > 0) {
        let t: Vec<String> =
            r.targets.iter().map(|t| format!("{} {}/{}", t.target.replace('_', " "), t.cut, t.offered)).collect();
        row("targeted (cut/offered)", t.join(", "));
    }
    if !r.pools.is_empty() {
        // A pool the scheme caps by construction is judged against its cap (Ftl::pool_cap).
        let p: Vec<String> = r
            .pools
            .iter()
            .map(|p| {
                let cap = p.cap.map(|c| format!(", cap {c}")).unwrap_or_default();
                format!("{:?} {} ({} cut-free{cap})", p.role, p.after_recovery, p.cut_free)
            })
            .collect();
        row("pools after recovery", p.join(", "));
        row("pools beyond bound", r.pool_excess);
    }
    row("stuck", if r.stuck { "yes: a request failed without a cut" } else { "no" });
    failures(&r.first_failures);
    if let Some(s) = &r.stopped {
        println!("  STOPPED: {s}");
    }
}

/// The CSV columns of `ftl sweep --csv` and `ftl merge --csv` (docs/cli.md): the row's
/// setup, then its figures; after `page_bytes`, one column per scheme parameter
/// (`SchemeParams::KEYS`: defaults resolved, empty when the scheme does not read it).
pub(crate) const SWEEP_CSV: &[&str] = &[
    "row",
    "scheme",
    "chip",
    "blocks",
    "pages_per_block",
    "page_bytes",
    // Then one column per `SchemeParams::KEYS` (csv_header).
    "trace",
    "trace_bytes",
    "trace_sha256",
    "fit",
    "precondition",
    "workload",
    "chip_read_us",
    "chip_read_oob_us",
    "chip_program_us",
    "chip_erase_us",
    "timing_model",
    "arrivals",
    "time_scale",
    "rate_per_s",
    "logical_pages",
    "workload_pages",
    "requests",
    "request_hash",
    "host_writes",
    "erases",
    "write_amplification",
    "switch_merges",
    "partial_merges",
    "full_merges",
    "full_merge_victims",
    "page_reads",
    "page_programs",
    "elapsed_s",
    "write_latency_mean_us",
    "write_latency_p99_us",
    "write_latency_p99_9_us",
    "write_latency_worst_us",
    "read_latency_mean_us",
    "read_latency_p99_us",
    "read_latency_p99_9_us",
    "log_utilisation",
    "wrong_reads",
    "error",
];

/// The CSV columns `--recovery` adds.
pub(crate) const RECOVERY_CSV: &[&str] =
    &["map_pages", "log_pages", "recovery_pages_read", "recovery_mapping_pages_read"];

/// The columns a sweep's CSV and table add to the base ones.
#[derive(Clone, Copy, Default)]
pub(crate) struct Extra {
    /// `--recovery`: the recovery columns.
    pub(crate) rec: bool,
    /// Some row ran the open timing model: the per-kind response, wait and service tails.
    pub(crate) open: bool,
    /// Some row ran on a device of several dies (`ftl sweep --channels ...`): its shape and
    /// host response times (`DEVICE_CSV`).
    pub(crate) device: bool,
}

/// The device columns (docs/cli.md, `ftl sweep`): the shape, then the `device` object's
/// host response times, makespan, the busiest die's utilisation and the erases of all dies.
pub(crate) const DEVICE_CSV: &[(&str, &str)] = &[
    ("channels", "channels"),
    ("dies_per_channel", "dies_per_channel"),
    ("dies", "dies"),
    ("stripe", "stripe"),
    ("device_read_mean_us", "read.mean_us"),
    ("device_read_p99_us", "read.p99_us"),
    ("device_write_mean_us", "write.mean_us"),
    ("device_write_p99_us", "write.p99_us"),
    ("device_read_delayed_by_gc_share", "read.delayed_by_gc_share"),
    ("device_makespan_us", "makespan_us"),
];

/// The device cells of a row (empty for a one-die row).
fn device_cells(v: &serde_json::Value) -> Vec<serde_json::Value> {
    use serde_json::Value;
    let d = &v["device"];
    let mut out: Vec<Value> = DEVICE_CSV.iter().map(|(_, p)| p.split('.').fold(d, |x, k| &x[k]).clone()).collect();
    let per = d["per_die"].as_array();
    let util = per.and_then(|p| p.iter().filter_map(|x| x["utilisation"].as_f64()).reduce(f64::max));
    out.push(util.map(|u| Value::String(format!("{u:.4}"))).unwrap_or(Value::Null));
    out.push(per.map(|p| p.iter().filter_map(|x| x["erases"].as_u64()).sum::<u64>().into()).unwrap_or(Value::Null));
    out
}

impl Extra {
    /// The columns the rows (as JSON) need.
    pub(crate) fn of<'a>(rows: impl IntoIterator<Item = &'a serde_json::Value>) -> Extra {
        rows.into_iter().fold(Extra::default(), |e, v| Extra {
            rec: e.rec || !v["recovery"].is_null(),
            open: e.open || v["timing"]["model"] == "open",
            device: e.device || !v["device"].is_null(),
        })
    }
}

/// The open model's columns: `{read,write}_{response,wait,service}_{p50,p99,p99_9}_us`.
fn open_columns() -> Vec<(String, String)> {
    let mut out = Vec::new();
    for kind in ["read", "write"] {
        for what in ["response", "wait", "service"] {
            for (p, field) in [("p50", "p50"), ("p99", "p99"), ("p99_9", "p999")] {
                out.push((format!("{kind}_{what}_{p}_us"), format!("timing.{kind}.{what}_us.{field}")));
            }
        }
    }
    out
}

/// A generated workload as `--gen` takes it (`uniform:n=3000,read_ratio=0,seed=1`, every
/// field resolved), `trace` for a trace file, `pattern:TEXT` for a pattern.
pub(crate) fn workload_spec(w: &serde_json::Value) -> serde_json::Value {
    let Some(o) = w.as_object() else { return serde_json::Value::Null };
    let kind = o.get("kind").and_then(|k| k.as_str()).unwrap_or("");
    match kind {
        "trace" => "trace".into(),
        "pattern" => format!("pattern:{}", o.get("text").and_then(|t| t.as_str()).unwrap_or("")).into(),
        _ => {
            let kv: Vec<String> = o.iter().filter(|(k, _)| *k != "kind").map(|(k, v)| format!("{k}={v}")).collect();
            format!("{kind}:{}", kv.join(",")).into()
        }
    }
}

/// One CSV line of a row given as its JSON (`Row::to_json` plus `row`).
pub(crate) fn csv_line(v: &serde_json::Value, extra: Extra) -> String {
    use serde_json::Value;
    let cell = |x: &Value| -> String {
        match x {
            Value::Null => String::new(),
            Value::String(s) if s.contains([',', '"', '\n']) => format!("\"{}\"", s.replace('"', "\"\"")),
            Value::String(s) => s.clone(),
            Value::Number(n) => n.to_string(),
            other => other.to_string(),
        }
    };
    let st = &v["setup"];
    let m = |p: &str| p.split('.').fold(v, |x, k| &x[k]).clone();
    let f = |x: Value, d: usize| x.as_f64().map(|n| Value::String(format!("{n:.d$}"))).unwrap_or(Value::Null);
    let mut cells: Vec<Value> = vec![
        v["row"].clone(),
        v["scheme"].clone(),
        st["chip"]["preset"].clone(),
        st["chip"]["blocks"].clone(),
        st["chip"]["pages_per_block"].clone(),
        st["chip"]["page_bytes"].clone(),
    ];
    for key in ftl_sim::ftl::SchemeParams::KEYS {
        cells.push(st["params"][key].clone());
    }
    cells.extend([
        st["trace"]["name"].clone(),
        st["trace"]["bytes"].clone(),
        st["trace"]["sha256"].clone(),
        if st["trace"].is_null() { Value::Null } else { st["fit"].clone() },
        if st["precondition"].is_null() {
            Value::String("none".into())
        } else {
            Value::String(st["precondition"].to_string())
        },
        workload_spec(&st["workload"]),
        st["chip"]["timing_us"]["read"].clone(),
        st["chip"]["timing_us"]["read_oob"].clone(),
        st["chip"]["timing_us"]["program"].clone(),
        st["chip"]["timing_us"]["erase"].clone(),
        m("timing.model"),
        match m("timing.arrivals") {
            Value::String(a) if a.is_empty() => Value::Null,
            a => a,
        },
        if v["timing"]["model"] == "open" { m("timing.time_scale") } else { Value::Null },
        m("timing.rate_per_s"),
        st["logical_pages"].clone(),
        st["workload_space"].clone(),
        st["requests"].clone(),
        st["request_hash"].clone(),
        m("host_writes"),
        m("erases"),
        f(m("write_amplification"), 4),
        m("merges.switch"),
        m("merges.partial"),
        m("merges.full"),
        m("merges.full_victims"),
        m("page_reads"),
        m("page_programs"),
        m("elapsed_us").as_f64().map(|u| Value::String(format!("{:.6}", u / 1e6))).unwrap_or(Value::Null),
        f(m("latency_us.write.mean"), 3),
        f(m("latency_tail_us.write.p99"), 3),
        f(m("latency_tail_us.write.p99_9"), 3),
        f(m("latency_us.write.worst"), 3),
        f(m("latency_us.read.mean"), 3),
        f(m("latency_tail_us.read.p99"), 3),
        f(m("latency_tail_us.read.p99_9"), 3),
        f(m("log_utilisation"), 4),
        m("wrong_reads"),
        v["error"].clone(),
    ]);
    if extra.rec {
        let r = &v["recovery"];
        cells.extend([
            r["map_pages"].clone(),
            r["log_pages"].clone(),
            r["pages_read"].clone(),
            r["mapping_pages_read"].clone(),
        ]);
    }
    if extra.open {
        // The figures as `ftl run --json` has them (empty for a closed-model row).
        let open = v["timing"]["model"] == "open";
        cells.extend(open_columns().iter().map(|(_, path)| if open { m(path) } else { Value::Null }));
    }
    if extra.device {
        cells.extend(device_cells(v));
    }
    cells.iter().map(cell).collect::<Vec<_>>().join(",")
}

/// The CSV header line.
pub(crate) fn csv_header(extra: Extra) -> String {
    let at = SWEEP_CSV.iter().position(|&c| c == "page_bytes").unwrap() + 1;
    let (setup, figures) = SWEEP_CSV.split_at(at);
    let mut h = [setup, &ftl_sim::ftl::SchemeParams::KEYS, figures].concat().join(",");
    if extra.rec {
        h.push(',');
        h.push_str(&RECOVERY_CSV.join(","));
    }
    if extra.open {
        for (c, _) in open_columns() {
            h.push(',');
            h.push_str(&c);
        }
    }
    if extra.device {
        for c in DEVICE_CSV.iter().map(|(c, _)| *c).chain(["device_max_utilisation", "device_erases"]) {
            h.push(',');
            h.push_str(c);
        }
    }
    h
}

/// The sweep as a table in words: the configuration, its space and request-list hash,
/// then the figures (p99 and p99.9 of the write latency among them).
pub(crate) fn print_table(rows: &[serde_json::Value], extra: Extra) {
    print_table_header(extra);
    for v in rows {
        print_table_row(v, extra);
    }
}

pub(crate) fn print_table_header(extra: Extra) {
    let with_rec = extra.rec;
    println!(
        "{:>4} {:48} {:>13} {:>9} {:>9} {:>16} {:>10} {:>7} {:>8} {:>8} {:>8} {:>11} {:>10} {:>10} {:>8}{}{}{}",
        "row",
        "configuration",
        "chip",
        "logical",
        "space",
        "request hash",
        "erases",
        "WA",
        "switch",
        "partial",
        "full",
        "elapsed (s)",
        "w p99 us",
        "w p99.9 us",
        "log util",
        if with_rec { "  map pages  log pages  rec. read  rec. mapping" } else { "" },
        if extra.open {
            format!(" {:>22} {:>26} {:>26}", "timing", "read resp. ms p50/p99/p99.9", "write resp. ms p50/p99/p99.9")
        } else {
            String::new()
        },
        if extra.device { format!(" {:>28}", "device: dies, r/w p99 us") } else { String::new() }
    );
}

/// The timing cells of a table row: the model, and with the open model the response
/// time's p50 / p99 / p99.9 of reads and of writes, in ms.
fn timing_cells(v: &serde_json::Value, extra: Extra) -> String {
    let t = &v["timing"];
    let model = match (t["model"].as_str(), t["arrivals"].as_str()) {
        (Some("open"), Some("trace")) => format!("open trace x{}", t["time_scale"]),
        (Some("open"), Some(a)) => format!("open {a} {}/s", t["rate_per_s"]),
        (Some(m), _) => m.to_string(),
        _ => "-".into(),
    };
    if !extra.open {
        return String::new();
    }
    let ms = |k: &str| {
        let r = &t[k]["response_us"];
        if t["model"] != "open" || t[k]["requests"] == 0 {
            return "-".to_string();
        }
        let f = |p: &str| r[p].as_f64().map(|x| format!("{:.3}", x / 1000.0)).unwrap_or_else(|| "-".into());
        format!("{}/{}/{}", f("p50"), f("p99"), f("p999"))
    };
    format!(" {model:>22} {:>26} {:>26}", ms("read"), ms("write"))
}

/// One row of `print_table`.
pub(crate) fn print_table_row(v: &serde_json::Value, extra: Extra) {
    let with_rec = extra.rec;
    let st = &v["setup"];
    let mut conf = v["scheme"].as_str().unwrap_or("").to_string();
    // Every parameter as run, defaults resolved on the chip (issue 38, item 2: "bast"
    // alone hid its 4 log blocks); the given ones when the row has none resolved.
    let resolved = st["params"].as_object().filter(|o| !o.is_empty());
    if let Some(o) = resolved.or(st["params_given"].as_object()) {
        for (k, x) in o {
            conf.push_str(&format!(" {k}={x}"));
        }
    }
    let chip = format!("{}x{}", st["chip"]["blocks"], st["chip"]["pages_per_block"]);
    let n = |x: &serde_json::Value| x.as_u64().map(|n| n.to_string()).unwrap_or_else(|| "-".into());
    if !v["error"].is_null() {
        println!(
            "{:>4} {:48} {:>13} {:>9} {:>9} cannot run: {}",
            n(&v["row"]),
            conf,
            chip,
            n(&st["logical_pages"]),
            n(&st["workload_space"]),
            v["error"].as_str().unwrap_or("")
        );
        return;
    }
    let f = |x: &serde_json::Value| x.as_f64().unwrap_or(0.0);
    let rc = if with_rec {
        let r = &v["recovery"];
        format!(
            " {:>10} {:>10} {:>10} {:>13}",
            n(&r["map_pages"]),
            n(&r["log_pages"]),
            n(&r["pages_read"]),
            n(&r["mapping_pages_read"])
        )
    } else {
        String::new()
    };
    println!(
        "{:>4} {:48} {:>13} {:>9} {:>9} {:>16} {:>10} {:>7.3} {:>8} {:>8} {:>8} {:>11.3} {:>10.1} {:>10.1} {:>8}{}{}{}",
        n(&v["row"]),
        conf,
        chip,
        n(&st["logical_pages"]),
        n(&st["workload_space"]),
        st["request_hash"].as_str().unwrap_or("-"),
        n(&v["erases"]),
        f(&v["write_amplification"]),
        n(&v["merges"]["switch"]),
        n(&v["merges"]["partial"]),
        n(&v["merges"]["full"]),
        f(&v["elapsed_us"]) / 1e6,
        f(&v["latency_tail_us"]["write"]["p99"]),
        f(&v["latency_tail_us"]["write"]["p99_9"]),
        v["log_utilisation"].as_f64().map(|u| format!("{:.1}%", u * 100.0)).unwrap_or_else(|| "-".into()),
        rc,
        timing_cells(v, extra),
        if extra.device { device_table_cell(v) } else { String::new() }
    );
}

/// A table row's device cell: dies (channels x dies per channel, stripe) and the host
/// read / write p99 on the device.
fn device_table_cell(v: &serde_json::Value) -> String {
    let d = &v["device"];
    if d.is_null() {
        return format!(" {:>28}", "1 die");
    }
    let f = |x: &serde_json::Value| x.as_f64().map(|u| format!("{u:.1}")).unwrap_or_else(|| "-".into());
    let shape =
        format!("{} ({}x{} {})", d["dies"], d["channels"], d["dies_per_channel"], d["stripe"].as_str().unwrap_or(""));
    format!(" {shape:>16} {}/{}", f(&d["read"]["p99_us"]), f(&d["write"]["p99_us"]))
}
