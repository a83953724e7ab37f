//! The cli crate's integration tests as one test binary: each file below was its own
//! binary, linking the crate and instantiating its generics again (53 binaries were 568 of
//! 1,621 unit-seconds of a fresh clone's `cargo test`). A new test file is listed here.

mod bad_input;
mod bench_player;
mod cli;
mod common;
mod crash_reproducers;
mod docs_flags;
mod list;
mod same_results;
mod scale_out;
mod ssd;
mod ssd_flags;
mod streamed;
mod sweep_plan;
mod timing;
