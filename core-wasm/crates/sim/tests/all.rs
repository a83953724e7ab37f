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
