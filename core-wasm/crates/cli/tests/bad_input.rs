//! Bad input through the `ftl` binary (issue 29): exit code 2 and one clear line on
//! stderr, never a panic, an abort or a stack overflow; a closed pipe ends quietly.

use crate::common;
use common::*;
use std::io::Write;
use std::process::{Command, Stdio};

/// Exit 2, one line on stderr starting with "error:", containing `want`.
fn refused(args: &[&str], want: &str) {
    let o = ftl(args);
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(2), "ftl {args:?}: {err}");
    assert_eq!(err.trim_end().lines().count(), 1, "ftl {args:?}: not one line: {err}");
    assert!(err.starts_with("error: ") && err.contains(want), "ftl {args:?}: {err}");
}

fn temp(name: &str, bytes: &[u8]) -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("ftl-bad-input-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let p = dir.join(name);
    std::fs::write(&p, bytes).unwrap();
    p
}

#[test]
fn deep_nesting_is_parsed_not_a_stack_overflow() {
    let d = 25_000;
    let pattern = format!("{}w0{}", "(".repeat(d), ")x1".repeat(d));
    let o = ftl(&["run", "--scheme", "page", "--pattern", &pattern, "--json"]);
    assert_eq!(o.status.code(), Some(0), "{}", String::from_utf8_lossy(&o.stderr));
    let too_deep = "(".repeat(100_001);
    let f = temp("deep.pattern", too_deep.as_bytes());
    refused(&["run", "--scheme", "page", "--trace", f.to_str().unwrap()], "nested more than 100000 deep");
}

#[test]
fn unbounded_parameters_are_refused_before_allocating() {
    refused(&["run", "--scheme", "page", "--gen", "camera:n=10,seed=1,file_pages=1000000000"], "file_pages");
    refused(&["run", "--scheme", "page", "--gen", "uniform:n=10,read_ratio=NaN"], "must be a finite number, got 'NaN'");
    refused(&["run", "--scheme", "page", "--gen", "uniform:n=10,n=20"], "'n' is given twice");
    refused(
        &["crash-sweep", "--scheme", "page", "--gen", "uniform:n=10", "--random", "18446744073709551615"],
        "at most 10000000 cut points",
    );
    refused(&["crash-sweep", "--scheme", "page", "--chain", "10", "--precondition", "fill"], "drop --precondition");
    let f = temp("far.csv", b"op,lpn\nw,4503599627370496\n");
    refused(
        &["run", "--scheme", "page", "--trace", f.to_str().unwrap(), "--fit", "scale"],
        "more than the largest chip",
    );
}

#[test]
fn messages_name_the_real_limit_and_columns() {
    refused(
        &["run", "--scheme", "fast-ltlog", "--blocks", "13", "--log-blocks", "4", "--gen", "uniform:n=10"],
        "needs at least 15 blocks here (4 log, 1 spare, 9 metadata, 1 data)",
    );
    refused(
        &["run", "--scheme", "fastcheck", "--blocks", "64", "--log-blocks", "62", "--gen", "uniform:n=10"],
        "metadata",
    );
    let f = temp("four.csv", b"W,0,4096,1\n");
    let p = f.to_str().unwrap();
    refused(
        &["run", "--scheme", "page", "--trace", p, "--column", "op=1", "--column", "address=999"],
        "but line 1 has 4 columns",
    );
    refused(
        &[
            "run",
            "--scheme",
            "page",
            "--trace",
            p,
            "--column",
            "op=1",
            "--column",
            "address=2",
            "--column",
            "address=3",
        ],
        "already mapped",
    );
    refused(
        &[
            "run",
            "--scheme",
            "page",
            "--trace",
            p,
            "--column",
            "op=1",
            "--column",
            "address=2",
            "--read-op",
            "W",
            "--write-op",
            "W",
        ],
        "both read",
    );
    let f = temp("huge.spc", b"0,0,107374182400,w,0.0\n");
    refused(&["run", "--scheme", "page", "--trace", f.to_str().unwrap()], "more than the limit of 20000000");
}

#[test]
fn a_closed_pipe_ends_quietly() {
    for args in [&["list"][..], &["export", "--scheme", "page", "--gen", "uniform:n=200000", "--to", "umass"][..]] {
        let mut child = Command::new(env!("CARGO_BIN_EXE_ftl"))
            .args(args)
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        drop(child.stdout.take()); // the reader leaves before the first line
        let o = child.wait_with_output().unwrap();
        let err = String::from_utf8_lossy(&o.stderr);
        assert!(!err.contains("panicked") && !err.contains("Broken pipe"), "ftl {args:?}: {err}");
        assert_ne!(o.status.code(), Some(101), "ftl {args:?} panicked");
    }
    let _ = std::io::stdout().flush();
}

/// Issue 34: every count flag has the wasm's cap, and the two that ran unbounded are
/// refused before anything runs.
#[test]
fn count_flags_are_capped() {
    let max = "18446744073709551615";
    refused(
        &["crash-sweep", "--scheme", "page", "--chain", "10", "--pool-baseline", max],
        "--pool-baseline 18446744073709551615: at most 10000000",
    );
    refused(&["crash-sweep", "--scheme", "page", "--chain", max], "--chain 18446744073709551615: at most 10000000");
    refused(
        &["crash-sweep", "--scheme", "page", "--gen", "uniform:n=10", "--random", "100000000"],
        "at most 10000000 cut points",
    );
    refused(
        &["crash-sweep", "--scheme", "page", "--gen", "uniform:n=10", "--every", "4294967296"],
        "at most 4294967295",
    );
    refused(&["crash-sweep", "--scheme", "page", "--gen", "uniform:n=10", "--every", "0"], "--every 0");
    refused(
        &["bench", "--scenario", r#"{"scheme":"page","workload":{"kind":"uniform","n":10}}"#, "--runs", max],
        "--runs",
    );
    refused(
        &["sweep", "--schemes", "page", "--gen", "uniform:n=10", "--recovery", "--recovery-samples", max],
        "--recovery-samples",
    );
}

/// `ftl merge` streams its input with a size limit: a 2 GiB sparse file (it aborted:
/// "memory allocation of 4294967296 bytes failed") is refused at its first byte, and a
/// row claiming 2^64 rows is counted, not allocated.
#[test]
fn merge_reads_bounded() {
    let dir = std::env::temp_dir().join(format!("ftl-bad-input-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let sparse = dir.join("sparse-2g.jsonl");
    std::fs::File::create(&sparse).unwrap().set_len(2 << 30).unwrap();
    refused(&["merge", sparse.to_str().unwrap()], "line 1: not a JSON object");
    std::fs::remove_file(&sparse).unwrap();
    let claims = temp("claims.jsonl", b"{\"row\":0,\"rows\":18446744073709551615,\"error\":null}\n");
    let o = ftl(&["merge", claims.to_str().unwrap()]);
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(4), "{err}");
    assert!(err.contains("rows missing: [1, 2, 3") && err.contains("(18446744073709551614 in all)"), "{err}");
    // A line past the limit, without a newline: refused at the limit.
    let mut long = b"{\"a\":\"".to_vec();
    long.resize((65 << 20) + 10, b'x');
    let f = temp("long.jsonl", &long);
    refused(&["merge", f.to_str().unwrap()], "line 1: longer than 65 MB");
}

/// `ftl run --scenario` reads at most 64 MB, streamed (`/dev/zero` grew to 4.1 GB), and
/// skips a UTF-8 byte-order mark (it gave "expected value at line 1 column 1").
#[test]
fn scenario_files_are_bounded_and_a_bom_is_skipped() {
    refused(&["run", "--scenario", "/dev/zero"], "invalid scenario /dev/zero: expected value at line 1 column 1");
    let json = br#"{"scheme":"page","chip":{"preset":"classroom"},"workload":{"kind":"uniform","n":50,"seed":1}}"#;
    let mut bom = b"\xef\xbb\xbf".to_vec();
    bom.extend_from_slice(json);
    let f = temp("bom.json", &bom);
    let o = ftl(&["run", "--scenario", f.to_str().unwrap(), "--json"]);
    assert_eq!(o.status.code(), Some(0), "{}", String::from_utf8_lossy(&o.stderr));
    let f = temp("bench-bom.json", &bom);
    let o = ftl(&["bench", "--scenario", &format!("@{}", f.display()), "--runs", "1"]);
    assert_eq!(o.status.code(), Some(0), "{}", String::from_utf8_lossy(&o.stderr));
    let mut spaces = vec![b' '; (64 << 20) + 1];
    spaces.extend_from_slice(json);
    let f = temp("spaces.json", &spaces);
    refused(&["run", "--scenario", f.to_str().unwrap()], "is larger than 64 MB");
}

/// A trace with many bad lines: one line on stderr, with the count of the others.
#[test]
fn trace_errors_are_one_line() {
    let mut text = String::from("0,0,4096,w,0.0\n");
    for _ in 0..30 {
        text.push_str("0,0,x,w,0.0\n");
    }
    let f = temp("bad-lines.spc", text.as_bytes());
    refused(&["run", "--scheme", "page", "--trace", f.to_str().unwrap()], "more bad lines)");
}
