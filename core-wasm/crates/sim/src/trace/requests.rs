//! The page requests a simulator replays, stored compactly when they allow it: as runs of
//! consecutive pages, 4 bytes a one-page run (issue 37 items 1 and 2: the fitted requests
//! were 8 bytes each, 9.1 MB of a 1.1 M request trace's run; a 2 GiB trace held 20 M).

use super::runs::{Pages, Runs, K_FREEZE, K_READ, K_REVERT, K_UNFREEZE, K_WRITE};
use super::Request;

fn kind_value(r: Request) -> (u64, u64) {
    match r {
        Request::Read { lpn } => (K_READ, lpn as u64),
        Request::Write { lpn } => (K_WRITE, lpn as u64),
        Request::Freeze => (K_FREEZE, 0),
        Request::Unfreeze { state } => (K_UNFREEZE, state as u64),
        Request::Revert { state } => (K_REVERT, state as u64),
    }
}

#[inline]
fn request((kind, v): (u64, u64)) -> Request {
    let v = v as u32;
    match kind {
        K_READ => Request::Read { lpn: v },
        K_WRITE => Request::Write { lpn: v },
        K_FREEZE => Request::Freeze,
        K_UNFREEZE => Request::Unfreeze { state: v },
        _ => Request::Revert { state: v },
    }
}

#[derive(Clone, Debug)]
enum Store {
    /// Every request as it is (a request with a value over 29 bits).
    Wide(Vec<Request>),
    /// Runs of pages, 4 bytes a one-page run (kind in the top 3 bits, the page or state id
    /// in the low 29: every page of the largest chip, 2^26, fits), 8 a longer one.
    Packed(Runs<u32>),
}

/// Page requests in order: as runs of pages when every one fits, else as `Request`s.
#[derive(Clone, Debug)]
pub struct Requests(Store);

impl Default for Requests {
    fn default() -> Self {
        Requests(Store::Packed(Runs::default()))
    }
}

impl From<Vec<Request>> for Requests {
    /// Kept as given (no copy): the simulator's callers that hand over a `Vec` read it back
    /// as a slice (`Simulator::requests`).
    fn from(v: Vec<Request>) -> Requests {
        Requests(Store::Wide(v))
    }
}

/// The requests from an index on, in order (`Requests::iter_from`).
enum Iter<'a> {
    Wide(std::slice::Iter<'a, Request>),
    Packed(Pages<'a, u32>),
}

impl Iterator for Iter<'_> {
    type Item = Request;
    #[inline]
    fn next(&mut self) -> Option<Request> {
        match self {
            Iter::Wide(it) => it.next().copied(),
            Iter::Packed(it) => it.next().map(request),
        }
    }
}

impl Requests {
    pub fn push(&mut self, r: Request) {
        match &mut self.0 {
            Store::Wide(v) => v.push(r),
            Store::Packed(runs) => {
                let (kind, v) = kind_value(r);
                if !runs.push(kind, v, 1) {
                    let mut all: Vec<Request> = runs.iter().map(request).collect();
                    all.push(r);
                    self.0 = Store::Wide(all);
                }
            }
        }
    }
    pub fn len(&self) -> usize {
        match &self.0 {
            Store::Wide(v) => v.len(),
            Store::Packed(runs) => runs.len(),
        }
    }
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
    /// Request `i` (from runs: a walk of at most a few hundred entries; the run loop reads
    /// them in order with `iter_from`).
    #[inline]
    pub fn get(&self, i: usize) -> Option<Request> {
        match &self.0 {
            Store::Wide(v) => v.get(i).copied(),
            Store::Packed(runs) => runs.get(i).map(request),
        }
    }
    /// The requests from `i` on.
    pub fn iter_from(&self, i: usize) -> impl Iterator<Item = Request> + '_ {
        match &self.0 {
            Store::Wide(v) => Iter::Wide(v[i.min(v.len())..].iter()),
            Store::Packed(runs) => Iter::Packed(runs.iter_from(i)),
        }
    }
    pub fn iter(&self) -> impl Iterator<Item = Request> + '_ {
        self.iter_from(0)
    }
    /// The requests as given, if stored so (`From<Vec<Request>>`).
    pub fn as_slice(&self) -> Option<&[Request]> {
        match &self.0 {
            Store::Wide(v) => Some(v),
            Store::Packed(_) => None,
        }
    }
    pub fn to_vec(&self) -> Vec<Request> {
        self.iter().collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn packed_requests_read_back_as_pushed_and_wide_ones_too() {
        let reqs = [
            Request::Read { lpn: 0 },
            Request::Write { lpn: (1 << 26) - 1 },
            Request::Freeze,
            Request::Unfreeze { state: 7 },
            Request::Revert { state: (1 << 29) - 1 },
            Request::Write { lpn: 5 },
            Request::Write { lpn: 6 },
            Request::Write { lpn: 7 },
            Request::Read { lpn: 8 },
        ];
        let mut p = Requests::default();
        for &r in &reqs {
            p.push(r);
        }
        assert!(p.as_slice().is_none(), "all fit in 29 bits: packed");
        assert_eq!(p.to_vec(), reqs);
        assert_eq!((p.len(), p.get(9)), (9, None));
        for i in 0..reqs.len() {
            assert_eq!(p.get(i), Some(reqs[i]));
            assert_eq!(p.iter_from(i).collect::<Vec<_>>(), reqs[i..]);
        }
        // A state id over 29 bits: the store turns wide, nothing is lost.
        p.push(Request::Revert { state: u32::MAX });
        assert_eq!(p.as_slice().map(|s| s.len()), Some(10));
        assert_eq!(p.get(9), Some(Request::Revert { state: u32::MAX }));
        assert_eq!(&p.to_vec()[..9], &reqs);
    }
}
