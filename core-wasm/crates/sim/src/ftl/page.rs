//! Page-mapping FTL with greedy garbage collection: the baseline every student knows.
//! Each logical page maps to any physical page (a RAM table of one entry per page);
//! writes go out of place to a write frontier; when free blocks run short, the block
//! with the fewest valid pages is cleaned (its valid pages copied to a GC frontier, then erased).

use std::collections::VecDeque;

use super::greedy::ValidBuckets;
use super::host::{self, Parts};
use super::panel::{first_rows, PageAt, PageMapEntry, PANEL_ROWS};
use super::registry::{self, Builder, Mapping, ParamSpec, Run, SchemeEntry, Value};
use super::scan_recovery::{scan, Extent};
use super::{BlockRole, Cleaning, Ftl, Panel, PanelData, SchemeParams};
use crate::nand::{
    BlockSplit, Cause, Count, Flash, FlashError, FlashResult, Geometry, Lpn, Page, PageKind, Pbn, Ppn, NONE,
};
use crate::trace::Request;

/// Blocks the scheme always keeps out of logical space: the write frontier, the GC
/// frontier and one free block so a GC can always finish.
const RESERVED_BLOCKS: u32 = 3;
/// Spare-area tag of GC copies, so recovery can tell the GC frontier from the host one.
const TAG_GC: u8 = 1;
pub const DEFAULT_OP: f64 = 0.25;
/// How many requests ahead the closed loop prefetches a request's map entry (`run_closed`).
#[cfg_attr(not(target_arch = "x86_64"), allow(dead_code))]
const AHEAD: usize = 16;
/// How many requests' lines the closed loop reads together where it cannot prefetch (wasm32).
#[cfg_attr(target_arch = "x86_64", allow(dead_code))]
const GROUP: usize = 32;

/// The registry's page-mapping entry (ftl::REGISTRY).
pub const ENTRY: SchemeEntry = SchemeEntry {
    id: "page",
    label: "Page mapping (greedy GC)",
    short_label: "Page",
    description: "Page mapping with greedy garbage collection (the baseline)",
    params: &[ParamSpec { default: Value::Fixed(DEFAULT_OP), ..registry::OP }],
    cleaning: Cleaning::Gc,
    runs: &[Run::Gc],
    seldom: &[],
    mapping: Mapping::Page,
    panels: &[],
    build: Builder::Geometry(|p, g| Ok(Box::new(PageFtl::new(g, p)?))),
    fits: |p, c| PageFtl::fits(&c.geometry, p),
    recover: |flash, p| Ok(Box::new(PageFtl::recover(flash, p)?)),
};

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum BlockUse {
    Free,
    Frontier,
    GcFrontier,
    Used,
}

/// A copy recovery saw of an LPN, older than the one it maps.
#[derive(Clone, Copy)]
struct Older {
    seq: u32,
    ppn: Ppn,
    version: u32,
}

#[derive(Clone, Copy)]
struct Frontier {
    pbn: Pbn,
    next: u32,
}

#[derive(Clone)]
pub struct PageFtl {
    ppb: u32,
    /// A page's block by a shift, not a division (issue 37).
    blocks_of: BlockSplit,
    logical_pages: u32,
    /// Logical-to-physical page map (RAM).
    l2p: Vec<Ppn>,
    /// Valid pages per block; full blocks are the GC candidates.
    valid: ValidBuckets,
    usage: Vec<BlockUse>,
    free: VecDeque<Pbn>,
    frontier: Option<Frontier>,
    gc_frontier: Option<Frontier>,
    /// Sequence number written to the spare area of every program, so that recovery
    /// can tell the newest copy of an LPN (a GC copy has the same data, a higher seq).
    seq: u32,
}

impl PageFtl {
    /// Reads, before the `GROUP` requests from `i` run, what the next group and this one will
    /// touch: the next group's map entries and oracle slots, the page states this group's
    /// reads will check and the valid-count nodes of the blocks this group's writes will
    /// invalidate a page of (their map entries were read one group ago, so these loads do not
    /// wait on them). Every load is independent of the others, so their cache misses overlap
    /// instead of coming one after another inside each request. Returns a sum of them only so
    /// that the loads are kept. Changes nothing: a hint for targets without a prefetch
    /// instruction (`run_closed` on wasm32, issue 37).
    #[cfg_attr(target_arch = "x86_64", allow(dead_code))]
    #[inline(always)]
    fn touch_group(&self, s: &Parts<'_>, reqs: &[Request], i: usize) -> u32 {
        let (l2p, latest, pages) = (&self.l2p, s.oracle.latest(), s.flash.pages());
        let n = reqs.len();
        let mut sum = 0u32;
        for r in &reqs[n.min(i + GROUP)..n.min(i + 2 * GROUP)] {
            if let Some(lpn) = r.lpn() {
                sum = sum.wrapping_add(l2p.get(lpn as usize).copied().unwrap_or(0));
                sum = sum.wrapping_add(latest.get(lpn as usize).copied().unwrap_or(0));
            }
        }
        for r in &reqs[i..n.min(i + GROUP)] {
            match *r {
                Request::Read { lpn } => {
                    let ppn = l2p.get(lpn as usize).copied().unwrap_or(NONE);
                    if let Some(p) = pages.get(ppn as usize) {
                        sum = sum.wrapping_add(p.version);
                    }
                }
                // A write's old copy's block changes its valid count (`remap`): its bucket node
                // was the loop's next miss (9 % of the wasm loop's samples, session 21).
                Request::Write { lpn } => {
                    let ppn = l2p.get(lpn as usize).copied().unwrap_or(NONE);
                    if pages.get(ppn as usize).is_some() {
                        sum = sum.wrapping_add(self.valid.valid(self.blocks_of.pbn(ppn)));
                    }
                }
                _ => {}
            }
        }
        sum
    }

    /// The registry's geometry rule (`registry::Fits`): what `new` refuses.
    pub fn fits(g: &Geometry, params: &SchemeParams) -> Result<(), String> {
        let op = params.op.unwrap_or(DEFAULT_OP);
        if ENTRY.params[0].check(op, g).is_err() {
            return Err(format!("over-provisioning ratio must be in [0, 1) (got {op})"));
        }
        if g.blocks < RESERVED_BLOCKS + 1 {
            return Err(format!("page mapping needs at least {} blocks", RESERVED_BLOCKS + 1));
        }
        Ok(())
    }

    pub fn new(g: &Geometry, params: &SchemeParams) -> Result<PageFtl, String> {
        Self::fits(g, params)?;
        let op = params.op.unwrap_or(DEFAULT_OP);
        let by_op = ((g.pages() as f64) * (1.0 - op)).floor() as u32;
        let logical_pages = by_op.min((g.blocks - RESERVED_BLOCKS) * g.pages_per_block).max(1);
        Ok(PageFtl {
            ppb: g.pages_per_block,
            blocks_of: g.block_split(),
            logical_pages,
            l2p: vec![NONE; logical_pages as usize],
            valid: ValidBuckets::new(g.blocks, g.pages_per_block),
            usage: vec![BlockUse::Free; g.blocks as usize],
            free: (0..g.blocks).collect(),
            frontier: None,
            gc_frontier: None,
            seq: 0,
        })
    }

    /// Test hook: point `lpn` at `ppn` (used to check that broken recoveries are caught).
    #[doc(hidden)]
    pub fn debug_force_map(&mut self, lpn: Lpn, ppn: Ppn) {
        self.remap(lpn, ppn);
    }

    fn next_seq(&mut self) -> u32 {
        self.seq += 1;
        self.seq
    }

    /// Rebuilds the map from the chip alone after a power cut: read the spare area of
    /// every page, keep for each LPN the copy with the highest sequence number, skip torn
    /// pages (their checksum fails). Fully erased blocks are free; the (at most two)
    /// partly written blocks become the write and GC frontiers again (told apart by the
    /// GC tag in the spare area), so a GC cut short can finish with the reserve it had.
    pub fn recover(flash: &mut Flash, params: &SchemeParams) -> FlashResult<PageFtl> {
        let g = *flash.geometry();
        flash.note("recovery", || {
            "page-mapping recovery: read the spare area of every page; for each LPN the copy with the highest sequence number wins, torn pages are skipped".into()
        });
        let mut ftl = PageFtl::new(&g, params).map_err(FlashError::Violation)?;
        let mut best_seq = vec![0u32; ftl.logical_pages as usize];
        let mut best_version = vec![0u32; ftl.logical_pages as usize];
        // The next-newest readable copy of every LPN: the source of a GC copy, while the
        // GC that made it has not erased its victim yet.
        let mut older = vec![Older { seq: 0, ppn: NONE, version: 0 }; ftl.logical_pages as usize];
        // Partly written blocks: (role known from the last readable page's tag, frontier).
        let mut partial: Vec<(Option<bool>, Frontier)> = Vec::new();
        ftl.free.clear();
        for pbn in 0..g.blocks {
            let (mut next, mut is_gc) = (g.pages_per_block, None);
            // Pages are programmed in order within a block: the scan stops at the first
            // erased page, the rest are erased too.
            scan(flash, [pbn], Extent::ToFirstErased, |_, off, p| {
                let ppn = pbn * g.pages_per_block + off;
                match p.kind {
                    PageKind::Erased => next = off,
                    PageKind::Data if p.lpn < ftl.logical_pages => {
                        is_gc = Some(p.tag == TAG_GC);
                        ftl.seq = ftl.seq.max(p.seq);
                        let l = p.lpn as usize;
                        if p.seq > best_seq[l] {
                            if ftl.l2p[l] != NONE {
                                older[l] = Older { seq: best_seq[l], ppn: ftl.l2p[l], version: best_version[l] };
                            }
                            best_seq[l] = p.seq;
                            best_version[l] = p.version;
                            ftl.l2p[l] = ppn;
                        } else if p.seq > older[l].seq || older[l].ppn == NONE {
                            older[l] = Older { seq: p.seq, ppn, version: p.version };
                        }
                    }
                    _ => {}
                }
            })?;
            if next == 0 {
                ftl.free.push_back(pbn);
            } else {
                ftl.set_used(pbn);
                if next < g.pages_per_block {
                    partial.push((is_gc, Frontier { pbn, next }));
                }
            }
        }
        // Known roles first; a block holding only a torn page serves whichever role is open
        // (the GC frontier first: a GC cut at its first copy must be able to finish).
        partial.sort_by_key(|&(role, f)| (role.is_none(), f.pbn));
        for (role, f) in partial {
            let as_gc = match role {
                Some(gc) => gc,
                None => ftl.gc_frontier.is_none(),
            };
            // A frontier is written again, so it is no GC candidate.
            ftl.valid.remove(f.pbn);
            if as_gc && ftl.gc_frontier.is_none() {
                ftl.usage[f.pbn as usize] = BlockUse::GcFrontier;
                ftl.gc_frontier = Some(f);
            } else if ftl.frontier.is_none() {
                ftl.usage[f.pbn as usize] = BlockUse::Frontier;
                ftl.frontier = Some(f);
            } else {
                ftl.valid.insert(f.pbn);
            }
        }
        for &ppn in ftl.l2p.iter().filter(|&&p| p != NONE) {
            ftl.valid.incr(ppn / ftl.ppb);
        }
        ftl.restore_reserve(flash, &older)?;
        Ok(ftl)
    }

    /// Gives back the free block a cut-free run always has between requests (issue 29).
    /// A cut inside a GC that had taken the last free block for its destination, before
    /// the victim's erase, leaves no free block, and the torn page it left in the
    /// destination takes a place the GC had counted on: the next GC would find no block
    /// for its copies ("ran out of free blocks"), the device would take no more writes.
    /// So recovery finishes the job: greedy GC (the block with the fewest valid pages,
    /// whatever the interrupted victim was) into the room left in the two frontiers, until
    /// one block is free. A cut GC's victim still fits (it needs at most `ppb - 1` copies,
    /// less those already made, in a destination opened for them); recovery's own copies
    /// are data pages with newer sequence numbers, so a cut inside it is recovered the same
    /// way. Stops, leaving the device as scanned, when no candidate fits the room.
    fn restore_reserve(&mut self, flash: &mut Flash, older: &[Older]) -> FlashResult<()> {
        if self.free.is_empty() {
            self.undo_gc(flash, older)?;
        }
        let ppb = self.ppb;
        let room = move |f: Option<Frontier>| f.map_or(0, |f| ppb - f.next);
        while self.free.is_empty() {
            let Some(victim) = self.valid.min() else { break };
            let need = self.valid.valid(victim);
            if need > room(self.gc_frontier) + room(self.frontier) {
                break;
            }
            flash.note("recovery", || {
                format!("no free block left: recovery cleans block {victim} ({need} valid pages) into the frontiers")
            });
            for off in 0..self.ppb {
                let src = victim * self.ppb + off;
                let p = *flash.peek(src);
                if p.kind != PageKind::Data || p.lpn >= self.logical_pages || self.l2p[p.lpn as usize] != src {
                    continue;
                }
                let into_gc = room(self.gc_frontier) > 0;
                let f = if into_gc { self.gc_frontier.as_mut() } else { self.frontier.as_mut() }.expect("room checked");
                let dst = f.pbn * self.ppb + f.next;
                f.next += 1;
                let data = flash.read(src, Cause::Recovery)?;
                let seq = self.next_seq();
                flash.program(dst, Page::stamped(data.lpn, data.version, seq, TAG_GC), Cause::Recovery)?;
                self.remap(data.lpn, dst);
            }
            flash.erase(victim, Cause::Recovery)?;
            self.valid.remove(victim);
            self.usage[victim as usize] = BlockUse::Free;
            self.free.push_back(victim);
        }
        Ok(())
    }

    /// Undoes the GC a cut interrupted after it had opened its destination on the last free
    /// block: when every live page of the GC frontier is a copy whose source (the next
    /// newest copy, same version, in another block) is still readable, the frontier is
    /// erased and the map points back at the sources, which is the chip as it was before
    /// that GC began: the next request runs it again from the free block it had. Undoing
    /// costs no page (an erase cut short leaves only torn pages, undone again), where
    /// finishing would lose a page to every torn program a cut leaves on the way. (The
    /// version compare stands for a real FTL's "the copy's spare area names its source's
    /// sequence number".)
    fn undo_gc(&mut self, flash: &mut Flash, older: &[Older]) -> FlashResult<()> {
        let Some(f) = self.gc_frontier else { return Ok(()) };
        let live: Vec<Lpn> = (0..f.next)
            .map(|off| f.pbn * self.ppb + off)
            .filter_map(|ppn| {
                let p = flash.peek(ppn);
                (p.kind == PageKind::Data && p.lpn < self.logical_pages && self.l2p[p.lpn as usize] == ppn)
                    .then_some(p.lpn)
            })
            .collect();
        let undoable = live.iter().all(|&l| {
            let o = older[l as usize];
            o.ppn != NONE && o.ppn / self.ppb != f.pbn && o.version == flash.peek(self.l2p[l as usize]).version
        });
        if !undoable {
            return Ok(());
        }
        flash.note("recovery", || {
            format!(
                "no free block left: the GC destination {} holds only copies whose sources are intact; recovery erases it (the GC runs again later)",
                f.pbn
            )
        });
        flash.erase(f.pbn, Cause::Recovery)?;
        for &l in &live {
            self.remap(l, older[l as usize].ppn);
        }
        self.gc_frontier = None;
        self.usage[f.pbn as usize] = BlockUse::Free;
        self.free.push_back(f.pbn);
        Ok(())
    }

    /// A full block: it becomes a GC candidate.
    fn set_used(&mut self, pbn: Pbn) {
        self.usage[pbn as usize] = BlockUse::Used;
        self.valid.insert(pbn);
    }

    fn take_free(&mut self, role: BlockUse) -> FlashResult<Frontier> {
        let pbn =
            self.free.pop_front().ok_or_else(|| FlashError::Violation("page mapping ran out of free blocks".into()))?;
        self.usage[pbn as usize] = role;
        Ok(Frontier { pbn, next: 0 })
    }

    /// Invalidates the old copy of `lpn` and points the map at `ppn`. Inline: every host
    /// write and GC copy does it (issue 37; `#[inline]` alone left it a call).
    #[inline(always)]
    fn remap(&mut self, lpn: Lpn, ppn: Ppn) {
        let entry = &mut self.l2p[lpn as usize];
        let old = std::mem::replace(entry, ppn);
        if old != NONE {
            self.valid.decr(self.blocks_of.pbn(old));
        }
        self.valid.incr(self.blocks_of.pbn(ppn));
    }

    /// A page of the write frontier, opening a new one (and collecting garbage
    /// first if free blocks run short) when the current one is full.
    /// Inline, the rest out of line (`open_frontier`): one write in 64 opens a block.
    #[inline(always)]
    fn next_host_page(&mut self, flash: &mut Flash) -> FlashResult<Ppn> {
        match self.frontier {
            Some(f) if f.next < self.ppb => Ok(f.pbn * self.ppb + f.next),
            _ => self.open_frontier(flash),
        }
    }

    #[inline(never)]
    fn open_frontier(&mut self, flash: &mut Flash) -> FlashResult<Ppn> {
        if let Some(f) = self.frontier {
            self.set_used(f.pbn);
            self.frontier = None;
        }
        while self.free.len() < 2 {
            self.collect(flash)?;
        }
        let f = self.take_free(BlockUse::Frontier)?;
        flash.note("alloc", || format!("write frontier full: block {} opened for host writes", f.pbn));
        self.frontier = Some(f);
        Ok(f.pbn * self.ppb)
    }

    /// Greedy GC: clean the used block with the fewest valid pages.
    fn collect(&mut self, flash: &mut Flash) -> FlashResult<()> {
        let victim = self.valid.min().ok_or_else(|| FlashError::Violation("no block to collect".into()))?;
        let valid = self.valid.valid(victim);
        if valid == self.ppb {
            return Err(FlashError::Violation("garbage collection found no invalid page".into()));
        }
        // Counts at its first operation (the first copy's read, or the erase).
        flash.count_at_next_op(Count::GcRun);
        flash.note("gc", || {
            format!(
                "free blocks low: GC picks block {victim} (fewest valid pages: {valid} of {}), copies {valid}, erases it",
                self.ppb
            )
        });
        // Out of the candidates before its copies, not after its erase: each copy's `remap`
        // takes one valid page off the victim, which for a candidate moves it to the head of
        // the next lower count's list (its node and three neighbours' written: a quarter of a
        // GC copy's instructions, issue 37); a block that is no candidate only has its count
        // changed. The other candidates' lists end the same (a block moved in and out of a
        // list leaves the others in their order), and no choice is made during the copies.
        self.valid.remove(victim);
        // The victim's map entries asked of the cache together, not one miss per copy in turn
        // (issue 37: a uniform trace's victims hold pages of lpns all over the map).
        // wasm32 has no prefetch: there the entries are read, all before the copies, so their
        // misses overlap (the copy loop's map check was 68 % of the wasm GC's samples, session 21).
        if cfg!(target_arch = "x86_64") {
            for off in 0..self.ppb {
                let p = flash.peek(victim * self.ppb + off);
                if p.kind == PageKind::Data {
                    host::prefetch(self.l2p.as_ptr().wrapping_add(p.lpn as usize));
                }
            }
        } else {
            let mut sum = 0u32;
            for p in flash.block_pages(victim) {
                if p.kind == PageKind::Data {
                    sum = sum.wrapping_add(self.l2p.get(p.lpn as usize).copied().unwrap_or(0));
                }
            }
            core::hint::black_box(sum);
        }
        for off in 0..self.ppb {
            let src = victim * self.ppb + off;
            let p = *flash.peek(src);
            // Only pages the map points at are live; the map is RAM, so no read is needed to know.
            if p.kind != PageKind::Data || self.l2p[p.lpn as usize] != src {
                continue;
            }
            let dst = self.next_gc_page()?;
            let data = flash.read(src, Cause::Gc)?;
            let seq = self.next_seq();
            let copy = Page::stamped(data.lpn, data.version, seq, TAG_GC);
            flash.program(dst, copy, Cause::Gc)?;
            self.advance_gc();
            self.remap(data.lpn, dst);
        }
        flash.erase(victim, Cause::Gc)?;
        self.usage[victim as usize] = BlockUse::Free;
        self.free.push_back(victim);
        Ok(())
    }

    fn next_gc_page(&mut self) -> FlashResult<Ppn> {
        match self.gc_frontier {
            Some(f) if f.next < self.ppb => Ok(f.pbn * self.ppb + f.next),
            other => {
                if let Some(f) = other {
                    self.set_used(f.pbn);
                }
                let f = self.take_free(BlockUse::GcFrontier)?;
                self.gc_frontier = Some(f);
                Ok(f.pbn * self.ppb)
            }
        }
    }

    fn advance_gc(&mut self) {
        if let Some(f) = &mut self.gc_frontier {
            f.next += 1;
        }
    }
}

impl Ftl for PageFtl {
    fn name(&self) -> &'static str {
        "page"
    }
    fn logical_pages(&self) -> u32 {
        self.logical_pages
    }

    // Inline into this scheme's closed loop (`run_closed` below; issue 37: no call, no
    // result through memory; `#[inline]` alone left it a call).
    #[inline(always)]
    fn write(&mut self, flash: &mut Flash, lpn: Lpn, version: u32) -> FlashResult<()> {
        let ppn = self.next_host_page(flash)?;
        let seq = self.next_seq();
        flash.program(ppn, Page::data(lpn, version).with_seq(seq), Cause::Host)?;
        if let Some(f) = &mut self.frontier {
            f.next += 1;
        }
        // The map changes only once the program succeeded: a cut leaves the old mapping.
        self.remap(lpn, ppn);
        Ok(())
    }

    // The closed loop compiled for page mapping, `write` and `read` inline in it (issue 37).
    // Its time was cache misses, not instructions (issue 37: a uniform trace's lpns spread over
    // a 1.5 MB map, a 1.5 MB oracle and 8 MB of page states): each request prefetches the map
    // entry and oracle slot of the request `AHEAD` on, and, for the read `AHEAD / 2` on (its
    // map entry in cache by then), the page state `version_at` reads.
    // wasm32 has no prefetch instruction: there, every `GROUP` requests, the next group's map
    // entries and oracle slots and this group's reads' page states are read together
    // (`touch_group`), so their misses overlap instead of coming one after another inside each
    // request. Natively the prefetches stay: a prefetch retires at once, where a load that
    // misses holds the reorder buffer, and in wall-clock pairs the grouped reads were not
    // faster than the prefetches (docs/performance.md, session 18).
    fn run_closed(&mut self, parts: &mut Parts<'_>, reqs: &[Request]) -> Option<Result<(), (Request, FlashError)>> {
        #[cfg(not(target_arch = "x86_64"))]
        return Some(host::run_closed_ahead(self, parts, reqs, |ftl: &PageFtl, s, reqs, i| {
            if i % GROUP == 0 {
                core::hint::black_box(ftl.touch_group(s, reqs, i));
            }
        }));
        #[cfg(target_arch = "x86_64")]
        Some(host::run_closed_ahead(self, parts, reqs, |ftl: &PageFtl, s, reqs, i| {
            if let Some(lpn) = reqs.get(i + AHEAD).and_then(Request::lpn) {
                host::prefetch(ftl.l2p.as_ptr().wrapping_add(lpn as usize));
                host::prefetch(s.oracle.latest().as_ptr().wrapping_add(lpn as usize));
            }
            if let Some(&Request::Read { lpn }) = reqs.get(i + AHEAD / 2) {
                if let Some(&ppn) = ftl.l2p.get(lpn as usize) {
                    host::prefetch(s.flash.pages().as_ptr().wrapping_add(ppn as usize));
                }
            }
        }))
    }

    /// The frontier's room, then a block a frontier while two or more are free: the write
    /// that opens a frontier with fewer free collects garbage first (`open_frontier`). A
    /// read does no other flash work, so only writes count.
    fn quiet_writes(&self) -> Option<u64> {
        let room = self.frontier.map_or(0, |f| self.ppb - f.next);
        let opens = (self.free.len() as u64).saturating_sub(1);
        Some(room as u64 + opens * self.ppb as u64)
    }

    #[inline]
    fn read(&mut self, flash: &mut Flash, lpn: Lpn) -> FlashResult<Option<Ppn>> {
        let ppn = self.l2p[lpn as usize];
        if ppn == NONE {
            return Ok(None);
        }
        flash.read(ppn, Cause::Host)?;
        Ok(Some(ppn))
    }

    fn locate(&self, lpn: Lpn) -> Option<Ppn> {
        self.l2p.get(lpn as usize).copied().filter(|&p| p != NONE)
    }

    fn block_role(&self, pbn: Pbn) -> BlockRole {
        match self.usage[pbn as usize] {
            BlockUse::Free => BlockRole::Free,
            BlockUse::Frontier => BlockRole::Active,
            BlockUse::GcFrontier => BlockRole::GcDestination,
            BlockUse::Used => BlockRole::Data,
        }
    }

    fn ram_bytes(&self) -> u64 {
        // One 4-byte entry per logical page.
        4 * self.logical_pages as u64
    }

    fn panels(&self, _flash: &Flash) -> Vec<Panel> {
        let entries = self
            .l2p
            .iter()
            .enumerate()
            .take(PANEL_ROWS)
            .map(|(lpn, &ppn)| PageMapEntry { lpn: lpn as u32, at: PageAt::of(ppn, self.ppb) })
            .collect();
        vec![Panel::new(
            format!("Page map (L2P, RAM){}", first_rows(self.l2p.len(), "LPNs")),
            PanelData::PageMap { entries },
        )]
    }
}
