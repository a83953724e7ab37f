//! One module per subcommand: its flags (clap derive) and `execute`, which prints and
//! gives the exit code.

pub(crate) mod bench;
pub(crate) mod crash_sweep;
pub(crate) mod export;
pub(crate) mod list;
pub(crate) mod merge;
pub(crate) mod ram;
/// One configuration run to the end: `run` and every `sweep` row.
pub(crate) mod row;
pub(crate) mod run;
pub(crate) mod sweep;
pub(crate) mod trace;
