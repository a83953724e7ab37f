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

    /// A candidate with the fewest valid pages (the lowest pbn among the latest linked of
    /// that count is not guaranteed: ties go to the most recently bucketed block).
    pub fn min(&self) -> Option<Pbn> {
        self.head.iter().copied().find(|&h| h != NONE)
    }
}

/// Blocks bucketed by a small count, each bucket a bitset over block numbers: insert and
/// remove are O(1) and the lowest block of a bucket is found by scanning 64 blocks a word,
/// so a GC that must prefer the lowest pbn among equals (LTFTL) keeps that exact order.
#[derive(Clone)]
pub struct OrderedBuckets {
    words: usize,
    bits: Vec<u64>,
    len: Vec<u32>,
}

impl OrderedBuckets {
    pub fn new(blocks: u32, buckets: usize) -> OrderedBuckets {
        let words = (blocks as usize).div_ceil(64);
        OrderedBuckets { words, bits: vec![0; words * buckets], len: vec![0; buckets] }
    }
    pub fn insert(&mut self, bucket: usize, b: Pbn) {
        let w = &mut self.bits[bucket * self.words + b as usize / 64];
        let m = 1u64 << (b % 64);
        if *w & m == 0 {
            *w |= m;
            self.len[bucket] += 1;
        }
    }
    pub fn remove(&mut self, bucket: usize, b: Pbn) {
        let w = &mut self.bits[bucket * self.words + b as usize / 64];
        let m = 1u64 << (b % 64);
        if *w & m != 0 {
            *w &= !m;
            self.len[bucket] -= 1;
        }
    }
    pub fn clear(&mut self) {
        self.bits.fill(0);
        self.len.fill(0);
    }
    /// The lowest block of the lowest non-empty bucket.
    pub fn first(&self) -> Option<Pbn> {
        let bucket = self.len.iter().position(|&n| n > 0)?;
        let row = &self.bits[bucket * self.words..(bucket + 1) * self.words];
        row.iter().enumerate().find(|(_, &w)| w != 0).map(|(i, &w)| (i * 64) as Pbn + w.trailing_zeros())
    }
}
