//! `ftl run` streams its trace into the run (issue 37): the same output, byte for byte,
//! and the same exit and message on an error, as with the trace held whole
//! (`FTL_TRACE_HELD=1`).

use crate::common;

use std::process::{Command, Output};

use common::repo;

fn ftl(args: &[&str], held: bool) -> Output {
    let mut c = Command::new(env!("CARGO_BIN_EXE_ftl"));
    c.args(args).current_dir(repo());
    if held {
        c.env("FTL_TRACE_HELD", "1");
    } else {
        c.env_remove("FTL_TRACE_HELD");
    }
    c.output().expect("the ftl binary runs")
}

/// `ftl run` with `args` streamed and held: the same exit, stdout and stderr; the streamed output.
fn streamed_as_held(args: &[&str]) -> Output {
    let (a, b) = (ftl(args, false), ftl(args, true));
    assert_eq!(a.status.code(), b.status.code(), "{args:?}");
    assert!(a.stdout == b.stdout, "{args:?}: stdout differs");
    assert_eq!(String::from_utf8_lossy(&a.stderr), String::from_utf8_lossy(&b.stderr), "{args:?}");
    a
}

/// Every sample trace, with fold and without a fit (most then stop at the plan's check of
/// the highest page), JSON and human output, and with --recovery and --space.
#[test]
fn streamed_runs_print_what_held_runs_print() {
    // The sample traces, the crash-chain pattern, the shared MQSim trace when it is there,
    // and a trace beyond the chip written here: without a fit its run stops at the plan's
    // check, so the error path is compared in every checkout (the MQSim trace was the only
    // one before, and a clone without ../shared had none).
    let mut files = trace_files(&["traces", "docs/traces", "../shared/traces"]);
    let far = std::env::temp_dir().join(format!("ftl-streamed-far-{}.disksim", std::process::id()));
    std::fs::write(&far, "0.000 0 0 8 0\n1.000 0 900000000 8 0\n2.000 0 16 8 1\n").unwrap();
    files.push(far.clone());
    assert!(files.len() >= 14, "{files:?}");
    let mut failed = 0;
    for f in &files {
        let t = f.display().to_string();
        let base = [
            "run",
            "--scheme",
            "page",
            "--chip",
            "classroom",
            "--blocks",
            "128",
            "--pages-per-block",
            "32",
            "--trace",
            &t,
        ];
        let variants: [&[&str]; 5] = [
            &["--fit", "fold", "--json"],
            &["--json"],
            &["--fit", "fold"],
            &["--fit", "fold", "--json", "--recovery"],
            &["--fit", "fold", "--json", "--space", "100"],
        ];
        for v in variants {
            let args: Vec<&str> = base.iter().chain(v.iter()).copied().collect();
            failed += !streamed_as_held(&args).status.success() as usize;
        }
    }
    std::fs::remove_file(&far).ok();
    // Some runs end in an error (none on traces beyond the chip), most do not.
    assert!(failed > 0 && failed < files.len() * 5 / 2, "{failed} failed");
}

/// A trace of many read chunks (~10 MB: more than the `EARLY_MAX` batches that the parse
/// thread holds while the run's chip is built, issue 37) on a large chip: the batches
/// parsed before the run was built, then the rest, give the held run's output byte for
/// byte, whether they were held or not.
#[test]
fn a_long_streamed_trace_parsed_while_its_chip_is_built_runs_as_held() {
    let f = std::env::temp_dir().join(format!("ftl-streamed-long-{}.disksim", std::process::id()));
    let mut text = String::with_capacity(11 << 20);
    let mut x = 11u64;
    for i in 0..440_000u64 {
        x = x.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
        // Pages up to twice the space (fold changes some), 4 KB and 16 KB requests.
        let lba = (x >> 20) % (786_432 * 8);
        text.push_str(&format!(
            "{}.{:03} 0 {lba} {} {}
",
            i / 1000,
            i % 1000,
            [8, 32][(x & 1) as usize],
            (x >> 3) & 1
        ));
    }
    assert!(text.len() > 8 << 20, "{}", text.len());
    std::fs::write(&f, &text).unwrap();
    let t = f.display().to_string();
    let base = [
        "run",
        "--scheme",
        "page",
        "--chip",
        "fastcheck",
        "--blocks",
        "8192",
        "--pages-per-block",
        "64",
        "--trace",
        &t,
    ];
    for v in [&["--fit", "fold", "--json"][..], &["--json"][..]] {
        let args: Vec<&str> = base.iter().chain(v.iter()).copied().collect();
        let a = streamed_as_held(&args);
        // Fold runs every request; without a fit the pages beyond the space stop it.
        assert_eq!(a.status.success(), v.contains(&"fold"), "{args:?}: {}", String::from_utf8_lossy(&a.stderr));
    }
    std::fs::remove_file(&f).ok();
}

/// `ftl trace` counts its summary while the trace is parsed (issue 37) and prints what the
/// held path prints (`FTL_TRACE_HELD=1`), byte for byte, with the same exit and messages
/// (stderr's timing line aside): the sample traces and DiskSim files written here (bad
/// lines early and late, CR LF, no newline at the end, one line, empty, a page beyond the
/// space), on fold, none, compact and scale, 4 KB and 512 B pages, skipping bad lines
/// or not.
#[test]
fn streamed_trace_summaries_print_what_held_ones_print() {
    let dir = std::env::temp_dir().join(format!("ftl-streamed-trace-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let mut text = String::new();
    for i in 0..40_000u64 {
        match i {
            2 | 39_000 => text.push_str("2.0 0 x 8 1\n"),
            _ => text.push_str(&format!("{i}.25 0 {} {} {}\n", i * 7919 % 300_000 * 8, 8 << (i % 3), i % 2)),
        }
    }
    let mut files = trace_files(&["traces", "docs/traces"]);
    let written: [(&str, &[u8]); 6] = [
        ("bad.disksim", text.as_bytes()),
        ("crlf.disksim", &text.replace('\n', "\r\n").into_bytes()),
        ("nonl.disksim", text.trim_end().as_bytes()),
        ("one.disksim", b"0.0 0 8 8 1"),
        ("empty.disksim", b""),
        ("far.disksim", b"0.000 0 0 8 0\n1.000 0 900000000 8 0\n2.000 0 16 8 1\n"),
    ];
    for (name, bytes) in written {
        files.push(dir.join(name));
        std::fs::write(dir.join(name), bytes).unwrap();
    }
    let timing = |o: &Output| -> String {
        String::from_utf8_lossy(&o.stderr)
            .lines()
            .filter(|l| !l.starts_with("trace: read"))
            .collect::<Vec<_>>()
            .join("\n")
    };
    let (mut ok, mut failed) = (0, 0);
    for f in &files {
        let t = f.display().to_string();
        for chip in [["classroom", "128", "32"], ["fast2007", "256", "32"]] {
            for v in [
                &["--fit", "fold"][..],
                &[],
                &["--fit", "fold", "--skip-bad-lines"],
                &["--fit", "compact"],
                &["--fit", "scale"],
            ] {
                let args: Vec<&str> =
                    ["trace", "--chip", chip[0], "--blocks", chip[1], "--pages-per-block", chip[2], "--trace", &t]
                        .iter()
                        .chain(v)
                        .copied()
                        .collect();
                let (a, b) = (ftl(&args, false), ftl(&args, true));
                assert_eq!(a.status.code(), b.status.code(), "{args:?}");
                assert!(a.stdout == b.stdout, "{args:?}: stdout differs");
                assert_eq!(timing(&a), timing(&b), "{args:?}");
                ok += a.status.success() as usize;
                failed += !a.status.success() as usize;
            }
        }
    }
    std::fs::remove_dir_all(&dir).ok();
    assert!(ok > files.len() * 5 && failed > 0, "{ok} ok, {failed} failed");
}

/// The trace files (not their READMEs) in these folders of the repository, sorted; a
/// folder that is not there (../shared in a lone clone) gives none.
fn trace_files(dirs: &[&str]) -> Vec<std::path::PathBuf> {
    let mut files: Vec<_> = dirs
        .iter()
        .filter_map(|d| std::fs::read_dir(repo().join(d)).ok())
        .flat_map(|rd| rd.flatten().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x != "md"))
        .collect();
    files.sort();
    files
}
