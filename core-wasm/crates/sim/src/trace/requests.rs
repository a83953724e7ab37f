//! The page requests a simulator replays, stored compactly when they allow it: 4 bytes a
//! request (issue 37 item 1: the fitted requests were 8 bytes each, 9.1 MB of a 1.1 M
//! request trace's run).

use super::Request;

/// Packed request: kind in the top 3 bits, the page (or state id) in the low 29 (every
/// page of the largest chip, 2^26, fits).
const KIND_SHIFT: u32 = 29;
const VALUE_MASK: u32 = (1 << KIND_SHIFT) - 1;

fn pack(r: Request) -> Option<u32> {
    let (kind, v) = match r {
        Request::Read { lpn } => (0, lpn),
        Request::Write { lpn } => (1, lpn),
        Request::Freeze => (2, 0),
        Request::Unfreeze { state } => (3, state),
        Request::Revert { state } => (4, state),
    };
    (v <= VALUE_MASK).then_some(kind << KIND_SHIFT | v)
}

#[inline]
fn unpack(w: u32) -> Request {
    let v = w & VALUE_MASK;
    match w >> KIND_SHIFT {
        0 => Request::Read { lpn: v },
        1 => Request::Write { lpn: v },
        2 => Request::Freeze,
        3 => Request::Unfreeze { state: v },
        _ => Request::Revert { state: v },
    }
}

#[derive(Clone, Debug)]
enum Store {
    /// Every request as it is (a request with a value over 29 bits).
    Wide(Vec<Request>),
    Packed(Vec<u32>),
}

/// Page requests in order: packed 4 bytes each when every one fits, else as `Request`s.
#[derive(Clone, Debug)]
pub struct Requests(Store);

impl Default for Requests {
    fn default() -> Self {
        Requests(Store::Packed(Vec::new()))
    }
}

impl From<Vec<Request>> for Requests {
    /// Kept as given (no copy): the simulator's callers that hand over a `Vec` read it back
    /// as a slice (`Simulator::requests`).
    fn from(v: Vec<Request>) -> Requests {
        Requests(Store::Wide(v))
    }
}

impl Requests {
    /// An empty packed store with room for `n` requests.
    pub fn packed_with_capacity(n: usize) -> Requests {
        Requests(Store::Packed(Vec::with_capacity(n)))
    }
    pub fn push(&mut self, r: Request) {
        match &mut self.0 {
            Store::Wide(v) => v.push(r),
            Store::Packed(w) => match pack(r) {
                Some(p) => w.push(p),
                None => {
                    let mut v: Vec<Request> = w.iter().map(|&p| unpack(p)).collect();
                    v.push(r);
                    self.0 = Store::Wide(v);
                }
            },
        }
    }
    pub fn len(&self) -> usize {
        match &self.0 {
            Store::Wide(v) => v.len(),
            Store::Packed(w) => w.len(),
        }
    }
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
    #[inline]
    pub fn get(&self, i: usize) -> Option<Request> {
        match &self.0 {
            Store::Wide(v) => v.get(i).copied(),
            Store::Packed(w) => w.get(i).map(|&p| unpack(p)),
        }
    }
    pub fn iter(&self) -> impl Iterator<Item = Request> + '_ {
        (0..self.len()).map(|i| self.get(i).expect("in range"))
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
            Request::Revert { state: VALUE_MASK },
            Request::Write { lpn: 5 },
        ];
        let mut p = Requests::packed_with_capacity(reqs.len());
        for &r in &reqs {
            p.push(r);
        }
        assert!(p.as_slice().is_none(), "all fit in 29 bits: packed");
        assert_eq!(p.to_vec(), reqs);
        assert_eq!((p.len(), p.get(6)), (6, None));
        // A state id over 29 bits: the store turns wide, nothing is lost.
        p.push(Request::Revert { state: u32::MAX });
        assert_eq!(p.as_slice().map(|s| s.len()), Some(7));
        assert_eq!(p.get(6), Some(Request::Revert { state: u32::MAX }));
        assert_eq!(&p.to_vec()[..6], &reqs);
    }
}
