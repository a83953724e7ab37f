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
    /// Ran the open timing model (the sweep's open-model columns).
    open: bool,
    /// A row on a device of several dies (its device columns).
    device: bool,
    /// The input it came from (for messages).
    file: std::rc::Rc<str>,
    /// The sweep's fingerprint (`sweep.fingerprint`); None for a plain `ftl run --json`.
    sweep: Option<String>,
    /// The trace's path and SHA-256.
    trace: Option<(String, String)>,
}

/// Reads JSON lines from `r` into `out`, streamed: a line at most MAX_MERGE_LINE bytes,
/// all input at most MAX_MERGE_BYTES (`*total`), and a line that does not start as a JSON
/// object is refused at its first byte (a 2 GiB sparse file once aborted, asking for
/// 4 GiB; issue 34).
fn read_lines(
    r: impl std::io::Read,
    name: &str,
    total: &mut u64,
    out: &mut Vec<Line>,
    specs: &mut Vec<(String, Value)>,
) -> Result<(), String> {
    let file: std::rc::Rc<str> = name.into();
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
        let sweep = v["sweep"]["fingerprint"].as_str().map(String::from);
        if let Some(fp) = &sweep {
            // One plan kept per sweep (to name what two sweeps differ in).
            if !specs.iter().any(|(f, _)| f == fp) {
                specs.push((fp.clone(), v["sweep"]["spec"].clone()));
            }
        }
        let t = &v["setup"]["trace"];
        let trace = match (t["path"].as_str(), t["sha256"].as_str()) {
            (Some(p), Some(h)) => Some((p.to_string(), h.to_string())),
            _ => None,
        };
        out.push(Line {
            file: file.clone(),
            sweep,
            trace,
            row: v["row"].as_u64(),
            rows: v["rows"].as_u64(),
            error: !v["error"].is_null(),
            recovery: !v["recovery"].is_null(),
            open: v["timing"]["model"] == "open",
            device: !v["device"].is_null(),
            text,
        });
    }
}

pub(crate) fn execute(args: MergeArgs) -> ExitCode {
    let mut rows: Vec<Line> = Vec::new();
    let mut specs: Vec<(String, Value)> = Vec::new();
    let mut total = 0u64;
    if args.files.is_empty() {
        if let Err(e) = read_lines(std::io::stdin().lock(), "standard input", &mut total, &mut rows, &mut specs) {
            return fail(e);
        }
    }
    for f in &args.files {
        let name = f.display().to_string();
        let r = std::fs::File::open(f)
            .map_err(|e| format!("cannot read {name}: {e}"))
            .and_then(|file| read_lines(file, &name, &mut total, &mut rows, &mut specs));
        if let Err(e) = r {
            return fail(e);
        }
    }
    // Rows of different sweeps, or of one trace path with different contents, are
    // refused before anything is printed (issue 38, item 4).
    if let Err(e) = one_sweep(&rows, &specs).and_then(|_| one_trace_per_path(&rows)) {
        return fail(e);
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
    let extra = crate::output::Extra {
        rec: rows.iter().any(|v| v.recovery),
        open: rows.iter().any(|v| v.open),
        device: rows.iter().any(|v| v.device),
    };
    let value = |l: &Line| serde_json::from_str::<Value>(&l.text).expect("parsed when read");
    if args.csv {
        println!("{}", csv_header(extra));
        for v in &rows {
            println!("{}", csv_line(&value(v), extra));
        }
    } else if args.table {
        print_table_header(extra);
        for v in &rows {
            print_table_row(&value(v), extra);
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

/// A plan's value for a message: JSON, or "not given".
fn shown(v: Option<&Value>) -> String {
    v.map(|v| v.to_string()).unwrap_or_else(|| "not given".into())
}

/// What two sweep plans differ in: "log_blocks [4,8] vs [4,16], gen ... vs ...".
fn difference(a: &Value, b: &Value) -> String {
    let (Some(a), Some(b)) = (a.as_object(), b.as_object()) else {
        return "their plans (one is missing)".into();
    };
    let keys: std::collections::BTreeSet<&String> = a.keys().chain(b.keys()).collect();
    let d: Vec<String> = keys
        .into_iter()
        .filter(|k| a.get(*k) != b.get(*k))
        .map(|k| format!("{k} {} vs {}", shown(a.get(k)), shown(b.get(k))))
        .collect();
    if d.is_empty() {
        "nothing in their plans (the fingerprints were edited?)".into()
    } else {
        d.join(", ")
    }
}

/// Every row of one sweep (one fingerprint), or none of any (plain `ftl run` outputs).
fn one_sweep(rows: &[Line], specs: &[(String, Value)]) -> Result<(), String> {
    let Some(first) = rows.first() else { return Ok(()) };
    let Some(other) = rows.iter().find(|l| l.sweep != first.sweep) else { return Ok(()) };
    let name = |l: &Line| match &l.sweep {
        Some(fp) => format!("sweep {fp} (row {} of {})", shown(l.row.map(Value::from).as_ref()), l.file),
        None => format!("a run of no sweep (row {} of {})", shown(l.row.map(Value::from).as_ref()), l.file),
    };
    let spec = |l: &Line| {
        l.sweep.as_ref().and_then(|fp| specs.iter().find(|(f, _)| f == fp)).map(|(_, s)| s.clone()).unwrap_or_default()
    };
    Err(format!(
        "rows of different sweeps: {} and {} differ in {}; merge the rows of one sweep",
        name(first),
        name(other),
        difference(&spec(first), &spec(other))
    ))
}

/// One content per trace path: a trace file changed between shards is refused.
fn one_trace_per_path(rows: &[Line]) -> Result<(), String> {
    let mut seen: std::collections::BTreeMap<&str, &Line> = Default::default();
    for l in rows {
        let Some((path, sha)) = &l.trace else { continue };
        match seen.get(path.as_str()) {
            Some(first) if first.trace.as_ref().map(|t| &t.1) != Some(sha) => {
                let other = &first.trace.as_ref().expect("has a trace").1;
                return Err(format!(
                    "trace {path} differs between rows: sha256 {} in {}, {} in {}; merge rows run on one trace",
                    &other[..other.len().min(12)],
                    first.file,
                    &sha[..sha.len().min(12)],
                    l.file
                ));
            }
            Some(_) => {}
            None => {
                seen.insert(path, l);
            }
        }
    }
    Ok(())
}
