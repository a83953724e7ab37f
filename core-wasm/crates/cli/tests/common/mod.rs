//! What the CLI tests share: run the built `ftl` (in the repository root, where the
//! docs' relative trace paths resolve) and read what it printed.
// Each test file (a module of tests/all.rs) uses its own subset of these.
#![allow(dead_code)]

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use serde_json::Value;

/// The repository root (the paths in docs/cli.md, `traces/...`, are relative to it).
pub fn repo() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../..")
}

/// `ftl ARGS` run in `dir`.
pub fn ftl_in(dir: &Path, args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_ftl")).args(args).current_dir(dir).output().expect("the ftl binary runs")
}

/// `ftl ARGS` run in the repository root.
pub fn ftl(args: &[&str]) -> Output {
    ftl_in(&repo(), args)
}

pub fn code(o: &Output) -> i32 {
    o.status.code().expect("exited normally")
}

pub fn stdout(o: &Output) -> String {
    String::from_utf8(o.stdout.clone()).expect("UTF-8 output")
}

pub fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

/// Standard output of `ftl ARGS`, which must exit 0 (else its stderr is the failure).
pub fn ok(args: &[&str]) -> String {
    let o = ftl(args);
    assert_eq!(code(&o), 0, "ftl {args:?}: {}", stderr(&o));
    stdout(&o)
}

/// The one JSON object `ftl ARGS` prints (exit 0).
pub fn json(args: &[&str]) -> Value {
    serde_json::from_str(ok(args).trim()).expect("one JSON object")
}
