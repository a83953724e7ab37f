//! ftlscope's simulator core: a NAND chip, FTL schemes from the papers, a reference
//! model, metrics and time travel. Pure Rust: no wasm or JS types (crates/wasm wraps it).

pub mod crash;
pub mod fit;
pub mod ftl;
pub mod limits;
pub mod metrics;
pub mod moment;
pub mod nand;
pub mod oracle;
pub mod precondition;
pub mod runlog;
pub mod scenario;
pub mod sim;
pub mod ssd;
pub mod ssd_step;
pub mod stepper;
pub mod timing;
pub mod trace;
