//! `ftl merge`: gathers the JSON lines of a sharded sweep (`ftl sweep --shard I/N
//! --json`, or `ftl run --json` outputs of `--list-jobs` lines) into one sweep, in row
//! order: JSON lines again, CSV or the table. Rows missing or given twice are named and
//! make the exit code 4, as rows that could not run do.

use std::io::Read;
use std::process::ExitCode;

use clap::Args;
use serde_json::Value;

use crate::output::{csv_header, csv_line, fail, print_json, print_table, EXIT_ROWS_FAILED};

#[derive(Args)]
pub(crate) struct MergeArgs {
    /// Files of JSON lines (default: standard input).
    pub(crate) files: Vec<std::path::PathBuf>,
    /// Print CSV (the columns of `ftl sweep --csv`).
    #[arg(long, conflicts_with = "table")]
    pub(crate) csv: bool,
    /// Print the table in words (as `ftl sweep`).
    #[arg(long)]
    pub(crate) table: bool,
}

pub(crate) fn execute(args: MergeArgs) -> ExitCode {
    let mut text = String::new();
    if args.files.is_empty() {
        if let Err(e) = std::io::stdin().read_to_string(&mut text) {
            return fail(format!("cannot read standard input: {e}"));
        }
    }
    for f in &args.files {
        match std::fs::read_to_string(f) {
            Ok(t) => {
                text.push_str(&t);
                text.push('\n');
            }
            Err(e) => return fail(format!("cannot read {}: {e}", f.display())),
        }
    }
    let mut rows: Vec<Value> = Vec::new();
    for (i, line) in text.lines().enumerate().filter(|(_, l)| !l.trim().is_empty()) {
        match serde_json::from_str::<Value>(line) {
            Ok(v) if v.is_object() => rows.push(v),
            _ => return fail(format!("line {}: not a JSON object (expected the lines of `ftl sweep --json`)", i + 1)),
        }
    }
    // `ftl run --json` outputs carry no row index: they keep the order given.
    let indexed = rows.iter().all(|v| v["row"].is_u64());
    if indexed {
        rows.sort_by_key(|v| v["row"].as_u64());
    }
    let mut problems = Vec::new();
    if indexed {
        let total = rows.iter().filter_map(|v| v["rows"].as_u64()).max().unwrap_or(rows.len() as u64);
        let mut seen = vec![0u32; total as usize];
        for v in &rows {
            let i = v["row"].as_u64().unwrap_or(0) as usize;
            if i < seen.len() {
                seen[i] += 1;
            }
        }
        let missing: Vec<usize> = seen.iter().enumerate().filter(|(_, &c)| c == 0).map(|(i, _)| i).collect();
        let twice: Vec<usize> = seen.iter().enumerate().filter(|(_, &c)| c > 1).map(|(i, _)| i).collect();
        if !missing.is_empty() {
            problems.push(format!("rows missing: {missing:?}"));
        }
        if !twice.is_empty() {
            problems.push(format!("rows given more than once: {twice:?}"));
        }
    }
    let failed = rows.iter().filter(|v| !v["error"].is_null()).count();
    if failed > 0 {
        problems.push(format!("{failed} of {} rows could not run", rows.len()));
    }
    let with_rec = rows.iter().any(|v| !v["recovery"].is_null());
    if args.csv {
        println!("{}", csv_header(with_rec));
        for v in &rows {
            println!("{}", csv_line(v, with_rec));
        }
    } else if args.table {
        print_table(&rows, with_rec);
    } else {
        for v in &rows {
            print_json(v);
        }
    }
    eprintln!("merge: {} rows", rows.len());
    if problems.is_empty() {
        return ExitCode::SUCCESS;
    }
    for p in &problems {
        eprintln!("error: {p}");
    }
    ExitCode::from(EXIT_ROWS_FAILED)
}
