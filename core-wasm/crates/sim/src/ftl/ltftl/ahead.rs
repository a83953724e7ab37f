//! LTFTL's closed loop on wasm32: the lines the next requests will miss on, read a group at a
//! time so their misses overlap (issue 37: LTFTL's wasm / native cells).

use super::*;
#[cfg(not(target_arch = "x86_64"))]
use crate::ftl::host;
use crate::ftl::host::Parts;
use crate::trace::Request;

/// How many requests' lines the closed loop reads together where it cannot prefetch (wasm32).
#[cfg_attr(target_arch = "x86_64", allow(dead_code))]
const GROUP: usize = 32;

impl LtFtl {
    /// The closed loop (`Ftl::run_closed`). On wasm32 it is compiled for LTFTL, with
    /// `touch_group` every `GROUP` requests: a write's forward-map entry and oracle slot are
    /// random lines of two arrays of 4 B per sector (1.5 MB each on the bench's chip), and in
    /// wasm each was a miss waited for inside its request (`write`'s samples sat on the load of
    /// `fwd[lpn]`). Natively the simulator's shared loop runs it, unchanged (`None`).
    #[cfg_attr(target_arch = "x86_64", allow(unused_variables))]
    pub(super) fn closed_loop(
        &mut self,
        parts: &mut Parts<'_>,
        reqs: &[Request],
    ) -> Option<Result<(), (Request, FlashError)>> {
        #[cfg(not(target_arch = "x86_64"))]
        return Some(host::run_closed_ahead(self, parts, reqs, |ftl: &LtFtl, s, reqs, i| {
            if i % GROUP == 0 {
                core::hint::black_box(ftl.touch_group(s, reqs, i));
            }
        }));
        #[cfg(target_arch = "x86_64")]
        None
    }

    /// Reads, before the `GROUP` requests from `i` run, the next group's forward-map entries
    /// and oracle slots, and for this group (whose entries were read a group ago) each read's
    /// page state (`version_at`) and each write's old page's retractable flag (`set_retr`).
    /// Every load is independent of the others, so their misses overlap. Returns a sum only so
    /// that the loads are kept: changes nothing (page mapping's `touch_group`, the same idea).
    #[cfg_attr(target_arch = "x86_64", allow(dead_code))]
    #[inline(always)]
    fn touch_group(&self, s: &Parts<'_>, reqs: &[Request], i: usize) -> u32 {
        let (fwd, latest, pages) = (&self.fwd, s.oracle.latest(), s.flash.pages());
        let n = reqs.len();
        let mut sum = 0u32;
        for r in &reqs[n.min(i + GROUP)..n.min(i + 2 * GROUP)] {
            if let Some(lpn) = r.lpn() {
                sum = sum.wrapping_add(fwd.get(lpn as usize).copied().unwrap_or(0));
                sum = sum.wrapping_add(latest.get(lpn as usize).copied().unwrap_or(0));
            }
        }
        for r in &reqs[i..n.min(i + GROUP)] {
            let ppn = r.lpn().and_then(|lpn| fwd.get(lpn as usize)).copied().unwrap_or(NONE) as usize;
            match r {
                Request::Read { .. } => sum = sum.wrapping_add(pages.get(ppn).map_or(0, |p| p.version)),
                Request::Write { .. } => sum = sum.wrapping_add(self.retr.get(ppn).map_or(0, |&r| r as u32)),
                _ => {}
            }
        }
        sum
    }
}
