//! Synthetic workload generators, each seeded and deterministic.

use serde::{Deserialize, Serialize};
use ts_rs::TS;

use super::rng::SplitMix64;
use super::Request;

/// A workload as a scenario or the CLI names it.
/// The web's TS is generated from it (ts-rs): a field with a serde default may be left out.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, TS)]
#[ts(export)]
#[serde(tag = "kind", rename_all = "snake_case")]
#[serde(deny_unknown_fields)]
pub enum Workload {
    /// Writes lpn 0, 1, 2, ... wrapping over the logical space.
    Sequential {
        #[ts(type = "number")]
        n: u64,
    },
    /// Uniformly random LPNs (the FAST paper's pattern E); a share of them reads.
    Uniform {
        #[ts(type = "number")]
        n: u64,
        #[serde(default = "one")]
        #[ts(optional, as = "Option<f64>")]
        seed: u64,
        #[serde(default)]
        #[ts(optional, as = "Option<f64>")]
        read_ratio: f64,
    },
    /// Skewed: `hot_ratio` of the requests go to the first `hot_fraction` of the space.
    Hotcold {
        #[ts(type = "number")]
        n: u64,
        #[serde(default = "one")]
        #[ts(optional, as = "Option<f64>")]
        seed: u64,
        #[serde(default)]
        #[ts(optional, as = "Option<f64>")]
        read_ratio: f64,
        #[serde(default = "hot_fraction")]
        #[ts(optional, as = "Option<f64>")]
        hot_fraction: f64,
        #[serde(default = "hot_ratio")]
        #[ts(optional, as = "Option<f64>")]
        hot_ratio: f64,
    },
    /// The inline pattern language (`w0 w4 w8 r3 (w1 w2)x3`).
    Pattern { text: String },
    /// Digital camera: photos written as long sequential runs, each followed by
    /// small random updates of the FAT / directory area at the start of the space.
    Camera {
        #[ts(type = "number")]
        n: u64,
        #[serde(default = "one")]
        #[ts(optional, as = "Option<f64>")]
        seed: u64,
        /// Mean photo size in pages (each photo is 1/2..3/2 of it).
        #[serde(default = "camera_file_pages")]
        #[ts(optional, as = "Option<f64>")]
        file_pages: u64,
        /// Share of the space that is FAT / directory (at least 1 page).
        #[serde(default = "camera_fat_fraction")]
        #[ts(optional, as = "Option<f64>")]
        fat_fraction: f64,
        /// FAT / directory page writes after each photo.
        #[serde(default = "camera_fat_writes")]
        #[ts(optional, as = "Option<f64>")]
        fat_writes: u64,
    },
    /// OLTP: single-page random requests over a skewed footprint (page rank r drawn
    /// with density ~ r^(1/skew - 1), scattered over the space), a share of them reads.
    Oltp {
        #[ts(type = "number")]
        n: u64,
        #[serde(default = "one")]
        #[ts(optional, as = "Option<f64>")]
        seed: u64,
        #[serde(default = "oltp_read_ratio")]
        #[ts(optional, as = "Option<f64>")]
        read_ratio: f64,
        /// 1 = uniform; larger = more skewed (3: about 20% of pages get 60% of requests).
        #[serde(default = "oltp_skew")]
        #[ts(optional, as = "Option<f64>")]
        skew: f64,
    },
    /// Postmark: a pool of small files created, appended, read and deleted; every
    /// create, append and delete also writes a metadata page (inode / directory).
    Postmark {
        #[ts(type = "number")]
        n: u64,
        #[serde(default = "one")]
        #[ts(optional, as = "Option<f64>")]
        seed: u64,
        /// Files alive at once (at most).
        #[serde(default = "postmark_files")]
        #[ts(optional, as = "Option<f64>")]
        files: u64,
        /// Largest file in pages at creation (1..=this).
        #[serde(default = "postmark_file_pages")]
        #[ts(optional, as = "Option<f64>")]
        file_pages: u64,
        /// Share of the space kept for metadata pages (at least 1 page).
        #[serde(default = "postmark_meta_fraction")]
        #[ts(optional, as = "Option<f64>")]
        meta_fraction: f64,
    },
    /// A chosen number of live pages in every logical block: `live` pages of each
    /// `block_pages`-page logical block are written once (warm-up, in LPN order), then
    /// `n` random requests go to those live pages only (a share of them reads).
    /// RFTL's average write depends on how many valid pages a garbage collection has to
    /// copy, i.e. on the live pages per logical block, not on how many logical blocks are
    /// in use (docs/schemes/rftl.md, "Table 4 with a live-pages workload").
    Live {
        #[ts(type = "number")]
        n: u64,
        #[serde(default = "one")]
        #[ts(optional, as = "Option<f64>")]
        seed: u64,
        #[serde(default = "live_read_ratio")]
        #[ts(optional, as = "Option<f64>")]
        read_ratio: f64,
        /// Pages per logical block (the chip's pages per block for RFTL / NFTL / GFTL).
        #[ts(type = "number")]
        block_pages: u64,
        /// Live pages per logical block (1..=block_pages), spread evenly over the block.
        #[serde(default = "live_pages")]
        #[ts(optional, as = "Option<f64>")]
        live: u64,
    },
    /// A block I/O trace as text (docs/traces.md); the scenario's chip gives the
    /// page size. Built through `Scenario::build` (scenario::load).
    Trace {
        /// The trace text (empty when the requests come from a streamed parser).
        #[serde(default)]
        #[ts(optional, as = "Option<String>")]
        text: String,
        /// None: auto-detect.
        #[serde(default)]
        #[ts(optional)]
        format: Option<super::parse::Format>,
        /// Addresses beyond the logical space: none (error), fold, compact, scale.
        #[serde(default)]
        #[ts(optional, as = "Option<super::fit::Fit>")]
        fit: super::fit::Fit,
        #[serde(default)]
        #[ts(optional)]
        device: Option<String>,
        #[serde(default)]
        #[ts(optional, as = "Option<bool>")]
        skip_bad_lines: bool,
        /// blkparse: the action that counts (default D).
        #[serde(default)]
        #[ts(optional)]
        blkparse_action: Option<String>,
    },
}

/// The generators with a one-sentence description each (for the UI).
pub const GENERATORS: &[(&str, &str)] = &[
    ("sequential", "Writes pages 0, 1, 2, ... in order, wrapping around the logical space."),
    ("uniform", "Every request goes to a uniformly random page (the FAST paper's pattern E), a share of them reads."),
    ("hotcold", "A share of the requests (hot_ratio) goes to a small hot part of the space (hot_fraction), the rest to the cold part."),
    ("camera", "A digital camera: each photo is a long sequential write, followed by a few small random updates of the FAT and directory at the start of the space."),
    ("oltp", "A database: single-page random reads and writes concentrated on a skewed set of hot pages scattered over the space."),
    ("live", "Live pages per logical block: the same few pages of every logical block (live of block_pages) are written once, then rewritten and read at random; how much a block-level garbage collection has to copy."),
    ("postmark", "A mail server (Postmark): small files are created, appended, read and deleted, each change also rewriting a metadata page."),
];

fn camera_file_pages() -> u64 {
    32
}
fn camera_fat_fraction() -> f64 {
    0.02
}
fn camera_fat_writes() -> u64 {
    2
}
fn oltp_read_ratio() -> f64 {
    0.3
}
fn oltp_skew() -> f64 {
    3.0
}
fn postmark_files() -> u64 {
    64
}
fn postmark_file_pages() -> u64 {
    4
}
fn postmark_meta_fraction() -> f64 {
    0.05
}

fn live_read_ratio() -> f64 {
    0.3
}
fn live_pages() -> u64 {
    4
}

fn one() -> u64 {
    1
}
fn hot_fraction() -> f64 {
    0.2
}
fn hot_ratio() -> f64 {
    0.8
}

pub use super::MAX_REQUESTS;

impl Workload {
    /// The requests over a logical space of `logical_pages` pages.
    pub fn requests(&self, logical_pages: u32) -> Result<Vec<Request>, String> {
        let space = logical_pages as u64;
        if space == 0 {
            return Err("the scheme exports no logical pages".into());
        }
        let check_n = |n: u64| {
            if n > MAX_REQUESTS {
                Err(format!("at most {MAX_REQUESTS} generated requests (got {n})"))
            } else {
                Ok(n as usize)
            }
        };
        let check_ratio = |name: &str, r: f64| {
            if (0.0..=1.0).contains(&r) {
                Ok(())
            } else {
                Err(format!("{name} must be in [0, 1] (got {r})"))
            }
        };
        match *self {
            Workload::Sequential { n } => {
                let n = check_n(n)?;
                Ok((0..n as u64).map(|i| Request::Write { lpn: (i % space) as u32 }).collect())
            }
            Workload::Uniform { n, seed, read_ratio } => {
                let n = check_n(n)?;
                check_ratio("read_ratio", read_ratio)?;
                let mut rng = SplitMix64::new(seed);
                Ok((0..n)
                    .map(|_| {
                        let lpn = rng_lpn(&mut rng, 0, space);
                        op(&mut rng, read_ratio, lpn)
                    })
                    .collect())
            }
            Workload::Hotcold { n, seed, read_ratio, hot_fraction, hot_ratio } => {
                let n = check_n(n)?;
                check_ratio("read_ratio", read_ratio)?;
                check_ratio("hot_fraction", hot_fraction)?;
                check_ratio("hot_ratio", hot_ratio)?;
                let hot = ((space as f64 * hot_fraction).round() as u64).clamp(1, space);
                let mut rng = SplitMix64::new(seed);
                Ok((0..n)
                    .map(|_| {
                        let lpn = if rng.unit() < hot_ratio || hot == space {
                            rng_lpn(&mut rng, 0, hot)
                        } else {
                            rng_lpn(&mut rng, hot, space)
                        };
                        op(&mut rng, read_ratio, lpn)
                    })
                    .collect())
            }
            Workload::Pattern { ref text } => {
                let reqs = super::pattern::parse(text).map_err(|e| format!("pattern: {e}"))?;
                if let Some((i, r)) = reqs
                    .iter()
                    .enumerate()
                    .find(|(_, r)| r.lpn().is_some_and(|l| l as u64 >= space))
                {
                    return Err(format!(
                        "pattern: request {} addresses lpn {} but the scheme exports only {} logical pages (0..{})",
                        i + 1,
                        r.lpn().unwrap(),
                        space,
                        space - 1
                    ));
                }
                Ok(reqs)
            }
            Workload::Camera { n, seed, file_pages, fat_fraction, fat_writes } => {
                let n = check_n(n)?;
                check_ratio("fat_fraction", fat_fraction)?;
                if file_pages == 0 || file_pages > MAX_REQUESTS {
                    return Err(format!("file_pages must be in 1..={MAX_REQUESTS} (got {file_pages})"));
                }
                if fat_writes > MAX_REQUESTS {
                    return Err(format!("fat_writes must be at most {MAX_REQUESTS} (got {fat_writes})"));
                }
                Ok(camera(n, seed, space, file_pages, fat_fraction, fat_writes))
            }
            Workload::Oltp { n, seed, read_ratio, skew } => {
                let n = check_n(n)?;
                check_ratio("read_ratio", read_ratio)?;
                if !(skew.is_finite() && skew >= 1.0) {
                    return Err(format!("skew must be at least 1 (got {skew})"));
                }
                Ok(oltp(n, seed, space, read_ratio, skew))
            }
            Workload::Postmark { n, seed, files, file_pages, meta_fraction } => {
                let n = check_n(n)?;
                check_ratio("meta_fraction", meta_fraction)?;
                if files == 0 || file_pages == 0 {
                    return Err("files and file_pages must be at least 1".into());
                }
                if files > MAX_REQUESTS || file_pages > MAX_REQUESTS {
                    return Err(format!("files and file_pages must be at most {MAX_REQUESTS}"));
                }
                if space < 2 {
                    return Err("postmark needs at least 2 logical pages".into());
                }
                Ok(postmark(n, seed, space, files, file_pages, meta_fraction))
            }
            Workload::Live { n, seed, read_ratio, block_pages, live } => {
                let n = check_n(n)?;
                check_ratio("read_ratio", read_ratio)?;
                if block_pages == 0 || block_pages > space {
                    return Err(format!("block_pages must be in 1..={space} (got {block_pages})"));
                }
                if live == 0 || live > block_pages {
                    return Err(format!("live must be in 1..={block_pages} (block_pages) (got {live})"));
                }
                let blocks = space / block_pages;
                if blocks * live > MAX_REQUESTS {
                    return Err(format!("the warm-up alone would be {} requests (at most {MAX_REQUESTS})", blocks * live));
                }
                Ok(live_pages_workload(n, seed, read_ratio, blocks, block_pages, live))
            }
            Workload::Trace { .. } => Err(
                "a trace workload needs the chip's page size: build it through Scenario::build (scenario::load::build_trace)".into(),
            ),
        }
    }
}

fn region(space: u64, fraction: f64) -> u64 {
    ((space as f64 * fraction).round() as u64).clamp(1, space.saturating_sub(1).max(1))
}

fn camera(n: usize, seed: u64, space: u64, file_pages: u64, fat_fraction: f64, fat_writes: u64) -> Vec<Request> {
    let fat = region(space, fat_fraction);
    let data = space - fat;
    let mut rng = SplitMix64::new(seed);
    let mut out = Vec::with_capacity(n);
    let mut cursor = 0u64;
    while out.len() < n {
        let size = (file_pages / 2 + rng.below(file_pages + 1)).max(1);
        // Never more than the n requests asked for (a photo may be larger than n).
        for _ in 0..size.min((n - out.len()) as u64) {
            let lpn = if data == 0 { rng.below(space) } else { fat + cursor % data };
            cursor += 1;
            out.push(Request::Write { lpn: lpn as u32 });
        }
        for _ in 0..fat_writes.min((n - out.len()) as u64) {
            out.push(Request::Write { lpn: rng.below(fat) as u32 });
        }
    }
    out.truncate(n);
    out
}

/// An odd multiplier coprime with `space`, scattering ranks over the space.
fn scatter(space: u64) -> u64 {
    let gcd = |mut a: u64, mut b: u64| {
        while b != 0 {
            (a, b) = (b, a % b);
        }
        a
    };
    [2_654_435_761u64, 40_503, 7919, 104_729, 1_000_003, 3]
        .into_iter()
        .find(|&p| gcd(p % space.max(1), space) == 1)
        .unwrap_or(1)
}

fn oltp(n: usize, seed: u64, space: u64, read_ratio: f64, skew: f64) -> Vec<Request> {
    let mut rng = SplitMix64::new(seed);
    let mul = scatter(space);
    (0..n)
        .map(|_| {
            let rank = ((rng.unit().powf(skew) * space as f64) as u64).min(space - 1);
            let lpn = ((rank as u128 * mul as u128) % space as u128) as u32;
            op(&mut rng, read_ratio, lpn)
        })
        .collect()
}

fn postmark(n: usize, seed: u64, space: u64, files: u64, file_pages: u64, meta_fraction: f64) -> Vec<Request> {
    let meta = region(space, meta_fraction);
    let mut rng = SplitMix64::new(seed);
    // Free data pages, taken at random (swap_remove) and given back on delete.
    let mut free: Vec<u32> = (meta..space).map(|p| p as u32).collect();
    let mut live: Vec<Vec<u32>> = Vec::new();
    let mut out = Vec::with_capacity(n);
    let meta_write =
        |rng: &mut SplitMix64, out: &mut Vec<Request>| out.push(Request::Write { lpn: rng.below(meta) as u32 });
    while out.len() < n {
        let choice = rng.below(4);
        let must_delete = free.is_empty() || live.len() as u64 >= files;
        if (choice == 0 || live.is_empty()) && !must_delete {
            // create
            let size = 1 + rng.below(file_pages);
            let mut pages = Vec::new();
            for _ in 0..size {
                if free.is_empty() {
                    break;
                }
                let i = rng.below(free.len() as u64) as usize;
                let p = free.swap_remove(i);
                out.push(Request::Write { lpn: p });
                pages.push(p);
            }
            meta_write(&mut rng, &mut out);
            live.push(pages);
        } else if choice == 1 || must_delete {
            if live.is_empty() {
                // nothing to delete and no free page: only metadata traffic left
                meta_write(&mut rng, &mut out);
                continue;
            }
            let i = rng.below(live.len() as u64) as usize;
            free.extend(live.swap_remove(i));
            meta_write(&mut rng, &mut out);
        } else if choice == 2 {
            // read a whole file
            let f = &live[rng.below(live.len() as u64) as usize];
            out.extend(f.iter().map(|&lpn| Request::Read { lpn }));
        } else {
            // append one page
            if free.is_empty() {
                continue;
            }
            let i = rng.below(free.len() as u64) as usize;
            let p = free.swap_remove(i);
            let k = rng.below(live.len() as u64) as usize;
            live[k].push(p);
            out.push(Request::Write { lpn: p });
            meta_write(&mut rng, &mut out);
        }
    }
    out.truncate(n);
    out
}

/// Live page `i` (0..live) of logical block `b`: spread evenly over the block's offsets.
fn live_lpn(b: u64, i: u64, block_pages: u64, live: u64) -> u32 {
    (b * block_pages + i * block_pages / live) as u32
}

fn live_pages_workload(n: usize, seed: u64, read_ratio: f64, blocks: u64, block_pages: u64, live: u64) -> Vec<Request> {
    let mut rng = SplitMix64::new(seed);
    let mut out = Vec::with_capacity((blocks * live) as usize + n);
    for b in 0..blocks {
        for i in 0..live {
            out.push(Request::Write { lpn: live_lpn(b, i, block_pages, live) });
        }
    }
    for _ in 0..n {
        let lpn = live_lpn(rng.below(blocks), rng.below(live), block_pages, live);
        out.push(op(&mut rng, read_ratio, lpn));
    }
    out
}

fn rng_lpn(rng: &mut SplitMix64, lo: u64, hi: u64) -> u32 {
    (lo + rng.below(hi - lo)) as u32
}

fn op(rng: &mut SplitMix64, read_ratio: f64, lpn: u32) -> Request {
    if read_ratio > 0.0 && rng.unit() < read_ratio {
        Request::Read { lpn }
    } else {
        Request::Write { lpn }
    }
}
