//! Blocks bucketed by valid-page count, so a greedy GC finds the block with the fewest
//! valid pages in O(pages per block) instead of scanning every block — the difference
//! between a chip of 16 blocks and one of 16,384.

use crate::nand::{Pbn, NONE};

#[derive(Clone)]
pub struct ValidBuckets {
    /// Head of the list of member blocks with `v` valid pages, for v in 0..=ppb.
    head: Vec<Pbn>,
    next: Vec<Pbn>,
    prev: Vec<Pbn>,
    count: Vec<u32>,
    member: Vec<bool>,
}

impl ValidBuckets {
    pub fn new(blocks: u32, pages_per_block: u32) -> ValidBuckets {
        ValidBuckets {
            head: vec![NONE; pages_per_block as usize + 1],
            next: vec![NONE; blocks as usize],
            prev: vec![NONE; blocks as usize],
            count: vec![0; blocks as usize],
            member: vec![false; blocks as usize],
        }
    }

    pub fn valid(&self, b: Pbn) -> u32 {
        self.count[b as usize]
    }

    fn unlink(&mut self, b: Pbn) {
        let (p, n) = (self.prev[b as usize], self.next[b as usize]);
        if p == NONE {
            self.head[self.count[b as usize] as usize] = n;
        } else {
            self.next[p as usize] = n;
        }
        if n != NONE {
            self.prev[n as usize] = p;
        }
    }

    fn link(&mut self, b: Pbn) {
        let h = &mut self.head[self.count[b as usize] as usize];
        self.next[b as usize] = *h;
        self.prev[b as usize] = NONE;
        if *h != NONE {
            self.prev[*h as usize] = b;
        }
        *h = b;
    }

    /// Makes `b` a GC candidate (a full block no longer being written).
    pub fn insert(&mut self, b: Pbn) {
        if !self.member[b as usize] {
            self.member[b as usize] = true;
            self.link(b);
        }
    }

    /// Removes `b` from the candidates (it is being erased, or written again).
    pub fn remove(&mut self, b: Pbn) {
        if self.member[b as usize] {
            self.unlink(b);
            self.member[b as usize] = false;
        }
    }

    fn set(&mut self, b: Pbn, v: u32) {
        if self.member[b as usize] {
            self.unlink(b);
            self.count[b as usize] = v;
            self.link(b);
        } else {
            self.count[b as usize] = v;
        }
    }

    pub fn incr(&mut self, b: Pbn) {
        self.set(b, self.count[b as usize] + 1);
    }
    pub fn decr(&mut self, b: Pbn) {
        self.set(b, self.count[b as usize] - 1);
    }
    pub fn reset(&mut self, b: Pbn) {
        self.set(b, 0);
    }

    /// A candidate with the fewest valid pages (the lowest pbn among the latest linked of
    /// that count is not guaranteed: ties go to the most recently bucketed block).
    pub fn min(&self) -> Option<Pbn> {
        self.head.iter().copied().find(|&h| h != NONE)
    }
}
