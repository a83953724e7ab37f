//! `ftl merge`: gathers the JSON lines of a sharded sweep (`ftl sweep --shard I/N
//! --json`, or `ftl run --json` outputs of `--list-jobs` lines) into one sweep, in row
//! order: JSON lines again, CSV or the table. Rows missing or given twice are named and
//! make the exit code 4, as rows that could not run do.

use std::process::ExitCode;

use clap::Args;
use serde_json::Value;

use crate::output::{csv_header, csv_line, fail, print_json, print_table_header, print_table_row, EXIT_ROWS_FAILED};

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

/// One input row: its line, and what ordering and checking need (the row is parsed
/// again, one at a time, when printed: the input is held as text, not as JSON values).
struct Line {
    text: String,
    row: Option<u64>,
    rows: Option<u64>,
    error: bool,
    recovery: bool,
}

/// Reads JSON lines from `r` into `out`, streamed: a line at most MAX_MERGE_LINE bytes,
/// all input at most MAX_MERGE_BYTES (`*total`), and a line that does not start as a JSON
/// object is refused at its first byte (a 2 GiB sparse file once aborted, asking for
/// 4 GiB; issue 34).
fn read_lines(r: impl std::io::Read, name: &str, total: &mut u64, out: &mut Vec<Line>) -> Result<(), String> {
    use ftl_sim::limits::{MAX_MERGE_BYTES, MAX_MERGE_LINE};
    use std::io::BufRead;
    let mut r = std::io::BufReader::with_capacity(1 << 20, r);
    let mut buf = Vec::new();
    let mut n = 0u64;
    loop {
        n += 1;
        buf.clear();
        let mut started = false;
        loop {
            let chunk = r.fill_buf().map_err(|e| format!("cannot read {name}: {e}"))?;
            if chunk.is_empty() {
                break;
            }
            let (take, end) = match chunk.iter().position(|&b| b == b'\n') {
                Some(i) => (i + 1, true),
                None => (chunk.len(), false),
            };
            if !started {
                if let Some(&b) = chunk[..take].iter().find(|b| !b.is_ascii_whitespace()) {
                    if b != b'{' {
                        return Err(format!(
                            "{name}, line {n}: not a JSON object (expected the lines of `ftl sweep --json`)"
                        ));
                    }
                    started = true;
                }
            }
            if started {
                buf.extend_from_slice(&chunk[..take]);
            }
            r.consume(take);
            *total += take as u64;
            if buf.len() as u64 > MAX_MERGE_LINE {
                return Err(format!("{name}, line {n}: longer than {} MB: not a sweep row", MAX_MERGE_LINE >> 20));
            }
            if *total > MAX_MERGE_BYTES {
                return Err(format!(
                    "more than {} MB of rows to merge: merge fewer shards at a time",
                    MAX_MERGE_BYTES >> 20
                ));
            }
            if end {
                break;
            }
        }
        if buf.is_empty() {
            if r.fill_buf().map_err(|e| format!("cannot read {name}: {e}"))?.is_empty() {
                return Ok(());
            }
            continue;
        }
        let text = String::from_utf8(std::mem::take(&mut buf))
            .map_err(|_| format!("{name}, line {n}: not UTF-8 text"))?
            .trim_end()
            .to_string();
        let v = match serde_json::from_str::<Value>(&text) {
            Ok(v) if v.is_object() => v,
            _ => return Err(format!("{name}, line {n}: not a JSON object (expected the lines of `ftl sweep --json`)")),
        };
        out.push(Line {
            row: v["row"].as_u64(),
            rows: v["rows"].as_u64(),
            error: !v["error"].is_null(),
            recovery: !v["recovery"].is_null(),
            text,
        });
    }
}

pub(crate) fn execute(args: MergeArgs) -> ExitCode {
    let mut rows: Vec<Line> = Vec::new();
    let mut total = 0u64;
    if args.files.is_empty() {
        if let Err(e) = read_lines(std::io::stdin().lock(), "standard input", &mut total, &mut rows) {
            return fail(e);
        }
    }
    for f in &args.files {
        let name = f.display().to_string();
        let r = std::fs::File::open(f)
            .map_err(|e| format!("cannot read {name}: {e}"))
            .and_then(|file| read_lines(file, &name, &mut total, &mut rows));
        if let Err(e) = r {
            return fail(e);
        }
    }
    // `ftl run --json` outputs carry no row index: they keep the order given.
    let indexed = rows.iter().all(|v| v.row.is_some());
    if indexed {
        rows.sort_by_key(|v| v.row);
    }
    let mut problems = Vec::new();
    if indexed {
        // Rows counted without a table as large as `rows` says (a row could claim 2^64).
        let total = rows.iter().filter_map(|v| v.rows).max().unwrap_or(rows.len() as u64);
        let mut missing = Vec::new();
        let mut missing_n = 0u64;
        let mut twice = Vec::new();
        let mut expect = 0u64;
        for (i, v) in rows.iter().enumerate() {
            let r = v.row.unwrap_or(0);
            if i > 0 && rows[i - 1].row == Some(r) {
                if twice.last() != Some(&r) {
                    twice.push(r);
                }
                continue;
            }
            let upto = r.min(total);
            if upto > expect {
                missing_n += upto - expect;
                missing.extend((expect..upto).take(20usize.saturating_sub(missing.len())));
            }
            expect = expect.max(r + 1);
        }
        if total > expect {
            missing_n += total - expect;
            missing.extend((expect..total).take(20usize.saturating_sub(missing.len())));
        }
        if missing_n > 0 {
            let more = if missing_n > missing.len() as u64 { format!(" ({missing_n} in all)") } else { String::new() };
            problems.push(format!("rows missing: {missing:?}{more}"));
        }
        if !twice.is_empty() {
            problems.push(format!("rows given more than once: {twice:?}"));
        }
    }
    let failed = rows.iter().filter(|v| v.error).count();
    if failed > 0 {
        problems.push(format!("{failed} of {} rows could not run", rows.len()));
    }
    let with_rec = rows.iter().any(|v| v.recovery);
    let value = |l: &Line| serde_json::from_str::<Value>(&l.text).expect("parsed when read");
    if args.csv {
        println!("{}", csv_header(with_rec));
        for v in &rows {
            println!("{}", csv_line(&value(v), with_rec));
        }
    } else if args.table {
        print_table_header(with_rec);
        for v in &rows {
            print_table_row(&value(v), with_rec);
        }
    } else {
        for v in &rows {
            print_json(&value(v));
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
