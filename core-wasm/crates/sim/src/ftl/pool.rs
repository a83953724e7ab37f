//! The free blocks of the block-mapped schemes (BAST, FAST and O-FAST, FastCheck and
//! fast-ltlog through FAST, NFTL, GFTL, KRAFT and KAST): one first-in first-out list, the
//! "free-block list" a merged block is "erased and returned to" (FAST 3.4; FastCheck 2.1,
//! "returned to the free block list"). An allocation takes the front; a block erased joins
//! the back; recovery refills it with the blocks it left unused, in pbn order. The papers
//! take "a free block" (FAST 2.2 on BAST: "copies the up-to-date sectors from the two
//! blocks to a free block") and order the list by nothing else, so the pool breaks no ties
//! by erase count: the order is the one each scheme had before it shared this type, which
//! the op-by-op tests and the papers' worked examples pin down (docs/architecture.md,
//! "Schemes"). RFTL owns three fixed blocks per logical block and the page-mapped schemes
//! (page mapping, LTFTL) pick GC victims and wear-level their own way: they keep their own
//! lists.

use std::collections::VecDeque;

use crate::nand::{FlashError, FlashResult, Pbn};

#[derive(Clone, Debug)]
pub struct BlockPool {
    free: VecDeque<Pbn>,
    /// Who runs out, in the message ("BAST ran out of free blocks").
    scheme: &'static str,
}

impl BlockPool {
    /// A pool of `blocks`, taken in that order.
    pub fn new(scheme: &'static str, blocks: impl IntoIterator<Item = Pbn>) -> BlockPool {
        BlockPool { free: blocks.into_iter().collect(), scheme }
    }

    /// The next free block (the front); a violation when none is left.
    pub fn take(&mut self) -> FlashResult<Pbn> {
        self.take_for(self.scheme)
    }

    /// `take`, naming `who` ran out (FastCheck's metadata area draws on FAST's pool).
    pub fn take_for(&mut self, who: &str) -> FlashResult<Pbn> {
        self.free.pop_front().ok_or_else(|| FlashError::Violation(format!("{who} ran out of free blocks")))
    }

    /// An erased block rejoins the pool, last in line.
    pub fn release(&mut self, pbn: Pbn) {
        debug_assert!(!self.free.contains(&pbn), "block {pbn} released twice");
        self.free.push_back(pbn);
    }

    /// Recovery: the pool is exactly `blocks`, in that order (the blocks it left unused).
    pub fn reset(&mut self, blocks: impl IntoIterator<Item = Pbn>) {
        self.free.clear();
        self.free.extend(blocks);
    }

    pub fn len(&self) -> usize {
        self.free.len()
    }

    pub fn is_empty(&self) -> bool {
        self.free.is_empty()
    }

    /// The free blocks in allocation order.
    pub fn iter(&self) -> impl Iterator<Item = Pbn> + '_ {
        self.free.iter().copied()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn first_released_is_first_taken_after_the_initial_blocks() {
        let mut p = BlockPool::new("X", [3, 1, 2]);
        assert_eq!(p.take().unwrap(), 3);
        p.release(7);
        p.release(3);
        assert_eq!(p.iter().collect::<Vec<_>>(), [1, 2, 7, 3]);
        assert_eq!([p.take(), p.take(), p.take(), p.take()].map(Result::unwrap), [1, 2, 7, 3]);
        assert!(p.is_empty());
        assert_eq!(p.take(), Err(FlashError::Violation("X ran out of free blocks".into())));
        assert_eq!(p.take_for("the area"), Err(FlashError::Violation("the area ran out of free blocks".into())));
        p.reset([5, 4]);
        assert_eq!((p.len(), p.take().unwrap()), (2, 5));
    }
}
