//! DFTL's cached mapping table (CMT): a fixed number of page-level mapping entries in RAM
//! with segmented LRU replacement (Gupta et al., ASPLOS 2009, section 3.1: "the CMT uses
//! segmented LRU"). A new entry enters the probationary segment; a hit there promotes it to
//! the protected segment (at most half the entries), whose least recently used entry falls
//! back to the probationary segment's head; the victim is the probationary segment's least
//! recently used entry (the protected one's when the probationary segment is empty).
//! Dirty entries are also indexed by translation page, so that a write-back finds every
//! dirty entry of that page at once (the paper's batch update).

use std::collections::{BTreeSet, HashMap};

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
    index: HashMap<Lpn, u32>,
    lists: [List; 2],
    /// (translation page, lpn) of every dirty entry.
    dirty: BTreeSet<(u32, Lpn)>,
}

impl Cmt {
    pub fn new(cap: u32, per_page: u32) -> Cmt {
        let cap = cap.max(1) as usize;
        let empty = List { head: NONE, tail: NONE, len: 0 };
        Cmt {
            cap,
            protected_cap: cap / 2,
            per_page,
            nodes: Vec::new(),
            spare: Vec::new(),
            index: HashMap::new(),
            lists: [empty; 2],
            dirty: BTreeSet::new(),
        }
    }

    pub fn capacity(&self) -> usize {
        self.cap
    }
    pub fn len(&self) -> usize {
        self.index.len()
    }
    pub fn is_empty(&self) -> bool {
        self.index.is_empty()
    }
    pub fn is_full(&self) -> bool {
        self.len() >= self.cap
    }
    pub fn dirty_count(&self) -> usize {
        self.dirty.len()
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
        self.index.get(&lpn).map(|&i| (self.nodes[i as usize].ppn, self.nodes[i as usize].dirty))
    }

    pub fn contains(&self, lpn: Lpn) -> bool {
        self.index.contains_key(&lpn)
    }

    /// A hit: the entry moves to the protected segment's head (a protected entry pushed
    /// out goes back to the probationary segment's head).
    pub fn touch(&mut self, lpn: Lpn) {
        let Some(&i) = self.index.get(&lpn) else { return };
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
        self.index.insert(lpn, i);
        self.push_head(i, PROBATION);
        if dirty {
            self.dirty.insert((lpn / self.per_page, lpn));
        }
    }

    /// Changes a cached entry's mapping without touching its recency (a write after the
    /// lookup touched it; a GC copy).
    pub fn set(&mut self, lpn: Lpn, ppn: Ppn, dirty: bool) {
        let Some(&i) = self.index.get(&lpn) else { return };
        let n = &mut self.nodes[i as usize];
        n.ppn = ppn;
        n.dirty = dirty;
        let key = (lpn / self.per_page, lpn);
        if dirty {
            self.dirty.insert(key);
        } else {
            self.dirty.remove(&key);
        }
    }

    /// The replacement victim: the probationary segment's least recently used entry.
    pub fn victim(&self) -> Option<Lpn> {
        let t = if self.lists[PROBATION].tail != NONE { self.lists[PROBATION].tail } else { self.lists[PROTECTED].tail };
        (t != NONE).then(|| self.nodes[t as usize].lpn)
    }

    pub fn remove(&mut self, lpn: Lpn) -> Option<(Ppn, bool)> {
        let i = self.index.remove(&lpn)?;
        self.unlink(i);
        self.spare.push(i);
        let n = self.nodes[i as usize];
        self.dirty.remove(&(lpn / self.per_page, lpn));
        Some((n.ppn, n.dirty))
    }

    /// Every dirty entry of translation page `tvpn`: (lpn, ppn).
    pub fn dirty_of(&self, tvpn: u32) -> Vec<(Lpn, Ppn)> {
        self.dirty
            .range((tvpn, 0)..=(tvpn, u32::MAX))
            .map(|&(_, lpn)| (lpn, self.peek(lpn).expect("a dirty entry is cached").0))
            .collect()
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
        let mut c = Cmt::new(4, 512);
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
        let mut c = Cmt::new(8, 4);
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
}
