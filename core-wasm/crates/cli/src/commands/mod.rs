//! One module per subcommand: its flags (clap derive) and `execute`, which prints and
//! gives the exit code.

pub(crate) mod bench;
pub(crate) mod crash_sweep;
pub(crate) mod export;
pub(crate) mod list;
pub(crate) mod ram;
pub(crate) mod run;
pub(crate) mod sweep;
pub(crate) mod trace;
