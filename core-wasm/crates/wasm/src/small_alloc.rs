//! The wasm module's global allocator: allocations of at most 512 bytes come from
//! free lists of 16-byte size classes kept in front of the standard allocator
//! (dlmalloc on wasm32-unknown-unknown), everything else goes to it unchanged.
//!
//! Why (issue 37, wasm at native speed): dlmalloc's malloc and free cost several times
//! glibc's per call once compiled to wasm, and some schemes allocate per request (GFTL's
//! GC step and RFTL's sub-table read: 4 small allocations per host request on the
//! benchmark's 1 M uniform requests): 6-7 % of a GFTL run went to dlmalloc. A freed small
//! block is pushed on its class's list and the next allocation of that class pops it: a
//! load and a store each way. Blocks on the lists are never given back to dlmalloc
//! (memory held is at most the peak of each class's live blocks); the large vectors (the
//! chip's pages, the trace) are dlmalloc's as before.

use std::alloc::{GlobalAlloc, Layout, System};
use std::cell::UnsafeCell;

/// Size step of the classes, and the alignment every class block has.
const STEP: usize = 16;
/// Classes: sizes 1..=16, 17..=32, ..., up to STEP * CLASSES bytes.
const CLASSES: usize = 32;

pub struct SmallAlloc {
    /// Head of each class's list of free blocks; a free block's first word is the next one.
    free: UnsafeCell<[*mut u8; CLASSES]>,
}

impl SmallAlloc {
    pub const fn new() -> SmallAlloc {
        SmallAlloc { free: UnsafeCell::new([std::ptr::null_mut(); CLASSES]) }
    }
}

// SAFETY: this allocator is installed only on wasm32 without the atomics feature, where
// the module runs on one thread (a Web Worker's or Node's), so the lists are never
// touched concurrently.
unsafe impl Sync for SmallAlloc {}

/// The class of a layout, if it is served from the lists.
#[inline]
fn class(l: Layout) -> Option<usize> {
    (l.size() != 0 && l.size() <= STEP * CLASSES && l.align() <= STEP).then(|| (l.size() - 1) / STEP)
}

#[inline]
fn block(c: usize) -> Layout {
    // SAFETY: a non-zero multiple of a power-of-two alignment, far below isize::MAX.
    unsafe { Layout::from_size_align_unchecked((c + 1) * STEP, STEP) }
}

unsafe impl GlobalAlloc for SmallAlloc {
    #[inline]
    unsafe fn alloc(&self, l: Layout) -> *mut u8 {
        let Some(c) = class(l) else { return System.alloc(l) };
        let free = &mut *self.free.get();
        let p = free[c];
        if p.is_null() {
            return System.alloc(block(c));
        }
        free[c] = *(p as *mut *mut u8);
        p
    }

    #[inline]
    unsafe fn dealloc(&self, p: *mut u8, l: Layout) {
        let Some(c) = class(l) else { return System.dealloc(p, l) };
        let free = &mut *self.free.get();
        *(p as *mut *mut u8) = free[c];
        free[c] = p;
    }

    unsafe fn alloc_zeroed(&self, l: Layout) -> *mut u8 {
        // Large blocks keep dlmalloc's calloc (fresh pages from memory.grow need no zeroing).
        if class(l).is_none() {
            return System.alloc_zeroed(l);
        }
        let p = self.alloc(l);
        if !p.is_null() {
            std::ptr::write_bytes(p, 0, l.size());
        }
        p
    }

    unsafe fn realloc(&self, p: *mut u8, l: Layout, new_size: usize) -> *mut u8 {
        let new = Layout::from_size_align_unchecked(new_size, l.align());
        match (class(l), class(new)) {
            (None, None) => System.realloc(p, l, new_size),
            // The block already holds the new size.
            (Some(a), Some(b)) if a == b => p,
            _ => {
                let q = self.alloc(new);
                if !q.is_null() {
                    std::ptr::copy_nonoverlapping(p, q, l.size().min(new_size));
                    self.dealloc(p, l);
                }
                q
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The lists hand a freed block back to the next allocation of its class, never to
    /// another class, and keep what was written through realloc.
    #[test]
    fn reuses_blocks_by_class_and_keeps_contents() {
        let a = SmallAlloc::new();
        unsafe {
            let l24 = Layout::from_size_align(24, 8).unwrap();
            let p = a.alloc(l24);
            a.dealloc(p, l24);
            // 17..=32 bytes share the class: the same block comes back.
            let l32 = Layout::from_size_align(32, 4).unwrap();
            assert_eq!(a.alloc(l32), p);
            // Another class does not get it.
            let l8 = Layout::from_size_align(8, 8).unwrap();
            let q = a.alloc(l8);
            assert_ne!(q, p);
            for i in 0..8 {
                *q.add(i) = i as u8 + 1;
            }
            // Growing across classes copies; growing within a class keeps the block.
            let r = a.realloc(q, l8, 12);
            assert_eq!(r, q);
            let l12 = Layout::from_size_align(12, 8).unwrap();
            let s = a.realloc(r, l12, 600);
            assert!((0..8).all(|i| *s.add(i) == i as u8 + 1));
            let z = a.alloc_zeroed(Layout::from_size_align(40, 8).unwrap());
            assert!((0..40).all(|i| *z.add(i) == 0));
        }
    }
}
