//! `ftl export`: a workload written as a trace file on stdout.

use std::process::ExitCode;

use clap::Args;
use ftl_sim::trace::parse::Format;
use ftl_sim::trace::write::{write_oracle_general, write_trace};

use crate::output::fail;
use crate::setup::Setup;

#[derive(Args)]
pub(crate) struct ExportArgs {
    #[arg(long, default_value = "page")]
    pub(crate) scheme: String,
    #[command(flatten)]
    pub(crate) setup: Setup,
    /// Output format: umass, msr, blkparse, disksim, csv, pattern.
    #[arg(long, default_value = "pattern")]
    pub(crate) to: String,
}

pub(crate) fn execute(args: ExportArgs) -> ExitCode {
    let out = || -> Result<Vec<u8>, String> {
        let to = Format::from_name(&args.to)?;
        let (sim, _) = args.setup.build(&args.scheme)?;
        let pb = sim.state.flash.geometry().page_bytes;
        if to == Format::OracleGeneral {
            return write_oracle_general(sim.requests(), pb);
        }
        write_trace(sim.requests(), to, pb).map(String::into_bytes)
    };
    match out() {
        Ok(bytes) => {
            use std::io::Write;
            let _ = std::io::stdout().write_all(&bytes);
            ExitCode::SUCCESS
        }
        Err(e) => fail(e),
    }
}
