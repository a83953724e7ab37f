//! `ftl list`: schemes, chip presets, generators and trace formats.

use std::process::ExitCode;

use ftl_sim::ftl::REGISTRY;
use ftl_sim::nand::PRESET_NAMES;
use ftl_sim::trace::gen::GENERATORS;
use ftl_sim::trace::parse::FORMATS;

pub(crate) fn execute() -> ExitCode {
    println!("schemes:");
    for e in REGISTRY {
        println!("  {:8} {}", e.id, e.description);
    }
    println!("chips: {}", PRESET_NAMES.join(", "));
    println!("generators (--gen KIND:key=value,...):");
    for (name, what) in GENERATORS {
        println!("  {name:10} {what}");
    }
    println!("trace formats (--trace FILE --format F):");
    for (_, name, what) in FORMATS {
        println!("  {name:10} {what}");
    }
    ExitCode::SUCCESS
}
