//! The `ftl` binary as a user runs it: the JSON fields docs/cli.md promises as stable,
//! and the exit codes (0 success, 2 bad arguments or input, 3 a failed check).

use crate::common;
use common::*;
use serde_json::Value;

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

/// DFTL's counters (issue 38): CMT hits and misses, translation-page reads and writes, in
/// words and in the JSON, and the same numbers in both.
#[test]
fn run_dftl_reports_cmt_hits_and_translation_pages() {
    let args =
        ["run", "--scheme", "dftl", "--blocks", "32", "--pages-per-block", "8", "--gen", "uniform:n=3000,seed=4"];
    let v = json(&[&args[..], &["--json"]].concat());
    let m = &v["scheme_metrics"];
    let (hits, misses) = (m["cmt_hits"].as_u64().unwrap(), m["cmt_misses"].as_u64().unwrap());
    assert_eq!(hits + misses, 3000, "every request looks its LPN up once: {m}");
    assert!(m["translation_reads"].as_u64().unwrap() > 0 && m["translation_writes"].as_u64().unwrap() > 0, "{m}");
    let o = ftl(&args);
    assert_eq!(code(&o), 0);
    let out = stdout(&o);
    assert!(out.contains(&format!("CMT                hits {hits}, misses {misses}")), "{out}");
    assert!(
        out.contains(&format!(
            "translation pages  reads {}, writes {}",
            m["translation_reads"], m["translation_writes"]
        )),
        "{out}"
    );
}

#[test]
fn sweep_csv_has_the_documented_columns_and_one_row_per_configuration() {
    let o = ftl(&["sweep", "--schemes", "bast,fast", "--log-blocks", "2,4", "--gen", "uniform:n=2000", "--csv"]);
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    let out = stdout(&o);
    let mut lines = out.lines();
    let header: Vec<&str> = lines.next().unwrap().split(',').collect();
    for col in [
        "row",
        "scheme",
        "chip",
        "log_blocks",
        "blocks",
        "pages_per_block",
        "logical_pages",
        "workload_pages",
        "request_hash",
        "precondition",
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
        "log_utilisation",
        "wrong_reads",
        "error",
    ] {
        assert!(header.contains(&col), "column {col} in {header:?}");
    }
    let rows: Vec<&str> = lines.collect();
    assert_eq!(rows.len(), 4, "{out}");
    assert!(rows[0].starts_with("0,bast,classroom,") && rows[3].starts_with("3,fast,classroom,"), "{out}");
    let lb = header.iter().position(|c| *c == "log_blocks").unwrap();
    assert_eq!(rows.iter().map(|r| r.split(',').nth(lb).unwrap()).collect::<Vec<_>>(), ["2", "4", "2", "4"]);
    assert!(stderr(&o).contains("4 of 4 rows ran"), "{}", stderr(&o));
}

/// The JSON lines of a sweep, keyed by configuration (scheme and the parameters given),
/// without the row index and the sweep's plan (listed in another order, it is another
/// plan: `ftl merge` keeps their rows apart).
fn rows_by_config(args: &[&str]) -> std::collections::BTreeMap<String, Value> {
    let o = ftl(args);
    assert_eq!(code(&o), 0, "ftl {args:?}: {}", stderr(&o));
    stdout(&o)
        .lines()
        .map(|l| {
            let mut v: Value = serde_json::from_str(l).unwrap();
            let key = format!("{} {} {}", v["scheme"], v["setup"]["params_given"], v["setup"]["chip"]);
            let o = v.as_object_mut().unwrap();
            o.remove("row");
            o.remove("rows");
            o.remove("sweep");
            (key, v)
        })
        .collect()
}

#[test]
fn sweep_rows_are_identical_in_any_order_and_alone() {
    let w = "uniform:n=4000,seed=3,read_ratio=0.2";
    let a = rows_by_config(&[
        "sweep",
        "--schemes",
        "page,bast,fast",
        "--log-blocks",
        "2,4",
        "--op",
        "0.1,0.3",
        "--gen",
        w,
        "--json",
    ]);
    let b = rows_by_config(&[
        "sweep",
        "--schemes",
        "fast,page,bast",
        "--log-blocks",
        "4,2",
        "--op",
        "0.3,0.1",
        "--gen",
        w,
        "--json",
    ]);
    assert_eq!(a.len(), 6, "page × 2 OP, bast and fast × 2 log-block counts");
    assert_eq!(a, b);
    // Each row equals `ftl run` of its configuration alone (the sweep's own --list-jobs line).
    let o = ftl(&[
        "sweep",
        "--schemes",
        "page,bast,fast",
        "--log-blocks",
        "2,4",
        "--op",
        "0.1,0.3",
        "--gen",
        w,
        "--list-jobs",
    ]);
    let jobs = stdout(&o);
    assert_eq!(jobs.lines().count(), 6);
    for job in jobs.lines() {
        // The words of the line (the sweep's plan is its one quoted word).
        let (head, spec) = job.split_once(" --sweep-spec '").unwrap();
        let spec = spec.trim_end_matches(" --json").trim_end_matches('\'');
        let mut args: Vec<&str> = head.split(' ').skip(1).collect();
        args.extend(["--sweep-spec", spec, "--json"]);
        let alone = json(&args);
        let key = format!("{} {} {}", alone["scheme"], alone["setup"]["params_given"], alone["setup"]["chip"]);
        let row = &a[&key];
        for f in
            ["erases", "page_programs", "write_amplification", "latency_us", "latency_tail_us", "setup", "scenario"]
        {
            assert_eq!(alone[f], row[f], "{job}: {f}");
        }
    }
}

#[test]
fn a_sweep_sharded_three_ways_and_merged_equals_the_whole() {
    let args = [
        "sweep",
        "--schemes",
        "page,bast,fast,kraft",
        "--log-blocks",
        "2,4",
        "--gen",
        "uniform:n=3000,seed=5",
        "--json",
    ];
    let whole = ftl(&args);
    assert_eq!(code(&whole), 0, "{}", stderr(&whole));
    let dir = std::env::temp_dir().join(format!("ftl-shards-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let mut files = Vec::new();
    for i in 1..=3 {
        let shard = format!("{i}/3");
        let mut a = args.to_vec();
        a.extend(["--shard", &shard]);
        let o = ftl(&a);
        assert_eq!(code(&o), 0, "{}", stderr(&o));
        let f = dir.join(format!("shard{i}.jsonl"));
        std::fs::write(&f, &o.stdout).unwrap();
        files.push(f);
    }
    // Shards given in another order: merge sorts by row.
    let f: Vec<&str> = files.iter().rev().map(|p| p.to_str().unwrap()).collect();
    let merged = ftl(&[&["merge"][..], &f].concat());
    assert_eq!(code(&merged), 0, "{}", stderr(&merged));
    assert_eq!(stdout(&merged), stdout(&whole));
    // CSV of the merge equals the CSV of the sweep.
    let csv = ftl(&[&["merge", "--csv"][..], &f].concat());
    let mut a = args.to_vec();
    a.pop();
    a.push("--csv");
    assert_eq!(stdout(&csv), stdout(&ftl(&a)));
    // A shard missing is named, exit 4.
    let part = ftl(&["merge", f[0], f[1]]);
    assert_eq!(code(&part), 4);
    assert!(stderr(&part).contains("rows missing"), "{}", stderr(&part));
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn a_row_that_cannot_run_fails_alone_and_the_exit_code_says_so() {
    // 16 blocks: BAST and FAST with 15 log blocks have no room for a spare and a data block.
    let o = ftl(&["sweep", "--schemes", "bast,fast", "--log-blocks", "2,15", "--gen", "uniform:n=500", "--json"]);
    assert_eq!(code(&o), 4, "{}", stderr(&o));
    let rows: Vec<Value> = stdout(&o).lines().map(|l| serde_json::from_str(l).unwrap()).collect();
    assert_eq!(rows.len(), 4);
    assert!(rows[0]["error"].is_null() && rows[0]["erases"].is_u64());
    assert!(rows[1]["error"].is_string(), "{}", rows[1]);
    assert!(stderr(&o).contains("row 1 (bast log_blocks=15 on classroom) cannot run"), "{}", stderr(&o));
    // A space larger than a scheme exports: that row alone fails.
    // (classroom: page mapping exports 48 pages, BAST with 4 log blocks 44.)
    let o = ftl(&["sweep", "--schemes", "page,bast", "--gen", "uniform:n=200", "--space", "46", "--csv"]);
    assert_eq!(code(&o), 4, "{}", stderr(&o));
    let out = stdout(&o);
    assert!(out.lines().nth(1).unwrap().contains(",48,46,200,"), "{out}");
    assert!(out.lines().nth(2).unwrap().contains("cannot hold the workload"), "{out}");
    assert!(out.lines().nth(2).unwrap().starts_with("1,bast,classroom,16,4,512,,4,"), "{out}");
}

#[test]
fn every_scheme_takes_part_in_a_sweep() {
    let schemes: Vec<&str> = ftl_sim::ftl::SCHEMES.iter().map(|(id, _)| *id).collect();
    let schemes = schemes.join(",");
    let o = ftl(&[
        "sweep",
        "--schemes",
        &schemes,
        "--chip",
        "fastcheck",
        "--blocks",
        "1024",
        "--gen",
        "uniform:n=3000,seed=1",
        "--json",
    ]);
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    let rows: Vec<Value> = stdout(&o).lines().map(|l| serde_json::from_str(l).unwrap()).collect();
    assert_eq!(rows.len(), schemes.split(',').count());
    for r in &rows {
        assert!(r["error"].is_null(), "{}", r);
        assert_eq!(r["wrong_reads"], 0);
    }
}

#[test]
fn run_json_carries_its_whole_setup_and_runs_again_from_it() {
    let v = json(&[
        "run",
        "--scheme",
        "kraft",
        "--chip",
        "fast2007",
        "--blocks",
        "256",
        "--trace",
        "traces/hotcold.msr.csv",
        "--fit",
        "fold",
        "--precondition",
        "fill",
        "--json",
    ]);
    assert_fields(
        &v,
        &[
            "setup.chip.blocks",
            "setup.chip.pages_per_block",
            "setup.chip.page_bytes",
            "setup.params.log_blocks",
            "setup.params.k",
            "setup.params.switch_max",
            "setup.params.fill_max",
            "setup.logical_pages",
            "setup.workload_space",
            "setup.fit",
            "setup.precondition",
            "setup.trace.name",
            "setup.trace.bytes",
            "setup.trace.sha256",
            "setup.requests",
            "setup.request_hash",
            "latency_tail_us.write.p99_9",
            "scenario",
        ],
        "run --json setup",
    );
    assert_eq!(v["setup"]["trace"]["sha256"].as_str().unwrap().len(), 64);
    assert_eq!(v["setup"]["fit"], "fold");
    // Given back: the row as a scenario file runs the same requests to the same figures.
    let f = std::env::temp_dir().join(format!("ftl-row-{}.json", std::process::id()));
    std::fs::write(&f, v.to_string()).unwrap();
    let again = json(&["run", "--scenario", f.to_str().unwrap(), "--json"]);
    std::fs::remove_file(&f).ok();
    for k in ["erases", "page_programs", "latency_us", "setup"] {
        assert_eq!(again[k], v[k], "{k}");
    }
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

/// A chain runs a generated workload in order (issue 34): one hot page on 5-page blocks.
#[test]
fn crash_chain_takes_a_generated_workload() {
    let args = ["crash-sweep", "--scheme", "page", "--blocks", "9", "--pages-per-block", "5", "--chain", "200"];
    let hot = [&args[..], &["--gen", "hotcold:n=50,seed=1,hot_fraction=0,hot_ratio=1", "--json"]].concat();
    let v = json(&hot);
    assert_eq!((v["cuts"].as_u64(), v["recovered_correctly"].as_u64()), (Some(200), Some(200)), "{v}");
    assert_eq!(v["pool_excess"], 0);
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
        (&["sweep", "--schemes", "page", "--gen", "uniform:n=10", "--shard", "4/3"], "expected I/N"),
        (&["run", "--scheme", "bast", "--log-blocks", "2,4", "--gen", "uniform:n=10"], "give one --log-blocks value"),
        (&["merge", "no/such/file"], "cannot read"),
        (&["crash-sweep", "--scheme", "page", "--gen", "uniform:n=200"], "choose the cut points"),
        (&["crash-sweep", "--scheme", "page", "--chain", "5", "--trace", "traces/oltp.csv"], "drop --trace"),
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
