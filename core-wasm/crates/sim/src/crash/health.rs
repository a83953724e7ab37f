//! Device health over a chain of cuts (issue 29): the cuts aimed at the places random
//! points rarely hit, and the block pools a recovery leaves, held against a cut-free run.

use serde::Serialize;

use crate::ftl::{BlockRole, MetaKind};
use crate::nand::{Cause, Event, OpKind};
use crate::sim::State;
use crate::trace::rng::SplitMix64;
use crate::trace::Request;

/// Where a targeted cut is aimed.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Target {
    /// Right after a metadata program of this kind (the page is whole, what follows it —
    /// compaction, the map page naming it — is not done).
    After(MetaKind),
    /// A program into a GC or merge destination, torn.
    InGcDestination,
    /// A program into the last free block, torn.
    LastFreeBlock,
}

pub const TARGETS: [Target; 6] = [
    Target::After(MetaKind::Checkpoint),
    Target::After(MetaKind::MapPage),
    Target::After(MetaKind::MapDirectory),
    Target::After(MetaKind::IntentLog),
    Target::InGcDestination,
    Target::LastFreeBlock,
];

impl Target {
    pub fn name(self) -> &'static str {
        match self {
            Target::After(MetaKind::Checkpoint) => "after_checkpoint",
            Target::After(MetaKind::MapPage) => "after_map_page",
            Target::After(MetaKind::MapDirectory) => "after_map_directory",
            Target::After(MetaKind::IntentLog) => "after_intent_log",
            Target::InGcDestination => "in_gc_destination",
            Target::LastFreeBlock => "at_last_free_block",
        }
    }
}

/// How often each target was offered by a request in flight, and cut at.
#[derive(Clone, Debug, Serialize)]
pub struct TargetCount {
    pub target: &'static str,
    /// Requests in flight with at least one such operation.
    pub offered: u64,
    /// Cuts aimed at it.
    pub cut: u64,
}

pub(crate) fn target_counts() -> Vec<TargetCount> {
    TARGETS.iter().map(|t| TargetCount { target: t.name(), offered: 0, cut: 0 }).collect()
}

/// For every operation of a request (its events, run on a copy of `before` to the end as
/// `done`), the power budget that hits each target: (target, budget) pairs.
pub(crate) fn targets_of(events: &[Event], before: &State, done: &State) -> Vec<(Target, u64)> {
    let mut out = Vec::new();
    let roles = |s: &State, b| s.ftl.block_role(b);
    let mut free_left = (0..before.flash.blocks()).filter(|&b| roles(before, b) == BlockRole::Free).count();
    let mut opened: Vec<u32> = Vec::new();
    let mut i = 0u64;
    for e in events {
        let Event::Op { kind, ppn, pbn, cause, .. } = *e else { continue };
        if kind == OpKind::Program {
            let page = done.flash.peek(ppn);
            if let Some(k) = done.ftl.meta_kind(page.tag).filter(|_| page.kind == crate::nand::PageKind::Meta) {
                out.push((Target::After(k), i + 1));
            }
            if is_merge(cause) {
                out.push((Target::InGcDestination, i));
            }
            if roles(before, pbn) == BlockRole::Free && !opened.contains(&pbn) {
                opened.push(pbn);
                if free_left == 1 {
                    out.push((Target::LastFreeBlock, i));
                }
                free_left = free_left.saturating_sub(1);
            }
        } else if kind == OpKind::Erase && roles(before, pbn) != BlockRole::Free {
            free_left += 1;
        }
        i += 1;
    }
    out
}

/// Counts what the request offers and, when `aim`, picks one target (uniformly among the
/// kinds, then among its operations).
pub(crate) fn pick_target(
    rng: &mut SplitMix64,
    offered: &[(Target, u64)],
    counts: &mut [TargetCount],
    aim: bool,
) -> Option<(Target, u64)> {
    let mut kinds: Vec<Target> = offered.iter().map(|x| x.0).collect();
    kinds.sort();
    kinds.dedup();
    for k in &kinds {
        counts[TARGETS.iter().position(|t| t == k).unwrap()].offered += 1;
    }
    if kinds.is_empty() || !aim {
        return None;
    }
    let k = kinds[rng.below(kinds.len() as u64) as usize];
    let at: Vec<u64> = offered.iter().filter(|x| x.0 == k).map(|x| x.1).collect();
    counts[TARGETS.iter().position(|t| *t == k).unwrap()].cut += 1;
    Some((k, at[rng.below(at.len() as u64) as usize]))
}

/// The pools every recovery must leave within their cut-free bound (issue 34: "never
/// stuck, by construction"): the free pool (the GC reserve: never fewer free blocks than a
/// cut-free run has between requests) and every pool of metadata or log blocks a scheme
/// allocates from it (never more). Data, primary blocks and the open frontiers (the active
/// block, a GC destination) are not pools: a recovery may leave a destination open that a
/// cut-free run had closed by the end of the request.
pub fn is_checked_pool(r: BlockRole) -> bool {
    !matches!(r, BlockRole::Data | BlockRole::Active | BlockRole::Primary | BlockRole::GcDestination)
}

/// Blocks per pool (indexed by `BlockRole as usize`; `Ftl::pool_of` folds roles).
pub(crate) fn pools(s: &State) -> [u32; 14] {
    let mut n = [0u32; 14];
    for b in 0..s.flash.blocks() {
        n[s.ftl.pool_of(s.ftl.block_role(b)) as usize] += 1;
    }
    n
}

/// A pool's size after recoveries against a cut-free run of the same workload.
#[derive(Clone, Debug, Serialize)]
pub struct PoolBound {
    pub role: BlockRole,
    /// Cut-free run: the fewest (free blocks) or the most (every other role but data) blocks.
    pub cut_free: u32,
    /// The same over every recovered state of the chain.
    pub after_recovery: u32,
    /// The scheme's structural cap on this pool (`Ftl::pool_cap`), which recoveries are
    /// judged against instead of `cut_free` (absent: judged against `cut_free`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub cap: Option<u32>,
}

/// The scheme's structural caps (`Ftl::pool_cap`) by role.
pub(crate) fn pool_caps(s: &State) -> [Option<u32>; 14] {
    let mut c = [None; 14];
    for r in ALL_ROLES.into_iter().filter(|&r| is_checked_pool(r)) {
        c[r as usize] = s.ftl.pool_cap(r);
    }
    c
}

/// The pools a recovery may not exceed: over a cut-free run of `requests` requests from
/// `fresh` (the chain's own workload, another seed), the most blocks of every role but
/// data and free, and the fewest free blocks.
pub(crate) fn cut_free_bounds(fresh: &State, o: &super::ChainOptions, requests: u64) -> Option<[u32; 14]> {
    let (mut rng, mut feed) = cut_free_feed(o);
    let b = bounds_over(vec![fresh.clone()], requests, |s| {
        let r = feed.next(&mut rng, &s[0], o);
        s[0].exec(r).ok()?;
        super::judge::sync_frozen(&mut s[0]);
        Some(0)
    })?;
    Some(b[0])
}

/// The draws of a chain's cut-free run: its own seed, a feed from the workload's start.
pub(crate) fn cut_free_feed(o: &super::ChainOptions) -> (SplitMix64, Feed) {
    (SplitMix64::new(o.seed ^ 0x5eed_c0de), Feed::new())
}

/// Each chip's bounds over a cut-free run of `steps` steps from `chips` (one chip, or a
/// device's dies): `step` runs the next request and says which chip it ran on (None: the
/// run failed).
pub(crate) fn bounds_over(
    mut chips: Vec<State>,
    steps: u64,
    mut step: impl FnMut(&mut [State]) -> Option<usize>,
) -> Option<Vec<[u32; 14]>> {
    let mut b: Vec<[u32; 14]> = chips.iter().map(pools).collect();
    for _ in 0..steps {
        let k = step(&mut chips)?;
        merge_bounds(&mut b[k], &pools(&chips[k]));
    }
    Some(b)
}

pub(crate) fn merge_bounds(b: &mut [u32; 14], p: &[u32; 14]) {
    for (r, (x, &y)) in b.iter_mut().zip(p).enumerate() {
        *x = if r == BlockRole::Free as usize { (*x).min(y) } else { (*x).max(y) };
    }
}

/// One checked pool outside its bound after a recovery.
pub(crate) struct Excess {
    role: BlockRole,
    /// The bound: the scheme's structural cap if it has one, else the cut-free run's figure.
    bound: u32,
    capped: bool,
    blocks: u32,
}

/// The checked pools of `p` outside their bound (free blocks fewer, any other pool more):
/// a pool the scheme caps (`caps`) against its cap, every other one against the cut-free
/// run (`bound`).
pub(crate) fn excess(bound: &[u32; 14], caps: &[Option<u32>; 14], p: &[u32; 14]) -> Vec<Excess> {
    ALL_ROLES
        .iter()
        .filter(|&&r| is_checked_pool(r))
        .filter_map(|&r| {
            let cap = caps[r as usize];
            let (c, x) = (cap.unwrap_or(bound[r as usize]), p[r as usize]);
            let bad = if r == BlockRole::Free { x < c } else { x > c };
            bad.then_some(Excess { role: r, bound: c, capped: cap.is_some(), blocks: x })
        })
        .collect()
}

/// "free 1 block, 2 fewer than the cut-free run's fewest (3); map 9 blocks, 6 more than
/// its most (3)".
pub(crate) fn describe_excess(bad: &[Excess]) -> String {
    bad.iter()
        .map(|e| {
            let (c, x) = (e.bound, e.blocks);
            let free = e.role == BlockRole::Free;
            let (than, more) = if free { (c - x, "fewer") } else { (x - c, "more") };
            let of = match (e.capped, free) {
                (true, _) => "the scheme's cap",
                (false, true) => "the cut-free run's fewest",
                (false, false) => "the cut-free run's most",
            };
            format!("{:?} {x} blocks, {than} {more} than {of} ({c})", e.role)
        })
        .collect::<Vec<_>>()
        .join("; ")
}

/// One chip's pools held to their bound after each recovery (a chain's chip, or each die
/// of a device): the bound, the scheme's caps, and each pool's extreme so far.
pub(crate) struct PoolCheck {
    bound: [u32; 14],
    caps: [Option<u32>; 14],
    seen: [u32; 14],
}

impl PoolCheck {
    /// `bound` from a cut-free run (`cut_free_bounds`); `start` the chip before the first cut.
    pub(crate) fn new(bound: [u32; 14], start: &State) -> PoolCheck {
        PoolCheck { bound, caps: pool_caps(start), seen: pools(start) }
    }

    /// The pools of recovered `s` beyond their bound, in words (None: all within it).
    pub(crate) fn after_recovery(&mut self, s: &State) -> Option<String> {
        let p = pools(s);
        merge_bounds(&mut self.seen, &p);
        let bad = excess(&self.bound, &self.caps, &p);
        (!bad.is_empty()).then(|| describe_excess(&bad))
    }

    /// Every pool but data that either run had: its bound and its extreme after recoveries.
    pub(crate) fn report(&self) -> Vec<PoolBound> {
        ALL_ROLES
            .iter()
            .filter(|&&r| r != BlockRole::Data && (self.bound[r as usize] > 0 || self.seen[r as usize] > 0))
            .map(|&r| PoolBound {
                role: r,
                cut_free: self.bound[r as usize],
                after_recovery: self.seen[r as usize],
                cap: self.caps[r as usize],
            })
            .collect()
    }

    /// One check per die of a device, each held to the extremes over every die of the
    /// cut-free run (`bounds`, one per die): the dies are the same chip and scheme, and a
    /// die's share of a skewed workload (a hot page on one die) reaches in one sample of
    /// the run what another die's reaches in another.
    pub(crate) fn per_die(bounds: &[[u32; 14]], dies: &[State]) -> Vec<PoolCheck> {
        let Some((first, rest)) = bounds.split_first() else { return Vec::new() };
        let mut b = *first;
        for x in rest {
            merge_bounds(&mut b, x);
        }
        dies.iter().map(|s| PoolCheck::new(b, s)).collect()
    }

    /// Several chips' checks as one (a device's dies): the extremes over them.
    pub(crate) fn merged(checks: &[PoolCheck]) -> Option<PoolCheck> {
        let (first, rest) = checks.split_first()?;
        let mut m = PoolCheck { bound: first.bound, caps: first.caps, seen: first.seen };
        for c in rest {
            merge_bounds(&mut m.bound, &c.bound);
            merge_bounds(&mut m.seen, &c.seen);
        }
        Some(m)
    }
}

pub(crate) const ALL_ROLES: [BlockRole; 14] = [
    BlockRole::Free,
    BlockRole::Data,
    BlockRole::Active,
    BlockRole::SwLog,
    BlockRole::RwLog,
    BlockRole::Log,
    BlockRole::Primary,
    BlockRole::Replacement,
    BlockRole::Buffer,
    BlockRole::Metadata,
    BlockRole::MapBlock,
    BlockRole::Checkpoint,
    BlockRole::MapDirectory,
    BlockRole::GcDestination,
];

/// The chain's workload. Without a generated one (`ChainOptions::workload`): half uniform
/// over the logical space, half in a hot eighth of it, `read_ratio` reads. With one
/// (`--gen` / `--pattern`): its requests in order, from the start again after the last.
/// With time shift, 8 % freeze / unfreeze / revert either way.
/// A request of a generated workload cut in flight, or drawn when the power failed before
/// it started, is offered again (the host retries what was not acknowledged), so a
/// sequential workload stays sequential across cuts, as in the cut-free run that bounds
/// the pools.
pub(crate) struct Feed {
    next: usize,
    retry: Option<Request>,
}

impl Feed {
    pub(crate) fn new() -> Feed {
        Feed { next: 0, retry: None }
    }

    /// `r` was cut in flight: with a generated workload, it comes next again.
    pub(crate) fn cut(&mut self, r: Request, o: &super::ChainOptions) {
        if o.workload.is_some() && r.lpn().is_some() {
            self.retry = Some(r);
        }
    }

    pub(crate) fn next(&mut self, rng: &mut SplitMix64, s: &State, o: &super::ChainOptions) -> Request {
        if let Some(r) = self.retry.take() {
            return r;
        }
        if o.time_shift && rng.unit() < 0.08 {
            let live = s.ftl.frozen_states();
            let pick = rng.below(3);
            if live.is_empty() || (pick == 0 && live.len() < 4) {
                return Request::Freeze;
            }
            let id = live[rng.below(live.len() as u64) as usize];
            return if pick == 1 { Request::Unfreeze { state: id } } else { Request::Revert { state: id } };
        }
        self.next_in(rng, s.ftl.logical_pages() as u64, o)
    }

    /// The next read or write over a logical space of `lp` pages (a chip's, or a device's:
    /// no time shift there).
    pub(crate) fn next_in(&mut self, rng: &mut SplitMix64, lp: u64, o: &super::ChainOptions) -> Request {
        if let Some(r) = self.retry.take() {
            return r;
        }
        if let Some(w) = o.workload.as_ref().filter(|w| !w.is_empty()) {
            let r = w[self.next % w.len()];
            self.next = (self.next + 1) % w.len();
            return r;
        }
        // Half uniform over the space, half in a hot eighth of it.
        let lp = lp.max(1);
        let lpn = if rng.unit() < 0.5 { rng.below(lp) } else { rng.below(lp.div_ceil(8)) } as u32;
        if rng.unit() < o.read_ratio {
            Request::Read { lpn }
        } else {
            Request::Write { lpn }
        }
    }
}

pub(crate) fn is_merge(c: Cause) -> bool {
    matches!(c, Cause::Gc | Cause::Switch | Cause::PartialMerge | Cause::FullMerge | Cause::Fill | Cause::WearLevel)
}
