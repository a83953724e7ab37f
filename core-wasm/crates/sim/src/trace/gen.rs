//! Synthetic workload generators, each seeded and deterministic.

use serde::{Deserialize, Serialize};

use super::rng::SplitMix64;
use super::Request;

/// A workload as a scenario or the CLI names it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case", deny_unknown_fields)]
pub enum Workload {
    /// Writes lpn 0, 1, 2, ... wrapping over the logical space.
    Sequential { n: u64 },
    /// Uniformly random LPNs (the FAST paper's pattern E); a share of them reads.
    Uniform {
        n: u64,
        #[serde(default = "one")]
        seed: u64,
        #[serde(default)]
        read_ratio: f64,
    },
    /// Skewed: `hot_ratio` of the requests go to the first `hot_fraction` of the space.
    Hotcold {
        n: u64,
        #[serde(default = "one")]
        seed: u64,
        #[serde(default)]
        read_ratio: f64,
        #[serde(default = "hot_fraction")]
        hot_fraction: f64,
        #[serde(default = "hot_ratio")]
        hot_ratio: f64,
    },
    /// The inline pattern language (`w0 w4 w8 r3 (w1 w2)x3`).
    Pattern { text: String },
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

/// Largest generated workload (requests are held in memory, 8 bytes each).
pub const MAX_REQUESTS: u64 = 20_000_000;

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
        }
    }
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
