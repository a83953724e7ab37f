//! RFTL's closed loop on wasm32 (`host::run_closed_grouped`): the lines the next requests will
//! miss on, read a group at a time so their misses overlap (issue 37: RFTL's wasm / native
//! cells). A write reads its logical block's triple and free-page indices (section 4.1), the
//! sub-table index in RAM and the sub-table entry (section 4.3), then programs the next free
//! page of the block and moves `loc` and the oracle's slot: each a random line on the bench's
//! chip, and in wasm each was a miss waited for inside its request.

use super::*;
use crate::ftl::host::{Parts, GROUP};
use crate::trace::Request;

impl Rftl {
    /// Reads, before the `GROUP` requests from `i` run, the next group's logical blocks, RAM
    /// sub-table indices, OOB sub-table entries, `loc` entries and oracle slots, and for this
    /// group (whose logical blocks and `loc` entries were read a group ago) the page a write
    /// will program (its block's next free page) and the page a read will read. Every load
    /// of a pass is independent of the others, so their misses overlap. Returns a sum only so
    /// that the loads are kept: changes nothing (NFTL's and LTFTL's `touch_group`, the idea).
    #[inline(always)]
    pub(super) fn touch_group(&self, s: &Parts<'_>, reqs: &[Request], i: usize) -> u32 {
        let (latest, pages, ppb, alpha) = (s.oracle.latest(), s.flash.pages(), self.ppb, self.p.alpha);
        let n = reqs.len();
        let mut sum = 0u32;
        for r in &reqs[n.min(i + GROUP)..n.min(i + 2 * GROUP)] {
            let Some(lpn) = r.lpn() else { continue };
            let (lbn, bo) = (lpn / ppb, lpn % ppb);
            sum = sum.wrapping_add(self.lbs.get(lbn as usize).map_or(0, |lb| lb.next[PRIMARY]));
            let at = lbn.wrapping_mul(self.p.n_sub).wrapping_add(bo / alpha) as usize;
            sum = sum.wrapping_add(self.sub_index.get(at).copied().unwrap_or(0));
            let e = (at as u32).wrapping_mul(alpha).wrapping_add(bo % alpha) as usize;
            sum = sum.wrapping_add(self.oob.get(e).copied().unwrap_or(0));
            sum = sum.wrapping_add(self.loc.get(lpn as usize).copied().unwrap_or(0));
            sum = sum.wrapping_add(latest.get(lpn as usize).copied().unwrap_or(0));
        }
        for r in &reqs[i..n.min(i + GROUP)] {
            let ppn = match *r {
                Request::Write { lpn } => self.lbs.get((lpn / ppb) as usize).map_or(NONE, |lb| {
                    let role = if lb.next[PRIMARY] < ppb { PRIMARY } else { BUFFER };
                    lb.blocks[role].wrapping_mul(ppb).wrapping_add(lb.next[role])
                }),
                Request::Read { lpn } => self.loc.get(lpn as usize).copied().unwrap_or(NONE),
                _ => NONE,
            };
            sum = sum.wrapping_add(pages.get(ppn as usize).map_or(0, |p| p.lpn));
        }
        sum
    }
}
