//! Sweeps researchers can trust (issue 38): one request list by default with resolved
//! parameters and logical space per row (item 2), timing in sweeps equal to each row's
//! `ftl run --json` (item 3), merges and replays that refuse mixed inputs (item 4), and
//! the small usage errors (item 6).

use crate::common;
use std::path::{Path, PathBuf};

use common::*;
use serde_json::Value;

fn lines(s: &str) -> Vec<Value> {
    s.lines().map(|l| serde_json::from_str(l).unwrap()).collect()
}

fn temp(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("ftl-plan-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

/// A job line of `--list-jobs` as arguments (the sweep spec is the one quoted word).
fn job_args(line: &str) -> Vec<String> {
    let (head, spec) = line.split_once(" --sweep-spec '").expect("a --sweep-spec");
    let (spec, tail) = spec.rsplit_once('\'').unwrap();
    let mut a: Vec<String> = head.split(' ').skip(1).map(String::from).collect();
    a.extend(["--sweep-spec".to_string(), spec.to_string()]);
    a.extend(tail.split_whitespace().map(String::from));
    a
}

#[test]
fn every_scheme_replays_one_request_list_by_default_and_rows_state_their_parameters() {
    let schemes: Vec<&str> = ftl_sim::ftl::SCHEMES.iter().map(|(id, _)| *id).collect();
    let schemes = schemes.join(",");
    let base =
        ["sweep", "--schemes", &schemes, "--chip", "fastcheck", "--blocks", "1024", "--gen", "uniform:n=3000,seed=1"];
    let rows = lines(&ok(&[&base[..], &["--json"]].concat()));
    assert_eq!(rows.len(), schemes.split(',').count());
    let hashes: std::collections::BTreeSet<&str> =
        rows.iter().map(|r| r["setup"]["request_hash"].as_str().unwrap()).collect();
    assert_eq!(hashes.len(), 1, "one request list for every scheme");
    let own: Vec<u64> = rows.iter().map(|r| r["setup"]["logical_pages"].as_u64().unwrap()).collect();
    let space = rows[0]["setup"]["workload_space"].as_u64().unwrap();
    assert_eq!(space, *own.iter().min().unwrap(), "the smallest logical space among the rows");
    for r in &rows {
        assert_eq!(r["error"], Value::Null, "{r}");
        assert_eq!(r["setup"]["workload_space"], space);
        assert_eq!(r["setup"]["space_given"], space, "given to the row as --space");
        // Every parameter the scheme reads, resolved.
        let reads = ftl_sim::ftl::scheme_params(r["scheme"].as_str().unwrap());
        let params = r["setup"]["params"].as_object().unwrap();
        assert_eq!(params.len(), reads.len(), "{}", r["scheme"]);
    }
    // The table names the defaults (not just "bast") and the CSV has the logical space.
    let table = ok(&base);
    assert!(table.lines().any(|l| l.contains(" bast log_blocks=4 ")), "{table}");
    assert!(table.lines().any(|l| l.contains(" page op=0.25 ")), "{table}");
    // --own-space: each scheme's own space, so the lists differ.
    let rows = lines(&ok(&[&base[..], &["--own-space", "--json"]].concat()));
    let hashes: std::collections::BTreeSet<&str> =
        rows.iter().map(|r| r["setup"]["request_hash"].as_str().unwrap()).collect();
    assert!(hashes.len() > 1, "own spaces give different request lists");
    for r in &rows {
        assert_eq!(r["setup"]["workload_space"], r["setup"]["logical_pages"]);
    }
}

#[test]
fn sweep_timing_columns_equal_each_rows_run_json() {
    let flags = [
        "sweep",
        "--schemes",
        "page,bast",
        "--chip",
        "fast2007",
        "--blocks",
        "256",
        "--gen",
        "uniform:n=3000,seed=2,read_ratio=0.3",
        "--timing",
        "open",
        "--rate",
        "1000,4000",
    ];
    let csv = ok(&[&flags[..], &["--csv"]].concat());
    let mut it = csv.lines();
    let header: Vec<&str> = it.next().unwrap().split(',').collect();
    let col = |name: &str| header.iter().position(|c| *c == name).unwrap_or_else(|| panic!("column {name}"));
    let rows: Vec<Vec<String>> = it.map(split_csv).collect();
    assert_eq!(rows.len(), 4);
    let jobs = ok(&[&flags[..], &["--list-jobs"]].concat());
    for (row, job) in rows.iter().zip(jobs.lines()) {
        let a = job_args(job);
        let a: Vec<&str> = a.iter().map(String::as_str).collect();
        let v: Value = serde_json::from_str(&ok(&a)).unwrap();
        let t = &v["timing"];
        assert_eq!(row[col("timing_model")], "open");
        assert_eq!(row[col("arrivals")], t["arrivals"].as_str().unwrap());
        assert_eq!(row[col("rate_per_s")].parse::<f64>().unwrap(), t["rate_per_s"].as_f64().unwrap());
        assert_eq!(row[col("workload")], "uniform:n=3000,read_ratio=0.3,seed=2");
        assert_eq!(row[col("chip_program_us")].parse::<f64>().unwrap(), 200.0);
        assert_eq!(row[col("chip_erase_us")].parse::<f64>().unwrap(), 2000.0);
        let mut checked = 0;
        for kind in ["read", "write"] {
            for what in ["response", "wait", "service"] {
                for (p, f) in [("p50", "p50"), ("p99", "p99"), ("p99_9", "p999")] {
                    let cell: f64 = row[col(&format!("{kind}_{what}_{p}_us"))].parse().unwrap();
                    let want = t[kind][format!("{what}_us")][f].as_f64().unwrap();
                    assert_eq!(cell, want, "{kind} {what} {p} of {job}");
                    checked += 1;
                }
            }
        }
        assert_eq!(checked, 18);
    }
    // The rates are rows: the faster one queues writes longer on BAST.
    let wait = col("write_wait_p99_us");
    assert!(rows[3][wait].parse::<f64>().unwrap() > rows[2][wait].parse::<f64>().unwrap(), "{csv}");
    // The table carries the model and the response tails.
    let table = ok(&flags);
    assert!(table.contains("open fixed 4000.0/s") && table.contains("write resp. ms p50/p99/p99.9"), "{table}");
}

/// A CSV line's cells (quoted cells may hold commas).
fn split_csv(line: &str) -> Vec<String> {
    let mut cells = vec![String::new()];
    let mut quoted = false;
    for c in line.chars() {
        match c {
            '"' => quoted = !quoted,
            ',' if !quoted => cells.push(String::new()),
            c => cells.last_mut().unwrap().push(c),
        }
    }
    cells
}

#[test]
fn merge_refuses_rows_of_different_sweeps_and_names_the_difference() {
    let dir = temp("mixed");
    let shard = |name: &str, lb: &str, seed: &str, i: &str| {
        let gen = format!("uniform:n=800,seed={seed}");
        let o = ftl(&["sweep", "--schemes", "bast,fast", "--log-blocks", lb, "--gen", &gen, "--json", "--shard", i]);
        assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
        let f = dir.join(name);
        std::fs::write(&f, &o.stdout).unwrap();
        f.to_str().unwrap().to_string()
    };
    let a1 = shard("a1.jsonl", "4,8", "7", "1/2");
    let a2 = shard("a2.jsonl", "4,8", "7", "2/2");
    let b2 = shard("b2.jsonl", "4,12", "7", "2/2");
    let c2 = shard("c2.jsonl", "4,8", "8", "2/2");
    assert_eq!(ftl(&["merge", &a1, &a2]).status.code(), Some(0));
    let o = ftl(&["merge", &a1, &b2]);
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert!(stdout(&o).is_empty(), "nothing printed");
    assert!(
        stderr(&o).contains("rows of different sweeps") && stderr(&o).contains("log_blocks [4,8] vs [4,12]"),
        "{}",
        stderr(&o)
    );
    let o = ftl(&["merge", "--csv", &a1, &c2]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains(r#"gen "uniform:n=800,seed=7" vs "uniform:n=800,seed=8""#), "{}", stderr(&o));
    // A plain `ftl run --json` is of no sweep: not merged with a sweep's rows.
    let run = dir.join("run.json");
    std::fs::write(&run, ok(&["run", "--scheme", "bast", "--gen", "uniform:n=800,seed=7", "--json"])).unwrap();
    let o = ftl(&["merge", &a1, run.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("a run of no sweep"), "{}", stderr(&o));
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn a_trace_changed_between_shards_is_refused() {
    let dir = temp("changed");
    let t = dir.join("t.csv");
    std::fs::copy(repo().join("traces/hotcold.msr.csv"), &t).unwrap();
    let args = |i: &'static str| -> Vec<String> {
        ["sweep", "--schemes", "bast,fast", "--chip", "fast2007", "--blocks", "256", "--trace", "t.csv", "--json"]
            .iter()
            .map(|s| s.to_string())
            .chain(["--shard".into(), i.into()])
            .collect()
    };
    let run = |i: &'static str| {
        let a = args(i);
        let o = ftl_in(&dir, &a.iter().map(String::as_str).collect::<Vec<_>>());
        assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
        o.stdout
    };
    std::fs::write(dir.join("s1.jsonl"), run("1/2")).unwrap();
    // The trace loses its last line before shard 2 runs.
    let text = std::fs::read_to_string(&t).unwrap();
    let cut = text.trim_end().rfind('\n').unwrap();
    std::fs::write(&t, &text[..=cut]).unwrap();
    std::fs::write(dir.join("s2.jsonl"), run("2/2")).unwrap();
    let o = ftl_in(&dir, &["merge", "s1.jsonl", "s2.jsonl"]);
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert!(stderr(&o).contains("t.csv differs between rows"), "{}", stderr(&o));
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn a_row_replays_its_own_trace_from_anywhere_and_refuses_another() {
    let dir = temp("replay");
    let t = dir.join("trace.csv");
    std::fs::copy(repo().join("traces/hotcold.msr.csv"), &t).unwrap();
    let o = ftl_in(
        &dir,
        &[
            "sweep",
            "--schemes",
            "kraft",
            "--chip",
            "fast2007",
            "--blocks",
            "256",
            "--trace",
            "trace.csv",
            "--fit",
            "fold",
            "--json",
        ],
    );
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let row: Value = serde_json::from_slice(&o.stdout).unwrap();
    let recorded = row["setup"]["trace"]["path"].as_str().unwrap();
    assert!(Path::new(recorded).is_absolute(), "{recorded}");
    let rows = dir.join("rows.jsonl");
    std::fs::write(&rows, &o.stdout).unwrap();
    let rows = rows.to_str().unwrap();
    // From another directory: the absolute path.
    let again: Value = serde_json::from_str(&ok(&["run", "--scenario", rows, "--json"])).unwrap();
    assert_eq!(again["erases"], row["erases"]);
    assert_eq!(again["setup"]["request_hash"], row["setup"]["request_hash"]);
    // Another trace: refused, naming both traces, not the --column flags.
    let other = repo().join("traces/oltp.csv");
    let o = ftl(&["run", "--scenario", rows, "--trace", other.to_str().unwrap(), "--json"]);
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    let e = stderr(&o);
    assert!(
        e.contains("oltp.csv") && e.contains("is not the trace the row ran (trace.csv") && !e.contains("--column"),
        "{e}"
    );
    assert!(stdout(&o).is_empty());
    let o = ftl(&["run", "--scenario", rows, "--trace", other.to_str().unwrap(), "--accept-trace-change", "--json"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert!(stderr(&o).contains("warning: trace") && stderr(&o).contains("--accept-trace-change"), "{}", stderr(&o));
    // A relative path is taken against the row file's directory.
    let mut rel = row.clone();
    rel["setup"]["trace"]["path"] = "trace.csv".into();
    let sub = dir.join("moved");
    std::fs::create_dir_all(&sub).unwrap();
    std::fs::write(dir.join("rel.json"), rel.to_string()).unwrap();
    let v: Value =
        serde_json::from_str(&ok(&["run", "--scenario", dir.join("rel.json").to_str().unwrap(), "--json"])).unwrap();
    assert_eq!(v["erases"], row["erases"]);
    // Row and trace moved together: the trace's name beside the row file.
    std::fs::rename(&t, sub.join("trace.csv")).unwrap();
    std::fs::write(sub.join("row.json"), row.to_string()).unwrap();
    let v: Value =
        serde_json::from_str(&ok(&["run", "--scenario", sub.join("row.json").to_str().unwrap(), "--json"])).unwrap();
    assert_eq!(v["erases"], row["erases"]);
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn small_usage_errors_are_one_line_exit_2_and_run_nothing() {
    let cases: &[(&[&str], &str)] = &[
        (&["run", "--scheme", "page", "--gen", "uniform:n=50", "--spacing", "poisson"], "give --rate N"),
        (&["sweep", "--schemes", "page", "--gen", "uniform:n=50", "--spacing", "poisson", "--json"], "give --rate N"),
        (
            &["run", "--scheme", "page", "--gen", "uniform:n=50", "--rate", "-5"],
            "--rate -5: the arrival rate must be a positive",
        ),
        (&["sweep", "--schemes", "page", "--gen", "uniform:n=50", "--rate", "100,-5", "--json"], "--rate -5"),
        (&["run", "--scheme", "page", "--gen", "uniform:n=50", "--rate", "10,20"], "give one --rate value"),
        (
            &["run", "--scheme", "page", "--gen", "uniform:n=50", "--timing", "closed", "--rate", "10"],
            "--rate is for the open timing model: not with --timing closed",
        ),
        (
            &["run", "--scheme", "bast", "--trace", "traces/camera.disksim", "--fit", "fold", "--time-scale", "0.5"],
            "--time-scale is for the open timing model: add --timing open",
        ),
        (
            &["run", "--scheme", "page", "--gen", "uniform:n=50", "--rate", "10", "--time-scale", "2"],
            "--rate replaces them: give one",
        ),
        (
            &["run", "--scheme", "page", "--gen", "uniform:n=50", "--rate", "10", "--arrival-seed", "3"],
            "--arrival-seed seeds Poisson arrivals: add --spacing poisson",
        ),
        (
            &[
                "run",
                "--scheme",
                "bast",
                "--trace",
                "traces/camera.disksim",
                "--fit",
                "fold",
                "--rate",
                "10",
                "--time-unit",
                "ns",
            ],
            "--time-unit reads a trace's own arrival times and --rate replaces them",
        ),
        (
            &["sweep", "--schemes", "page,nosuch,bast", "--gen", "uniform:n=50", "--json"],
            "unknown scheme 'nosuch' (known: page,",
        ),
        (
            &["run", "--scheme", "page", "--trace", "traces/sequential.blkparse", "--blkparse-action", "Q"],
            "other actions than 'Q' (the trace's actions: D;",
        ),
    ];
    for (args, want) in cases {
        let o = ftl(args);
        assert_eq!(o.status.code(), Some(2), "{args:?}: {}", stderr(&o));
        assert!(stdout(&o).is_empty(), "{args:?} ran something: {}", stdout(&o));
        let e = stderr(&o);
        assert_eq!(e.lines().count(), 1, "{args:?}: one line: {e}");
        assert!(e.starts_with("error: ") && e.contains(want), "{args:?}: {e}");
    }
}
