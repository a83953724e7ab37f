//! The bounds every input is held to (issue 34, item 5), shared by the CLI and the wasm
//! boundary so both refuse the same counts with the same one-line messages: each count
//! has a cap, each file read a size limit, and a Session's chip a memory budget.
//! docs/cli.md ("Limits") lists them.

use crate::crash::Points;
use crate::nand::{Event, Geometry};

/// Cut points of a crash sweep (`--random N`, wasm `crash_sweep {random}`): each one is
/// held in memory (8 bytes) and each one is a recovery.
pub const MAX_RANDOM_POINTS: u64 = 10_000_000;
/// Cuts of one chain (`--chain N`): each is a recovery and a verification.
pub const MAX_CHAIN_CUTS: u64 = 10_000_000;
/// Requests of the cut-free run that bounds a chain's pools (`--pool-baseline N`).
pub const MAX_POOL_BASELINE: u64 = 10_000_000;
/// Recoveries per sweep row (`ftl sweep --recovery --recovery-samples K`).
pub const MAX_RECOVERY_SAMPLES: u64 = 1000;
/// `ftl bench --runs N`.
pub const MAX_BENCH_RUNS: u64 = 1000;
/// `--every N` / wasm `{every}`: a step over the run's operations (held in a usize on
/// 32-bit wasm).
pub const MAX_EVERY: u64 = u32::MAX as u64;
/// A scenario file (`ftl run --scenario`, `ftl bench --scenario @FILE`): JSON, which may
/// embed a pattern (at most 64 MB of text) or a trace's text.
pub const MAX_SCENARIO_BYTES: u64 = 64 << 20;
/// `ftl merge`: all its input (the rows are kept to be put in order), and one line.
pub const MAX_MERGE_BYTES: u64 = 128 << 20;
pub const MAX_MERGE_LINE: u64 = MAX_SCENARIO_BYTES + (1 << 20);
/// A Session's simulation memory (the app, wasm): see `session_memory`.
pub const SESSION_MEMORY_BUDGET: u64 = 1 << 30;
/// Keyframes a Session keeps (wasm memory is small; the CLI keeps more).
pub const SESSION_KEYFRAME_BYTES: usize = 16 << 20;
/// Requests between the keyframe a Stepper keeps near the cursor and the target of the
/// long seek back that made it (`Simulator::set_near_keyframe`): the next this many steps
/// back replay at most this many requests each.
pub const NEAR_KEYFRAME_GAP: usize = 256;

/// The cut points of a crash sweep from its options (`--all`, `--every N`, `--random N`),
/// with the caps above. The CLI and wasm `crash_sweep` both use it.
pub fn cut_points(all: bool, every: Option<u64>, random: Option<u64>, seed: u64) -> Result<Points, String> {
    match (all, every, random) {
        (true, _, _) => Ok(Points::All),
        (_, Some(0), _) => Err("every 0: give a step of at least 1".into()),
        (_, Some(n), _) if n > MAX_EVERY => Err(format!("every {n}: the step is at most {MAX_EVERY} operations")),
        (_, Some(n), _) => Ok(Points::Every(n)),
        (_, _, Some(n)) if n > MAX_RANDOM_POINTS => Err(format!(
            "random {n}: at most {MAX_RANDOM_POINTS} cut points (all cuts after every operation of the run)"
        )),
        (_, _, Some(n)) => Ok(Points::Random { n, seed }),
        _ => Err("choose the cut points: all, every N or random N".into()),
    }
}

/// `what` must be at most `max` (a count flag): the one-line refusal otherwise.
pub fn at_most(what: &str, n: u64, max: u64) -> Result<u64, String> {
    if n > max {
        return Err(format!("{what} {n}: at most {max}"));
    }
    Ok(n)
}

/// Bytes one simulation state (chip pages, the scheme's tables, the reference model)
/// takes, at most: measured for every scheme (`tests/session_memory.rs` holds each to
/// it) at 19–41 bytes a page plus a few dozen a block.
pub fn state_bytes(g: &Geometry) -> u64 {
    g.blocks as u64 * g.pages_per_block as u64 * 48 + g.blocks as u64 * 96
}

/// The memory a Session of this chip may take: the state, the state before the request
/// being stepped and the moment shown (three copies while stepping by operation), plus
/// its keyframes. Refused over `SESSION_MEMORY_BUDGET` with a one-line error naming the
/// limit (before, the largest chip took up to 2.96 GB of wasm memory, and a second one
/// trapped the module).
pub fn session_memory(g: &Geometry) -> Result<u64, String> {
    let need = 3 * state_bytes(g) + SESSION_KEYFRAME_BYTES as u64;
    if need > SESSION_MEMORY_BUDGET {
        return Err(format!(
            "chip too large for the app: {} blocks x {} pages needs about {} MB of simulation memory, over the limit of {} MB (use the ftl CLI for chips this large)",
            g.blocks,
            g.pages_per_block,
            need >> 20,
            SESSION_MEMORY_BUDGET >> 20
        ));
    }
    Ok(need)
}

/// The memory a device of `dies` dies of this chip stepped op by op may take (the app's
/// device view, crates/wasm/src/device.rs): per die the state, the state before the request
/// being stepped, the moment shown and the keyframe near the cursor, the keyframes shared,
/// plus `workload_bytes` (`DeviceStepper::workload_bytes`: the workload's copy and the
/// plan; 0 for the check before the device is planned). Refused over
/// `SESSION_MEMORY_BUDGET` with one line naming the limit.
pub fn device_memory(g: &Geometry, dies: u32, workload_bytes: u64) -> Result<u64, String> {
    let need = dies as u64 * 4 * state_bytes(g) + SESSION_KEYFRAME_BYTES as u64 + workload_bytes;
    if need > SESSION_MEMORY_BUDGET {
        return Err(format!(
            "device too large for the app: {dies} dies of {} blocks x {} pages{} need about {} MB of simulation memory, over the limit of {} MB (fewer dies, a smaller chip or a shorter workload, or the ftl CLI)",
            g.blocks,
            g.pages_per_block,
            if workload_bytes > 0 { format!(" and their workload ({} MB)", workload_bytes >> 20) } else { String::new() },
            need >> 20,
            SESSION_MEMORY_BUDGET >> 20
        ));
    }
    Ok(need)
}

/// Bytes one recovery on a Session's branch keeps for stepping back and for seeking inside
/// the branch (the stepper's roots): three states (the recovered one, the chip the cut
/// left, the state before the request it interrupted), the device view of the cut moment
/// (a page state a page, a role and an owner list a block) and the recovery's events
/// (`events_bytes`).
pub fn root_bytes(g: &Geometry, events_bytes: u64) -> u64 {
    use std::mem::size_of;
    let view = g.pages() as u64 * size_of::<crate::ftl::PageState>() as u64
        + g.blocks as u64 * (size_of::<crate::ftl::BlockRole>() + size_of::<Vec<u32>>() + 4) as u64;
    3 * state_bytes(g) + view + events_bytes
}

/// Bytes a list of events takes (each event, and a note's text).
pub fn events_bytes(events: &[Event]) -> u64 {
    events
        .iter()
        .map(|e| {
            std::mem::size_of::<Event>() as u64
                + match e {
                    Event::Note { text, .. } => text.len() as u64,
                    Event::Op { .. } => 0,
                }
        })
        .sum()
}

/// What a Session of this chip may keep of recoveries (`root_bytes` each): the budget less
/// the states and keyframes `session_memory` counts. A power cut that would take the
/// recoveries kept past it is refused (`Stepper::power_cut`).
pub fn roots_budget(g: &Geometry) -> u64 {
    SESSION_MEMORY_BUDGET.saturating_sub(3 * state_bytes(g) + SESSION_KEYFRAME_BYTES as u64)
}
