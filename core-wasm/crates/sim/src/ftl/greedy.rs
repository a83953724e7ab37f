//! Blocks bucketed by valid-page count, so a greedy GC finds the block with the fewest
//! valid pages in O(pages per block) instead of scanning every block — the difference
//! between a chip of 16 blocks and one of 16,384.

use crate::nand::{Pbn, NONE};

/// One block's place in the buckets: its links, its count and whether it is a candidate,
/// side by side (one cache line holds all a change of count reads; issue 37, the page
/// mapping's hot path).
#[derive(Clone, Copy)]
struct Node {
    next: Pbn,
    prev: Pbn,
    count: u32,
    member: bool,
}

#[derive(Clone)]
pub struct ValidBuckets {
    /// Head of the list of member blocks with `v` valid pages, for v in 0..=ppb.
    head: Vec<Pbn>,
    nodes: Vec<Node>,
}

impl ValidBuckets {
    pub fn new(blocks: u32, pages_per_block: u32) -> ValidBuckets {
        ValidBuckets {
            head: vec![NONE; pages_per_block as usize + 1],
            nodes: vec![Node { next: NONE, prev: NONE, count: 0, member: false }; blocks as usize],
        }
    }

    pub fn valid(&self, b: Pbn) -> u32 {
        self.nodes[b as usize].count
    }

    fn unlink(&mut self, b: Pbn) {
        let Node { prev: p, next: n, count, .. } = self.nodes[b as usize];
        if p == NONE {
            self.head[count as usize] = n;
        } else {
            self.nodes[p as usize].next = n;
        }
        if n != NONE {
            self.nodes[n as usize].prev = p;
        }
    }

    fn link(&mut self, b: Pbn) {
        let h = self.head[self.nodes[b as usize].count as usize];
        let node = &mut self.nodes[b as usize];
        node.next = h;
        node.prev = NONE;
        if h != NONE {
            self.nodes[h as usize].prev = b;
        }
        self.head[self.nodes[b as usize].count as usize] = b;
    }

    /// Makes `b` a GC candidate (a full block no longer being written).
    pub fn insert(&mut self, b: Pbn) {
        if !self.nodes[b as usize].member {
            self.nodes[b as usize].member = true;
            self.link(b);
        }
    }

    /// Removes `b` from the candidates (it is being erased, or written again).
    pub fn remove(&mut self, b: Pbn) {
        if self.nodes[b as usize].member {
            self.unlink(b);
            self.nodes[b as usize].member = false;
        }
    }

    /// Moves `b` from its count's bucket to the head of `v`'s (what `unlink`, a new count and
    /// `link` do), reading and writing its node once: every host write moves its old page's
    /// block (issue 37, the page mapping's hot path; `#[inline]` alone left it a call).
    #[inline(always)]
    fn set(&mut self, b: Pbn, v: u32) {
        let node = &mut self.nodes[b as usize];
        if !node.member {
            node.count = v;
            return;
        }
        let Node { prev: p, next: n, count, .. } = *node;
        let h = self.head[v as usize];
        *node = Node { next: h, prev: NONE, count: v, member: true };
        if p == NONE {
            self.head[count as usize] = n;
        } else {
            self.nodes[p as usize].next = n;
        }
        if n != NONE {
            self.nodes[n as usize].prev = p;
        }
        // `b` was the head of `v` (then `h == b`) only if `v == count`: not for a change of one.
        if h != NONE {
            self.nodes[h as usize].prev = b;
        }
        self.head[v as usize] = b;
    }

    #[inline]
    pub fn incr(&mut self, b: Pbn) {
        self.set(b, self.nodes[b as usize].count + 1);
    }
    #[inline]
    pub fn decr(&mut self, b: Pbn) {
        self.set(b, self.nodes[b as usize].count - 1);
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
