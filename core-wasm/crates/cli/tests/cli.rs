//! The `ftl` binary as a user runs it: the JSON fields docs/cli.md promises as stable,
//! and the exit codes (0 success, 2 bad arguments or input, 3 a failed check).

use std::path::PathBuf;
use std::process::{Command, Output};

use serde_json::Value;

fn ftl(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_ftl")).args(args).current_dir(repo()).output().expect("the ftl binary runs")
}

/// The repository root (traces/ and docs/traces/ hold the sample traces).
fn repo() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../..")
}

fn code(o: &Output) -> i32 {
    o.status.code().expect("exited normally")
}

fn stdout(o: &Output) -> String {
    String::from_utf8(o.stdout.clone()).expect("UTF-8 output")
}

fn stderr(o: &Output) -> String {
    String::from_utf8(o.stderr.clone()).expect("UTF-8 output")
}

/// Runs and parses the one JSON object on stdout, asserting exit code 0.
fn json(args: &[&str]) -> Value {
    let o = ftl(args);
    assert_eq!(code(&o), 0, "ftl {args:?}: {}", stderr(&o));
    serde_json::from_str(stdout(&o).trim()).expect("one JSON object")
}

fn has(v: &Value, path: &str) -> bool {
    path.split('.').try_fold(v, |v, k| v.get(k)).is_some()
}

fn assert_fields(v: &Value, fields: &[&str], what: &str) {
    let missing: Vec<&&str> = fields.iter().filter(|f| !has(v, f)).collect();
    assert!(missing.is_empty(), "{what}: fields {missing:?} missing in {v}");
}

#[test]
fn run_json_has_the_stable_fields() {
    let v = json(&["run", "--scheme", "fast", "--log-blocks", "4", "--gen", "uniform:n=3000,seed=1", "--json"]);
    assert_fields(
        &v,
        &[
            "scheme",
            "chip",
            "requests",
            "host_reads",
            "host_writes",
            "page_reads",
            "oob_reads",
            "page_programs",
            "erases",
            "write_amplification",
            "elapsed_us",
            "erase_count.min",
            "erase_count.max",
            "erase_count.mean",
            "merges.switch",
            "merges.partial",
            "merges.full",
            "merges.full_victims",
            "gc_runs",
            "log_utilisation",
            "ram_bytes",
            "wrong_reads",
            "by_cause.host",
        ],
        "run --json",
    );
    for op in ["read", "write"] {
        for f in ["count", "best", "mean", "p99", "worst"] {
            assert!(has(&v, &format!("latency_us.{op}.{f}")), "latency_us.{op}.{f} in {v}");
        }
    }
    assert_eq!(v["scheme"], "fast");
    assert_eq!(v["chip"], "classroom");
    assert_eq!(v["requests"], 3000);
    assert_eq!(v["wrong_reads"], 0);
}

#[test]
fn run_reads_a_trace_file_and_says_what_it_read_on_stderr() {
    let o = ftl(&["run", "--scheme", "page", "--trace", "traces/postmark.spc", "--fit", "fold", "--json"]);
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    assert!(stderr(&o).starts_with("trace: umass (detected)"), "{}", stderr(&o));
    let v: Value = serde_json::from_str(stdout(&o).trim()).unwrap();
    assert_eq!(v["wrong_reads"], 0);
}

#[test]
fn run_human_output_names_scheme_and_chip() {
    let o = ftl(&["run", "--scheme", "page", "--gen", "sequential:n=100"]);
    assert_eq!(code(&o), 0);
    let out = stdout(&o);
    assert!(out.starts_with("scheme page on chip classroom\n"), "{out}");
    assert!(out.contains("  wrong reads        0\n"), "{out}");
}

#[test]
fn sweep_csv_has_the_documented_columns_and_one_row_per_configuration() {
    let o = ftl(&["sweep", "--schemes", "bast,fast", "--log-blocks", "2,4", "--gen", "uniform:n=2000", "--csv"]);
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    let out = stdout(&o);
    let mut lines = out.lines();
    let header: Vec<&str> = lines.next().unwrap().split(',').collect();
    for col in [
        "scheme",
        "log_blocks",
        "blocks",
        "pages_per_block",
        "logical_pages",
        "workload_pages",
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
        "write_latency_worst_us",
        "log_utilisation",
        "wrong_reads",
        "error",
    ] {
        assert!(header.contains(&col), "column {col} in {header:?}");
    }
    let rows: Vec<&str> = lines.collect();
    assert_eq!(rows.len(), 4, "{out}");
    assert!(rows[0].starts_with("bast,2,") && rows[3].starts_with("fast,4,"), "{out}");
    // What every row shares goes to stderr: the same workload for every row.
    assert!(stderr(&o).contains("identical for every row"), "{}", stderr(&o));
}

#[test]
fn sweep_recovery_adds_the_recovery_columns() {
    let o = ftl(&[
        "sweep",
        "--schemes",
        "fast,fastcheck",
        "--log-blocks",
        "4",
        "--gen",
        "uniform:n=1500",
        "--csv",
        "--recovery",
    ]);
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    let header = stdout(&o).lines().next().unwrap().to_string();
    assert!(header.ends_with(",error,map_pages,log_pages,recovery_pages_read,recovery_mapping_pages_read"), "{header}");
}

#[test]
fn list_names_every_scheme_chip_generator_and_trace_format() {
    let o = ftl(&["list"]);
    assert_eq!(code(&o), 0);
    let out = stdout(&o);
    for section in ["schemes:\n", "chips: ", "generators (--gen KIND:key=value,...):\n", "trace formats ("] {
        assert!(out.contains(section), "{section} in {out}");
    }
    for (name, _) in ftl_sim::ftl::SCHEMES {
        assert!(out.contains(&format!("\n  {name:8} ")), "scheme {name} listed");
    }
    for (_, name, _) in ftl_sim::trace::parse::FORMATS {
        assert!(out.contains(&format!("\n  {name:10} ")), "format {name} listed");
    }
    for (name, _) in ftl_sim::trace::gen::GENERATORS {
        assert!(out.contains(&format!("\n  {name:10} ")), "generator {name} listed");
    }
}

#[test]
fn crash_sweep_json_has_the_stable_fields() {
    let v = json(&["crash-sweep", "--scheme", "bast", "--gen", "uniform:n=200", "--every", "40", "--json"]);
    assert_fields(
        &v,
        &[
            "scheme",
            "run_ops",
            "points_tried",
            "recovered_correctly",
            "acked_writes_lost",
            "wrong_reads",
            "torn_mapped",
            "errors",
            "recut_points",
            "first_failures",
        ],
        "crash-sweep --json",
    );
    for d in ["recovery_pages_read", "recovery_us"] {
        for f in ["min", "mean", "p99", "max"] {
            assert!(has(&v, &format!("{d}.{f}")), "{d}.{f} in {v}");
        }
    }
    assert_eq!(v["points_tried"], v["recovered_correctly"]);
}

#[test]
fn crash_sweep_report_in_words() {
    let o = ftl(&["crash-sweep", "--scheme", "page", "--gen", "uniform:n=200", "--every", "50"]);
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    let out = stdout(&o);
    assert!(out.starts_with("crash sweep of page over a run of "), "{out}");
    for label in [
        "  points tried          ",
        "  recovered correctly   ",
        "  acked writes lost     0\n",
        "  wrong data            0\n",
        "  torn pages mapped     0\n",
        "  other errors          0\n",
        "  recovery pages read   min ",
        "  recovery time (us)    min ",
    ] {
        assert!(out.contains(label), "{label:?} in {out}");
    }
}

#[test]
fn crash_chain_json_has_the_stable_fields() {
    let v = json(&[
        "crash-sweep",
        "--scheme",
        "fastcheck",
        "--chain",
        "10",
        "--seed",
        "1",
        "--blocks",
        "64",
        "--pages-per-block",
        "16",
        "--log-blocks",
        "8",
        "--json",
    ]);
    assert_fields(
        &v,
        &[
            "scheme",
            "seed",
            "cuts",
            "requests_run",
            "recovered_correctly",
            "acked_writes_lost",
            "wrong_reads",
            "torn_mapped",
            "frozen_damaged",
            "errors",
            "between",
            "mid_request",
            "mid_merge",
            "mid_checkpoint",
            "right_after_recovery",
            "took_effect",
            "recut_points",
            "recut_inside_recovery",
            "share_inside_recovery",
            "recovery_ops",
            "first_failures",
            "stopped",
        ],
        "crash-sweep --chain --json",
    );
    assert_eq!(v["cuts"], 10);
}

#[test]
fn trace_prints_the_summary_as_json() {
    let v = json(&["trace", "--trace", "traces/oltp.csv", "--scheme", "page", "--fit", "fold"]);
    assert_fields(
        &v,
        &[
            "format",
            "format_detected",
            "records",
            "requests",
            "reads",
            "writes",
            "footprint_pages",
            "fit",
            "fit_note",
            "warnings",
            "columns.op",
        ],
        "trace",
    );
    assert_eq!(v["format"], "csv");
    assert_eq!(v["fit"], "fold");
}

#[test]
fn export_writes_a_trace_the_parser_reads_back() {
    let o = ftl(&["export", "--gen", "sequential:n=8", "--to", "umass"]);
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    let raw = ftl_sim::trace::parse::parse_bytes(&o.stdout, Default::default()).expect("parses");
    assert_eq!(raw.format, Some(ftl_sim::trace::parse::Format::Umass));
    assert_eq!(raw.len(), 8);
}

#[test]
fn ram_json_has_the_stable_fields() {
    let v = json(&["ram", "--json"]);
    assert_fields(
        &v,
        &[
            "geometry.physical_blocks",
            "geometry.logical_blocks",
            "geometry.pages_per_block",
            "k",
            "pbn_bits",
            "lbn_bits",
            "lsn_bits",
            "ri_bits",
            "rlsn_bits",
            "block_map_bytes",
            "fast_log_bits_per_block",
            "kraft_log_bits_per_block",
            "fast_log_blocks",
            "fast_bytes",
            "kraft_bytes_same_log_blocks",
            "kraft_log_blocks",
            "kraft_bytes",
        ],
        "ram --json",
    );
}

#[test]
fn bad_usage_and_bad_input_exit_2_with_a_message() {
    let cases: &[(&[&str], &str)] = &[
        (&["run"], "--scheme"),
        (&["nonsense"], "unrecognized subcommand"),
        (&["run", "--scheme", "page"], "give a workload"),
        (
            &["run", "--scheme", "bast", "--utilisation", "0.5", "--gen", "sequential:n=10"],
            "does not read 'utilisation'",
        ),
        (&["run", "--scheme", "nope", "--gen", "sequential:n=10"], "unknown scheme 'nope'"),
        (&["run", "--scheme", "page", "--gen", "uniform:n=x"], "must be a number"),
        (&["run", "--scheme", "page", "--trace", "no/such/file"], "cannot read trace"),
        (&["sweep", "--schemes", "page", "--log-blocks", "4", "--gen", "uniform:n=10"], "reads 'log_blocks'"),
        (&["crash-sweep", "--scheme", "page", "--gen", "uniform:n=200"], "choose the cut points"),
        (&["crash-sweep", "--scheme", "page", "--chain", "5", "--gen", "uniform:n=10"], "makes its own workload"),
        (&["trace", "--scheme", "page"], "give the trace with --trace FILE"),
        (&["export", "--gen", "uniform:n=10", "--to", "nope"], "unknown trace format 'nope'"),
        (&["ram", "--k", "0"], "--k must be at least 1"),
        (&["bench", "--scenario", "{"], "invalid scenario"),
    ];
    for (args, message) in cases {
        let o = ftl(args);
        assert_eq!(code(&o), 2, "ftl {args:?} exits 2; stderr: {}", stderr(&o));
        assert!(stderr(&o).contains(message), "ftl {args:?}: {message:?} in {}", stderr(&o));
        assert!(o.stdout.is_empty() || args[0] == "nonsense", "ftl {args:?} prints nothing on stdout");
    }
}

#[test]
fn help_and_version_exit_0() {
    for args in [&["--help"][..], &["--version"], &["run", "--help"]] {
        let o = ftl(args);
        assert_eq!(code(&o), 0, "ftl {args:?}");
        assert!(!o.stdout.is_empty());
    }
}
