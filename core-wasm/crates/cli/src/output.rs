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
    println!(
        "crash chain of {} (seed {}): {} cuts over {} requests",
        r.scheme,
        r.seed,
        r.cuts,
        r.requests_run + r.cuts
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
    failures(&r.first_failures);
    if let Some(s) = &r.stopped {
        println!("  STOPPED: {s}");
    }
}
