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

/// Every sample trace, with fold and without a fit (most then stop at the plan's check of
/// the highest page), JSON and human output, and with --recovery and --space.
#[test]
fn streamed_runs_print_what_held_runs_print() {
    // The sample traces, the crash-chain pattern, the shared MQSim trace when it is there,
    // and a trace beyond the chip written here: without a fit its run stops at the plan's
    // check, so the error path is compared in every checkout (the MQSim trace was the only
    // one before, and a clone without ../shared had none).
    let mut files: Vec<_> = ["traces", "docs/traces", "../shared/traces"]
        .iter()
        .filter_map(|d| std::fs::read_dir(repo().join(d)).ok())
        .flat_map(|rd| rd.flatten().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x != "md"))
        .collect();
    files.sort();
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
            let (a, b) = (ftl(&args, false), ftl(&args, true));
            assert_eq!(a.status.code(), b.status.code(), "{args:?}");
            assert!(a.stdout == b.stdout, "{args:?}: stdout differs");
            assert_eq!(String::from_utf8_lossy(&a.stderr), String::from_utf8_lossy(&b.stderr), "{args:?}");
            failed += !a.status.success() as usize;
        }
    }
    std::fs::remove_file(&far).ok();
    // Some runs end in an error (none on traces beyond the chip), most do not.
    assert!(failed > 0 && failed < files.len() * 5 / 2, "{failed} failed");
}
