//! The sim crate's integration tests as one test binary: each file below was its own
//! binary, linking the crate and instantiating its generics again (53 binaries were 568 of
//! 1,621 unit-seconds of a fresh clone's `cargo test`). A new test file is listed here.
//! `session_memory.rs` stays its own binary: it installs a counting global allocator.

mod bad_input;
mod chains;
mod common;
mod compare_plan;
mod counting;
mod crash;
mod delta;
mod dftl;
mod fast;
mod fast_recovery;
mod fastcheck;
mod fastcheck_cuts;
mod fit_preview;
mod full_speed;
mod gftl_recovery;
mod kraft;
mod ltftl;
mod moments;
mod nand;
mod opexact;
mod page_mapping;
mod readers;
mod recovery2;
mod rftl;
mod run_ahead;
mod run_loop;
mod runlog;
mod session_cuts;
mod ssd;
mod ssd_cuts;
mod ssd_step;
mod ssd_step_cut;
mod stepper;
mod stream_batches;
mod streamed;
mod timing;
mod timing_trace;
mod traces;
mod validity;

/// With `autotests` off a test file that its crate's all.rs does not list would never run:
/// every `tests/*.rs` of the sim and cli crates, but the binaries of their own, must be a
/// module of its all.rs (checked here for both crates).
#[test]
fn every_test_file_is_listed() {
    let crates = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let own_binaries = ["all.rs", "session_memory.rs"];
    for krate in ["sim", "cli"] {
        let dir = crates.join(krate).join("tests");
        let listed = std::fs::read_to_string(dir.join("all.rs")).unwrap();
        for entry in std::fs::read_dir(&dir).unwrap() {
            let name = entry.unwrap().file_name().into_string().unwrap();
            if let Some(module) = name.strip_suffix(".rs").filter(|_| !own_binaries.contains(&name.as_str())) {
                let line = format!("\nmod {module};\n");
                assert!(listed.contains(&line), "crates/{krate}/tests/{name} is not listed in its tests/all.rs");
            }
        }
    }
}

/// The cli's `ftl` binary has `test = false` and the sim and wasm libraries `doctest = false`
/// (their Cargo.toml): none held a test, and each cost `cargo test` a release compile of its
/// own in every fresh clone (the cli crate a second time; the wasm crate as a host cdylib
/// and rlib, built only for rustdoc). So a `#[test]` in crates/cli/src, or a code block in a
/// doc comment of any crate, would never run: this test fails first.
#[test]
fn what_npm_test_leaves_out_holds_no_tests() {
    fn rust_files(dir: &std::path::Path, out: &mut Vec<std::path::PathBuf>) {
        for entry in std::fs::read_dir(dir).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                rust_files(&path, out);
            } else if path.extension().is_some_and(|e| e == "rs") {
                out.push(path);
            }
        }
    }
    let crates = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let mut checked = 0;
    for krate in ["sim", "cli", "wasm"] {
        let mut files = Vec::new();
        rust_files(&crates.join(krate).join("src"), &mut files);
        for file in files {
            let text = std::fs::read_to_string(&file).unwrap();
            for (i, line) in text.lines().enumerate() {
                let l = line.trim_start();
                let doc_code = (l.starts_with("///") || l.starts_with("//!")) && l.contains("```");
                let cli_test = krate == "cli" && (l.starts_with("#[test]") || l.starts_with("#[cfg(test)]"));
                assert!(
                    !doc_code && !cli_test,
                    "{}:{}: a test `cargo test` would not run (test = false / doctest = false in Cargo.toml)",
                    file.display(),
                    i + 1
                );
            }
            checked += 1;
        }
    }
    assert!(checked > 50, "only {checked} source files found");
}
