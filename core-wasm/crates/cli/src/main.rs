//! `ftl`: the native command line over the same simulator the app runs as wasm.
//! See docs/cli.md for the commands, the stable JSON field names and the exit codes.
//! One module per subcommand (commands/), the shared scenario flags (setup.rs), and
//! what is printed beside JSON (output.rs).

use std::process::ExitCode;

use clap::{Parser, Subcommand};

mod commands;
mod device;
mod output;
mod setup;
mod timing;

use commands::{bench, crash_sweep, export, list, merge, ram, run, sweep, trace};

#[derive(Parser)]
#[command(name = "ftl", version, about = "Simulate NAND flash translation layers (ftlscope)")]
struct Cli {
    #[command(subcommand)]
    cmd: Cmd,
}

#[derive(Subcommand)]
enum Cmd {
    /// Run one scheme on one workload and print its metrics.
    Run(run::RunArgs),
    /// Run every combination of schemes, chips, traces and parameter lists (FAST paper
    /// Figure 10): each row as `ftl run` of its configuration, in a table, CSV or JSON
    /// lines; `--shard I/N` and `--list-jobs` scale it out.
    Sweep(sweep::SweepArgs),
    /// Gather the JSON lines of a sharded sweep into one, in row order (JSON lines, CSV or
    /// the table).
    Merge(merge::MergeArgs),
    /// Cut power at chosen flash-operation boundaries, recover from the chip alone,
    /// verify against the reference model.
    CrashSweep(crash_sweep::CrashArgs),
    /// Time full-speed runs of one scenario (JSON, as the app's Session takes it), or with
    /// --player its runs on the player's path.
    Bench(bench::BenchArgs),
    /// List the schemes, chip presets, generators and trace formats.
    List,
    /// Parse a trace (--trace FILE) and print its summary as JSON: format, requests,
    /// read/write mix, footprint, the fit applied (docs/traces.md).
    Trace(trace::TraceArgs),
    /// Write a workload (--gen, --pattern or --trace) as a trace file on stdout, in the
    /// logical space of --scheme on --chip; addresses use the chip's page size.
    Export(export::ExportArgs),
    /// Mapping RAM of FAST and KRAFT by the KRAFT paper's bit widths: with the RAM FAST
    /// needs for its log blocks, how many log blocks can KRAFT afford?
    Ram(ram::RamArgs),
}

/// A closed pipe (`ftl list | head -1`) ends the process quietly, as it does `cat`:
/// Rust ignores SIGPIPE, so without this every `println!` after the reader left would
/// panic ("failed printing to stdout: Broken pipe").
#[cfg(unix)]
fn quiet_on_closed_pipe() {
    extern "C" {
        fn signal(signum: i32, handler: usize) -> usize;
    }
    const SIGPIPE: i32 = 13; // the same on Linux and macOS
    const SIG_DFL: usize = 0;
    // SAFETY: restores the default disposition of one signal before any thread starts.
    unsafe {
        signal(SIGPIPE, SIG_DFL);
    }
}

fn main() -> ExitCode {
    #[cfg(unix)]
    quiet_on_closed_pipe();
    match Cli::parse().cmd {
        Cmd::Run(a) => run::execute(a),
        Cmd::Sweep(a) => sweep::execute(a),
        Cmd::Merge(a) => merge::execute(a),
        Cmd::CrashSweep(a) => crash_sweep::execute(a),
        Cmd::Bench(a) => bench::execute(a),
        Cmd::List => list::execute(),
        Cmd::Trace(a) => trace::execute(a),
        Cmd::Export(a) => export::execute(a),
        Cmd::Ram(a) => ram::execute(a),
    }
}
