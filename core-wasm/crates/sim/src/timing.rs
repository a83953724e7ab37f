//! Host requests in time: which page requests form one host request (a trace record
//! of several pages is one request with one response time) and when each arrives.
//! Depends on nothing else in the crate (the trace parser and the simulator use it).

/// The host requests of a run: runs of consecutive page requests, and each host
/// request's arrival time in ns after the first one's, when the workload has times.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Schedule {
    /// Bit i set: page request i begins a host request. Empty: every page request is a
    /// host request of its own.
    starts: Vec<u64>,
    pages: usize,
    /// One per host request, in order (None: the workload has no timestamps).
    arrivals: Option<Vec<u64>>,
    requests: usize,
}

impl Schedule {
    /// `starts` a bitset over `pages` page requests (page 0 always begins one);
    /// `arrivals`, when given, one per host request.
    pub fn new(mut starts: Vec<u64>, pages: usize, arrivals: Option<Vec<u64>>) -> Schedule {
        starts.resize(pages.div_ceil(64), 0);
        if pages > 0 {
            starts[0] |= 1;
        }
        if let Some(w) = starts.last_mut() {
            if !pages.is_multiple_of(64) {
                *w &= (1u64 << (pages % 64)) - 1;
            }
        }
        let requests = starts.iter().map(|w| w.count_ones() as usize).sum();
        let arrivals = arrivals.filter(|a| a.len() == requests);
        Schedule { starts, pages, arrivals, requests }
    }
    /// Every page request a host request of its own, no times (generated workloads,
    /// the pattern language).
    pub fn per_page(pages: usize) -> Schedule {
        Schedule { starts: Vec::new(), pages, arrivals: None, requests: pages }
    }
    /// Page requests.
    pub fn pages(&self) -> usize {
        self.pages
    }
    /// Host requests.
    pub fn requests(&self) -> usize {
        self.requests
    }
    /// Page request `i` begins a host request.
    pub fn begins(&self, i: usize) -> bool {
        self.starts.is_empty() || self.starts.get(i / 64).is_some_and(|w| w >> (i % 64) & 1 == 1)
    }
    /// Page request `i` is the last of its host request.
    pub fn ends(&self, i: usize) -> bool {
        i + 1 >= self.pages || self.begins(i + 1)
    }
    /// Arrival of each host request, ns after the first (None: untimed).
    pub fn arrivals(&self) -> Option<&[u64]> {
        self.arrivals.as_deref()
    }
    /// The host request page request `i` belongs to (counts the starts up to it).
    pub fn request_of(&self, i: usize) -> usize {
        if self.starts.is_empty() {
            return i;
        }
        let w = i / 64;
        let full: usize = self.starts[..w.min(self.starts.len())].iter().map(|x| x.count_ones() as usize).sum();
        let bits = self.starts.get(w).map(|x| (x & (u64::MAX >> (63 - i % 64))).count_ones() as usize).unwrap_or(0);
        (full + bits).saturating_sub(1)
    }
    /// The page requests of host request `k`: `first..end`.
    pub fn pages_of(&self, k: usize) -> std::ops::Range<usize> {
        if self.starts.is_empty() {
            return k..k + 1;
        }
        let mut seen = 0;
        let mut first = None;
        for i in 0..self.pages {
            if self.begins(i) {
                if seen == k + 1 {
                    return first.unwrap_or(i)..i;
                }
                if seen == k {
                    first = Some(i);
                }
                seen += 1;
            }
        }
        first.unwrap_or(self.pages)..self.pages
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn starts_group_pages() {
        // requests: [0,1,2] [3] [4..70) [70]
        let mut bits = vec![0u64; 2];
        for i in [0usize, 3, 4, 70] {
            bits[i / 64] |= 1 << (i % 64);
        }
        let s = Schedule::new(bits, 71, Some(vec![0, 5, 9, 12]));
        assert_eq!(s.requests(), 4);
        assert!(s.begins(0) && !s.begins(1) && s.begins(3) && s.begins(70));
        assert!(s.ends(2) && s.ends(3) && !s.ends(4) && s.ends(69) && s.ends(70));
        assert_eq!([0, 2, 3, 4, 69, 70].map(|i| s.request_of(i)), [0, 0, 1, 2, 2, 3]);
        assert_eq!(s.pages_of(2), 4..70);
        assert_eq!(s.pages_of(3), 70..71);
        assert_eq!(s.arrivals(), Some(&[0, 5, 9, 12][..]));
        // Arrivals of the wrong length are dropped (untimed), never misaligned.
        assert_eq!(Schedule::new(vec![1], 3, Some(vec![1, 2])).arrivals(), None);
        let p = Schedule::per_page(3);
        assert!(p.begins(2) && p.ends(1) && p.request_of(2) == 2 && p.requests() == 3);
    }
}
