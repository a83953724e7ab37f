//! Workloads: the host requests a run replays. Parsers for trace formats and
//! synthetic generators live here.

use serde::Serialize;
use ts_rs::TS;

use crate::nand::Lpn;

pub mod fit;
pub mod gen;
pub mod parse;
pub mod pattern;
pub mod requests;
pub mod rng;
pub(crate) mod runs;
pub mod write;

/// Largest workload (requests are held in memory: 8 bytes each, or per run of pages for a
/// parsed trace, `runs`): generated, parsed or
/// expanded from a pattern. Here, not in `gen`, so the parsers need not import the
/// generators (no module cycle).
pub const MAX_REQUESTS: u64 = 20_000_000;

/// One host request.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, TS)]
#[ts(export)]
#[serde(tag = "op", rename_all = "snake_case")]
pub enum Request {
    Read {
        lpn: Lpn,
    },
    Write {
        lpn: Lpn,
    },
    /// Time-shifting schemes (LTFTL): freeze the current state.
    Freeze,
    Unfreeze {
        state: u32,
    },
    Revert {
        state: u32,
    },
}

impl Request {
    pub fn lpn(&self) -> Option<Lpn> {
        match *self {
            Request::Read { lpn } | Request::Write { lpn } => Some(lpn),
            _ => None,
        }
    }
}

/// A parse error with its place in the input.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, TS)]
#[ts(export, rename = "LineError")]
pub struct ParseError {
    pub line: usize,
    pub column: usize,
    pub message: String,
}

impl std::fmt::Display for ParseError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "line {}, column {}: {}", self.line, self.column, self.message)
    }
}

/// The request-list hash every output prints (`ftl run --json`, sweep rows, the app's
/// compare): FNV-1a 64 over one tag byte and the little-endian u32 operand of each
/// request, as 16 hex digits. Two runs with the same hash replayed the same requests.
pub fn request_hash(reqs: &[Request]) -> String {
    request_hash_of(reqs.iter().copied())
}

/// `request_hash` of requests in any store (`requests::Requests`).
pub fn request_hash_of(reqs: impl Iterator<Item = Request>) -> String {
    let mut h = RequestHash::default();
    for r in reqs {
        h.push(r);
    }
    h.hex()
}

/// `request_hash` taken request by request (a streamed run's requests are never held).
#[derive(Clone, Copy, Debug)]
pub struct RequestHash(u64);

impl Default for RequestHash {
    fn default() -> Self {
        RequestHash(0xcbf2_9ce4_8422_2325)
    }
}

impl RequestHash {
    #[inline]
    pub fn push(&mut self, r: Request) {
        let (tag, v) = match r {
            Request::Read { lpn } => (0u8, lpn),
            Request::Write { lpn } => (1, lpn),
            Request::Freeze => (2, 0),
            Request::Unfreeze { state } => (3, state),
            Request::Revert { state } => (4, state),
        };
        self.fold(tag as u64, v);
    }
    /// `push` of a read (`write` false) or a write of `lpn`: the tag without a match.
    #[inline(always)]
    pub fn push_page(&mut self, write: bool, lpn: Lpn) {
        self.fold(write as u64, lpn);
    }
    /// FNV-1a over the tag and the value's 4 bytes (written out: the chained iterator
    /// was not unrolled; issue 37).
    #[inline(always)]
    fn fold(&mut self, tag: u64, v: u32) {
        const PRIME: u64 = 0x0100_0000_01b3;
        let mut h = (self.0 ^ tag).wrapping_mul(PRIME);
        for b in v.to_le_bytes() {
            h = (h ^ b as u64).wrapping_mul(PRIME);
        }
        self.0 = h;
    }
    pub fn hex(&self) -> String {
        format!("{:016x}", self.0)
    }
}
