//! The NAND chip: geometry and timing presets, page contents with a spare area,
//! NAND rules, erase counts, power loss, and the operation event stream.

mod flash;
mod geometry;

pub use flash::*;
pub use geometry::*;
