//! DFTL's cached mapping table (CMT): a fixed number of page-level mapping entries in RAM
//! with segmented LRU replacement (Gupta et al., ASPLOS 2009, section 3.1: "the CMT uses
//! segmented LRU"). A new entry enters the probationary segment; a hit there promotes it to
//! the protected segment (at most half the entries), whose least recently used entry falls
//! back to the probationary segment's head; the victim is the probationary segment's least
//! recently used entry (the protected one's when the probationary segment is empty).
//! Dirty entries are also indexed by translation page, so that a write-back finds every
//! dirty entry of that page at once (the paper's batch update).
//!
//! The simulator's own storage (issue 37): the lpn → node index is an array over the logical
//! pages (a hash map's SipHash was 18.5 % of DFTL's native instructions), and the dirty set a
//! bitset over them (a translation page's dirty entries are its range of bits, in LPN order as
//! the BTreeSet gave them; its insertions were about 23 %). Neither changes what the CMT holds.

use crate::nand::{Lpn, Ppn, NONE};

const PROBATION: usize = 0;
const PROTECTED: usize = 1;

#[derive(Clone, Copy, Debug)]
struct Node {
    lpn: Lpn,
    ppn: Ppn,
    dirty: bool,
    seg: usize,
    /// Towards the most recently used end.
    prev: u32,
    /// Towards the least recently used end.
    next: u32,
}

#[derive(Clone, Copy, Debug)]
struct List {
    /// Most recently used.
    head: u32,
    /// Least recently used.
    tail: u32,
    len: usize,
}

/// One cached entry, as the panel and the tests see it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct CmtEntry {
    pub lpn: Lpn,
    pub ppn: Ppn,
    pub dirty: bool,
    pub protected: bool,
}

#[derive(Clone, Debug)]
pub struct Cmt {
    cap: usize,
    protected_cap: usize,
    /// Mappings per translation page (to group dirty entries by page).
    per_page: u32,
    nodes: Vec<Node>,
    spare: Vec<u32>,
    /// lpn → its node (NONE: not cached); as long as the logical pages, grown if an LPN beyond.
    index: Vec<u32>,
    /// Cached entries.
    len: usize,
    lists: [List; 2],
    /// One bit per LPN: its entry is cached and dirty.
    dirty: Vec<u64>,
    dirty_len: usize,
}

impl Cmt {
    /// `lpns`: the logical pages (the index's and the dirty bits' size).
    pub fn new(cap: u32, per_page: u32, lpns: u32) -> Cmt {
        let cap = cap.max(1) as usize;
        let empty = List { head: NONE, tail: NONE, len: 0 };
        Cmt {
            cap,
            protected_cap: cap / 2,
            per_page,
            nodes: Vec::new(),
            spare: Vec::new(),
            index: vec![NONE; lpns as usize],
            len: 0,
            lists: [empty; 2],
            dirty: vec![0; (lpns as usize).div_ceil(64)],
            dirty_len: 0,
        }
    }

    /// `lpn`'s node, if cached.
    #[inline]
    fn slot(&self, lpn: Lpn) -> Option<u32> {
        self.index.get(lpn as usize).copied().filter(|&i| i != NONE)
    }

    /// Sets or clears `lpn`'s dirty bit (it is in the index's range: cached).
    fn mark(&mut self, lpn: Lpn, dirty: bool) {
        let (w, bit) = (lpn as usize / 64, 1u64 << (lpn % 64));
        if w >= self.dirty.len() {
            self.dirty.resize(w + 1, 0);
        }
        let was = self.dirty[w] & bit != 0;
        if dirty && !was {
            self.dirty[w] |= bit;
            self.dirty_len += 1;
        } else if !dirty && was {
            self.dirty[w] &= !bit;
            self.dirty_len -= 1;
        }
    }

    pub fn capacity(&self) -> usize {
        self.cap
    }
    pub fn len(&self) -> usize {
        self.len
    }
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }
    pub fn is_full(&self) -> bool {
        self.len() >= self.cap
    }
    pub fn dirty_count(&self) -> usize {
        self.dirty_len
    }

    fn unlink(&mut self, i: u32) {
        let n = self.nodes[i as usize];
        let l = &mut self.lists[n.seg];
        if n.prev == NONE {
            l.head = n.next;
        } else {
            self.nodes[n.prev as usize].next = n.next;
        }
        let l = &mut self.lists[n.seg];
        if n.next == NONE {
            l.tail = n.prev;
        } else {
            self.nodes[n.next as usize].prev = n.prev;
        }
        self.lists[n.seg].len -= 1;
    }

    fn push_head(&mut self, i: u32, seg: usize) {
        let head = self.lists[seg].head;
        {
            let n = &mut self.nodes[i as usize];
            n.seg = seg;
            n.prev = NONE;
            n.next = head;
        }
        if head == NONE {
            self.lists[seg].tail = i;
        } else {
            self.nodes[head as usize].prev = i;
        }
        self.lists[seg].head = i;
        self.lists[seg].len += 1;
    }

    /// The entry of `lpn` without touching its recency.
    pub fn peek(&self, lpn: Lpn) -> Option<(Ppn, bool)> {
        self.slot(lpn).map(|i| (self.nodes[i as usize].ppn, self.nodes[i as usize].dirty))
    }

    pub fn contains(&self, lpn: Lpn) -> bool {
        self.slot(lpn).is_some()
    }

    /// A hit: the entry moves to the protected segment's head (a protected entry pushed
    /// out goes back to the probationary segment's head).
    pub fn touch(&mut self, lpn: Lpn) {
        let Some(i) = self.slot(lpn) else { return };
        self.unlink(i);
        if self.protected_cap == 0 {
            self.push_head(i, PROBATION);
            return;
        }
        self.push_head(i, PROTECTED);
        if self.lists[PROTECTED].len > self.protected_cap {
            let t = self.lists[PROTECTED].tail;
            self.unlink(t);
            self.push_head(t, PROBATION);
        }
    }

    /// A new entry at the probationary segment's head (the caller made room).
    pub fn insert(&mut self, lpn: Lpn, ppn: Ppn, dirty: bool) {
        debug_assert!(!self.contains(lpn) && !self.is_full());
        let node = Node { lpn, ppn, dirty, seg: PROBATION, prev: NONE, next: NONE };
        let i = match self.spare.pop() {
            Some(i) => {
                self.nodes[i as usize] = node;
                i
            }
            None => {
                self.nodes.push(node);
                (self.nodes.len() - 1) as u32
            }
        };
        if lpn as usize >= self.index.len() {
            self.index.resize(lpn as usize + 1, NONE);
        }
        self.index[lpn as usize] = i;
        self.len += 1;
        self.push_head(i, PROBATION);
        if dirty {
            self.mark(lpn, true);
        }
    }

    /// Changes a cached entry's mapping without touching its recency (a write after the
    /// lookup touched it; a GC copy).
    pub fn set(&mut self, lpn: Lpn, ppn: Ppn, dirty: bool) {
        let Some(i) = self.slot(lpn) else { return };
        let n = &mut self.nodes[i as usize];
        n.ppn = ppn;
        n.dirty = dirty;
        self.mark(lpn, dirty);
    }

    /// The replacement victim: the probationary segment's least recently used entry.
    pub fn victim(&self) -> Option<Lpn> {
        let t = if self.lists[PROBATION].tail != NONE { self.lists[PROBATION].tail } else { self.lists[PROTECTED].tail };
        (t != NONE).then(|| self.nodes[t as usize].lpn)
    }

    pub fn remove(&mut self, lpn: Lpn) -> Option<(Ppn, bool)> {
        let i = self.slot(lpn)?;
        self.index[lpn as usize] = NONE;
        self.len -= 1;
        self.unlink(i);
        self.spare.push(i);
        let n = self.nodes[i as usize];
        self.mark(lpn, false);
        Some((n.ppn, n.dirty))
    }

    /// Every dirty entry of translation page `tvpn`: (lpn, ppn), in LPN order.
    pub fn dirty_of(&self, tvpn: u32) -> Vec<(Lpn, Ppn)> {
        let lo = tvpn as u64 * self.per_page as u64;
        let hi = (lo + self.per_page as u64).min(self.dirty.len() as u64 * 64);
        let mut out = Vec::new();
        let mut at = lo;
        while at < hi {
            let w = (at / 64) as usize;
            // The bits of word w from `at` up to `hi`.
            let end = hi.min((w as u64 + 1) * 64);
            let span = end - at;
            let mask = if span == 64 { u64::MAX } else { ((1u64 << span) - 1) << (at % 64) };
            let mut bits = self.dirty[w] & mask;
            while bits != 0 {
                let lpn = (w as u64 * 64 + bits.trailing_zeros() as u64) as Lpn;
                out.push((lpn, self.peek(lpn).expect("a dirty entry is cached").0));
                bits &= bits - 1;
            }
            at = end;
        }
        out
    }

    /// Every entry, protected segment first, each most recently used first.
    pub fn entries(&self) -> Vec<CmtEntry> {
        let mut out = Vec::with_capacity(self.len());
        for seg in [PROTECTED, PROBATION] {
            let mut i = self.lists[seg].head;
            while i != NONE {
                let n = self.nodes[i as usize];
                out.push(CmtEntry { lpn: n.lpn, ppn: n.ppn, dirty: n.dirty, protected: seg == PROTECTED });
                i = n.next;
            }
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn segmented_lru_keeps_entries_hit_twice_over_entries_seen_once() {
        let mut c = Cmt::new(4, 512, 16);
        for l in 0..4 {
            c.insert(l, 100 + l, false);
        }
        // 0 and 1 are hit: protected. The victim is the oldest entry seen once: 2.
        c.touch(0);
        c.touch(1);
        assert_eq!(c.victim(), Some(2));
        c.remove(2);
        c.insert(9, 7, true);
        assert_eq!(c.victim(), Some(3));
        // A third protected entry pushes the protected LRU (0) back to probation's head.
        c.touch(3);
        let e = c.entries();
        assert_eq!(e.iter().filter(|x| x.protected).map(|x| x.lpn).collect::<Vec<_>>(), vec![3, 1]);
        assert_eq!(c.victim(), Some(9));
        assert_eq!(c.dirty_of(0), vec![(9, 7)]);
        c.set(9, 8, false);
        assert!(c.dirty_of(0).is_empty());
        assert_eq!(c.len(), 4);
        assert!(c.is_full());
    }

    #[test]
    fn dirty_entries_are_grouped_by_translation_page() {
        let mut c = Cmt::new(8, 4, 8);
        c.insert(1, 10, true);
        c.insert(5, 50, true);
        c.insert(6, 60, false);
        c.insert(7, 70, true);
        assert_eq!(c.dirty_of(0), vec![(1, 10)]);
        assert_eq!(c.dirty_of(1), vec![(5, 50), (7, 70)]);
        assert_eq!(c.remove(7), Some((70, true)));
        assert_eq!(c.dirty_of(1), vec![(5, 50)]);
        assert_eq!(c.dirty_count(), 2);
    }

    /// The index array and the dirty bitset against the structures they replaced (a map
    /// and a BTreeSet of (translation page, lpn)), over random operations: every lookup,
    /// count, victim and translation page's dirty entries (in LPN order) agree. Page sizes
    /// below, at and above a 64-bit word, not dividing it, and LPNs beyond `lpns` (grown).
    #[test]
    fn index_and_dirty_bits_agree_with_a_map_and_an_ordered_set() {
        use std::collections::{BTreeMap, BTreeSet};
        let mut state = 0x9e37_79b9_7f4a_7c15u64;
        let mut rnd = |n: u32| {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            (state % n as u64) as u32
        };
        for (per_page, lpns, cap) in [(4, 40, 6), (5, 300, 17), (64, 700, 40), (100, 1000, 64), (1024, 5000, 200)] {
            let mut c = Cmt::new(cap, per_page, lpns);
            let mut map: BTreeMap<Lpn, (Ppn, bool)> = BTreeMap::new();
            let mut dirty: BTreeSet<(u32, Lpn)> = BTreeSet::new();
            let (mut dirty_seen, mut multi_seen) = (0, 0);
            for step in 0..20_000u32 {
                // Mostly within `lpns`; some beyond, which grow the arrays.
                let lpn = if rnd(50) == 0 { lpns + rnd(3 * per_page) } else { rnd(lpns) };
                match rnd(4) {
                    0 if !map.contains_key(&lpn) => {
                        if c.is_full() {
                            let v = c.victim().expect("a full CMT has a victim");
                            assert_eq!(c.remove(v), map.remove(&v));
                            dirty.remove(&(v / per_page, v));
                        }
                        let d = rnd(2) == 0;
                        c.insert(lpn, step, d);
                        map.insert(lpn, (step, d));
                        if d {
                            dirty.insert((lpn / per_page, lpn));
                        }
                    }
                    1 => {
                        let d = rnd(3) != 0;
                        c.set(lpn, step, d);
                        if let Some(e) = map.get_mut(&lpn) {
                            *e = (step, d);
                            if d {
                                dirty.insert((lpn / per_page, lpn));
                            } else {
                                dirty.remove(&(lpn / per_page, lpn));
                            }
                        }
                    }
                    2 => {
                        assert_eq!(c.remove(lpn), map.remove(&lpn));
                        dirty.remove(&(lpn / per_page, lpn));
                    }
                    _ => c.touch(lpn),
                }
                assert_eq!(c.peek(lpn), map.get(&lpn).copied());
                assert_eq!(c.contains(lpn), map.contains_key(&lpn));
                assert_eq!((c.len(), c.dirty_count()), (map.len(), dirty.len()));
                let tvpn = lpn / per_page;
                let want: Vec<(Lpn, Ppn)> =
                    dirty.range((tvpn, 0)..=(tvpn, u32::MAX)).map(|&(_, l)| (l, map[&l].0)).collect();
                let got = c.dirty_of(tvpn);
                assert_eq!(got, want, "per_page {per_page}, translation page {tvpn}");
                dirty_seen += usize::from(!got.is_empty());
                multi_seen += usize::from(got.len() > 1);
            }
            assert!(dirty_seen > 1000 && multi_seen > 100, "per_page {per_page}: {dirty_seen} / {multi_seen}");
            assert_eq!(c.entries().len(), map.len());
        }
    }
}
