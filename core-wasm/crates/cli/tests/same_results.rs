//! Speed work must not change a result (issue 37): `ftl run --json` and `ftl trace` print
//! the same bytes as before it, for every scheme, on a real trace (the shared MQSim trace,
//! records of several pages, closed and open timing), the repo's camera trace and a
//! generated workload. `tests/golden/run-outputs.json` holds the SHA-256 of each output
//! as main printed it before issue 37 (50f0872), with a few figures to say what moved
//! when one differs. `FTL_WRITE_GOLDEN=1 cargo test --release -p ftlscope-cli --test
//! same_results` writes it again (only on purpose: a result that changes for a reason).

use crate::common;
use std::collections::BTreeMap;
use std::path::PathBuf;
use std::process::Command;

use common::repo;
use serde_json::{json, Value};
use sha2::Digest;

const SCHEMES: &[&str] =
    &["page", "bast", "fast", "ofast", "fastcheck", "fast-ltlog", "rftl", "gftl", "nftl", "kraft", "kast", "ltftl"];

/// The repo's root (commands run there, so trace paths in the outputs are relative).
/// The shared MQSim trace, relative to the repo (shared/ lies beside it), if present.
fn shared_trace() -> Option<&'static str> {
    const P: &str = "../shared/traces/mqsim-tpcc-small.trace";
    if repo().join(P).exists() {
        Some(P)
    } else {
        eprintln!("SKIPPED: the shared MQSim trace is not at {}", repo().join(P).display());
        None
    }
}

/// Every case: a name and the arguments.
fn cases() -> Vec<(String, Vec<String>)> {
    let mut out = Vec::new();
    let s = |v: &[&str]| v.iter().map(|x| x.to_string()).collect::<Vec<_>>();
    for scheme in SCHEMES {
        let run = |extra: &[&str]| s(&[&["run", "--scheme", scheme, "--json"][..], extra].concat());
        let gen = ["--chip", "fastcheck", "--blocks", "256", "--gen", "hotcold:n=30000,seed=4,read_ratio=0.3"];
        out.push((format!("{scheme} hotcold"), run(&gen)));
        let camera = ["--chip", "fast2007", "--blocks", "64", "--trace", "traces/camera.disksim", "--fit", "fold"];
        out.push((format!("{scheme} camera closed"), run(&camera)));
        out.push((format!("{scheme} camera open"), run(&[&camera[..], &["--timing", "open"]].concat())));
        if let Some(t) = shared_trace() {
            let mq = ["--chip", "fastcheck", "--blocks", "512", "--trace", t, "--fit", "fold"];
            out.push((format!("{scheme} mqsim closed"), run(&mq)));
            out.push((format!("{scheme} mqsim open"), run(&[&mq[..], &["--timing", "open"]].concat())));
        }
    }
    out.push((
        "trace camera".into(),
        s(&["trace", "--chip", "fast2007", "--blocks", "64", "--trace", "traces/camera.disksim", "--fit", "fold"]),
    ));
    if let Some(t) = shared_trace() {
        out.push((
            "trace mqsim".into(),
            s(&["trace", "--chip", "fastcheck", "--blocks", "512", "--trace", t, "--fit", "fold"]),
        ));
    }
    out
}

/// What is kept of one output: its hash and the figures that say what moved.
fn record(stdout: &[u8]) -> Value {
    let v: Value = serde_json::from_slice(stdout).expect("one JSON object");
    // Rows name their trace by absolute path (docs/cli.md), so the checkout's own folder
    // (and the one beside it, where shared/ lies) is taken out of what is hashed.
    let text = String::from_utf8(stdout.to_vec()).expect("UTF-8");
    let root = std::fs::canonicalize(repo()).expect("the repo root");
    let parent = root.parent().expect("a parent").display().to_string();
    let placed = text.replace(&root.display().to_string(), "<repo>").replace(&parent, "<parent>");
    let stdout = placed.as_bytes();
    let sha: String = sha2::Sha256::digest(stdout).iter().map(|b| format!("{b:02x}")).collect();
    let m = if v.get("metrics").is_some() { &v["metrics"] } else { &v };
    let pick = |k: &str| m.get(k).cloned().unwrap_or(Value::Null);
    json!({
        "sha256": sha,
        "bytes": stdout.len(),
        "requests": pick("requests"),
        "erases": pick("erases"),
        "page_programs": pick("page_programs"),
        "timing_requests": m.get("timing").map(|t| t["requests"].clone()).unwrap_or(Value::Null),
        "request_hash": v.get("setup").map(|s| s["request_hash"].clone()).unwrap_or(Value::Null),
    })
}

#[test]
fn outputs_are_byte_identical_to_the_golden_file() {
    let golden_path = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/golden/run-outputs.json");
    let mut got = BTreeMap::new();
    for (name, args) in cases() {
        let o = Command::new(env!("CARGO_BIN_EXE_ftl")).args(&args).current_dir(repo()).output().expect("ftl runs");
        assert_eq!(o.status.code(), Some(0), "{name}: ftl {args:?}: {}", String::from_utf8_lossy(&o.stderr));
        got.insert(name, record(&o.stdout));
    }
    if std::env::var_os("FTL_WRITE_GOLDEN").is_some() {
        std::fs::create_dir_all(golden_path.parent().unwrap()).unwrap();
        std::fs::write(&golden_path, serde_json::to_string_pretty(&got).unwrap() + "\n").unwrap();
        return;
    }
    let want: BTreeMap<String, Value> =
        serde_json::from_str(&std::fs::read_to_string(&golden_path).expect("the golden file")).unwrap();
    let mut differ = Vec::new();
    for (name, g) in &got {
        match want.get(name) {
            Some(w) if w == g => {}
            Some(w) => differ.push(format!("{name}: was {w}, now {g}")),
            None => differ.push(format!("{name}: not in the golden file")),
        }
    }
    assert!(
        differ.is_empty(),
        "{} of {} outputs differ (a change meant to alter results writes the file again: FTL_WRITE_GOLDEN=1):\n{}",
        differ.len(),
        got.len(),
        differ.join("\n")
    );
    // Every case of the golden file ran (the shared trace's cases only where it is present).
    let missing: Vec<_> =
        want.keys().filter(|k| !got.contains_key(*k) && (shared_trace().is_some() || !k.contains("mqsim"))).collect();
    assert!(missing.is_empty(), "cases not run: {missing:?}");
    assert!(got.len() >= SCHEMES.len() * 3, "only {} cases ran", got.len());
}
