//! NFTL (Ban, M-Systems 1998) as the RFTL paper summarises it (section 2.2): a logical
//! block maps to a *data* (primary) block whose pages sit at their block offset, and,
//! once a page is rewritten, to a *replacement* block filled in order; when both are
//! full, the latest copy of every page is merged into a new block and both old blocks
//! are erased — a garbage collection whose blocking time includes two erases.
//!
//! Costs (our reading, docs/schemes/rftl.md): the RAM holds only the block map, so a write
//! first reads the OOB of its page in the data block (is it free?); a read scans the
//! replacement block's OOB from its newest page backwards until it finds the LPN (at most
//! π OOB reads), then reads the page. A merge reads the replacement's OOB once (π OOB
//! reads), copies every other valid page (read + program), writes the new data in place
//! and erases both blocks.

use super::pool::BlockPool;
use super::panel::{first_rows, some, BlockFill, ReplacementEntry, PANEL_ROWS};
use super::registry::{self, Builder, Mapping, PanelKind, Run, SchemeEntry};
use super::host::{Parts, GROUP};
use super::scan_recovery::{scan, Extent};
use super::{BlockRole, Cleaning, Ftl, Panel, PanelData, SchemeParams};
use crate::nand::{Cause, Count, Flash, FlashError, FlashResult, Geometry, Lpn, Page, PageKind, Pbn, Ppn, NONE};
use crate::trace::Request;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Use {
    Free,
    Data(u32),
    Replacement(u32),
}

#[derive(Clone, Copy, Debug)]
struct Entry {
    data: Pbn,
    repl: Pbn,
    /// Next free page of the replacement block (its pages are filled in order).
    repl_next: u32,
}

#[derive(Clone)]
pub struct Nftl {
    ppb: u32,
    logical_pages: u32,
    map: Vec<Entry>,
    usage: Vec<Use>,
    free: BlockPool,
    /// Simulation bookkeeping (not NFTL's RAM): where every LPN lives.
    loc: Vec<Ppn>,
    merges: u64,
    copies: u64,
    /// Sequence number written to the spare area of every program (host writes and merge
    /// copies alike), so that a spare-area scan after a power cut can tell the newest copy
    /// of an LPN and a merge's new block from the blocks it replaces (docs/schemes/recovery.md).
    seq: u32,
}

/// Spare-area tag: the page was programmed into a data (primary) block / a replacement block.
const TAG_DATA: u8 = 0;
const TAG_REPL: u8 = 1;

/// The registry's NFTL entry (ftl::REGISTRY).
pub const ENTRY: SchemeEntry = SchemeEntry {
    id: "nftl",
    label: "NFTL",
    short_label: "NFTL",
    description: "NFTL: block mapping with a replacement block; merge when both are full",
    params: &[registry::UTILISATION],
    cleaning: Cleaning::Merges,
    runs: &[Run::FullMerge],
    seldom: &[],
    mapping: Mapping::Block,
    panels: &[PanelKind::ResponseTimes],
    build: Builder::Geometry(|p, g| Ok(Box::new(Nftl::new(g, p)?))),
    fits: |p, c| logical_blocks(&c.geometry, p).map(|_| ()),
    recover: |flash, p| Ok(Box::new(Nftl::recover(flash, p)?)),
};

/// Logical blocks a chip exports at a utilisation: the RFTL capacity ⌊blocks/3⌋ times
/// the utilisation, so RFTL, GFTL and NFTL on one chip serve the same logical space.
pub fn logical_blocks(g: &Geometry, params: &SchemeParams) -> Result<u32, String> {
    let u = params.utilisation.unwrap_or(1.0);
    if registry::UTILISATION.check(u, g).is_err() {
        return Err(format!("utilisation must be in (0, 1] (got {u})"));
    }
    let max = g.blocks / 3;
    if max == 0 {
        return Err("this scheme needs at least 3 blocks".into());
    }
    Ok(((max as f64 * u).round() as u32).clamp(1, max))
}

impl Nftl {
    pub fn new(g: &Geometry, params: &SchemeParams) -> Result<Nftl, String> {
        let n = logical_blocks(g, params)?;
        let ppb = g.pages_per_block;
        Ok(Nftl {
            ppb,
            logical_pages: n * ppb,
            map: vec![Entry { data: NONE, repl: NONE, repl_next: 0 }; n as usize],
            usage: vec![Use::Free; g.blocks as usize],
            free: BlockPool::new("NFTL", 0..g.blocks),
            loc: vec![NONE; (n * ppb) as usize],
            merges: 0,
            copies: 0,
            seq: 0,
        })
    }

    fn page(&mut self, lpn: Lpn, version: u32, tag: u8) -> Page {
        self.seq += 1;
        Page::stamped(lpn, version, self.seq, tag)
    }

    /// Rebuilds NFTL from the chip alone (NFTL keeps no map on flash: a spare-area scan).
    /// Every page's OOB is read (LPN, sequence number, data/replacement tag); for each LPN
    /// the readable copy with the highest sequence number wins; torn pages are skipped.
    /// A merge cut short leaves a second data block of the logical block (the merge's new
    /// block, newer): while the old data block is still readable its erase has not begun,
    /// so the new block is redundant (copies, plus the unacknowledged host write) and is
    /// erased — the merge runs again at the next write that needs it. Once the old data
    /// block is gone the merge had committed: the new block is the data block and a
    /// replacement block left holding only older copies is erased. Blocks holding only
    /// torn pages (an interrupted first program or erase) are erased.
    pub fn recover(flash: &mut Flash, params: &SchemeParams) -> FlashResult<Nftl> {
        let g = *flash.geometry();
        let ppb = g.pages_per_block;
        let mut f = Nftl::new(&g, params).map_err(FlashError::Violation)?;
        let n = f.map.len();
        // Per block: owner lbn, tag, max seq, pages used (up to the last non-erased one).
        #[derive(Clone, Copy)]
        struct B {
            lbn: u32,
            tag: u8,
            max_seq: u32,
            used: u32,
        }
        let mut blocks: Vec<Option<B>> = vec![None; g.blocks as usize];
        let mut pages: Vec<(Ppn, Lpn, u32)> = Vec::new();
        for pbn in 0..g.blocks {
            let mut b = B { lbn: NONE, tag: 0, max_seq: 0, used: 0 };
            scan(flash, [pbn], Extent::Whole, |_, o, p| {
                let q = pbn * ppb + o;
                match p.kind {
                    PageKind::Erased => return,
                    PageKind::Data if p.lpn < f.logical_pages => {
                        b.lbn = p.lpn / ppb;
                        b.tag = p.tag;
                        b.max_seq = b.max_seq.max(p.seq);
                        f.seq = f.seq.max(p.seq);
                        pages.push((q, p.lpn, p.seq));
                    }
                    _ => {}
                }
                b.used = o + 1;
            })?;
            if b.used > 0 {
                blocks[pbn as usize] = Some(b);
            }
        }
        // Garbage first: torn-only blocks, and merge targets whose merge had not committed.
        let mut erase: Vec<Pbn> = Vec::new();
        let mut data: Vec<Vec<Pbn>> = vec![Vec::new(); n];
        let mut repl: Vec<Vec<Pbn>> = vec![Vec::new(); n];
        for (pbn, b) in blocks.iter().enumerate() {
            match b {
                Some(b) if b.lbn == NONE => erase.push(pbn as Pbn),
                Some(b) if b.tag == TAG_REPL => repl[b.lbn as usize].push(pbn as Pbn),
                Some(b) => data[b.lbn as usize].push(pbn as Pbn),
                None => {}
            }
        }
        let max_seq = |p: &Pbn| blocks[*p as usize].unwrap().max_seq;
        for l in 0..n {
            data[l].sort_by_key(max_seq);
            // The oldest data block stays; newer ones are uncommitted merge targets.
            while data[l].len() > 1 {
                erase.push(data[l].pop().unwrap());
            }
            if repl[l].len() > 1 {
                return Err(FlashError::Violation(format!(
                    "NFTL recovery: logical block {l} has two replacement blocks"
                )));
            }
        }
        let mut gone = vec![false; g.blocks as usize];
        for &b in &erase {
            gone[b as usize] = true;
        }
        // The newest readable copy of every LPN among the blocks that stay.
        let mut best = vec![0u32; f.logical_pages as usize];
        for &(q, lpn, seq) in &pages {
            if !gone[(q / ppb) as usize] && seq >= best[lpn as usize] {
                best[lpn as usize] = seq;
                f.loc[lpn as usize] = q;
            }
        }
        // A replacement block left with no live page (its merge committed) is erased too.
        for l in 0..n {
            if let Some(&r) = repl[l].first() {
                if data[l].is_empty() {
                    return Err(FlashError::Violation(format!(
                        "NFTL recovery: logical block {l} has a replacement block but no data block"
                    )));
                }
                let live = (0..ppb as usize).any(|bo| {
                    let q = f.loc[l * ppb as usize + bo];
                    q != NONE && q / ppb == r
                });
                if !live {
                    erase.push(r);
                    repl[l].clear();
                }
            }
        }
        flash.note("recovery", || {
            format!("NFTL recovery: spare areas scanned, newest copy of every LPN kept; blocks erased (torn only, uncommitted merge targets, replacement blocks left without a live page): {erase:?}")
        });
        for &b in &erase {
            flash.erase(b, Cause::Recovery)?;
        }
        for l in 0..n {
            if let Some(&d) = data[l].first() {
                f.map[l].data = d;
                f.usage[d as usize] = Use::Data(l as u32);
            }
            if let Some(&r) = repl[l].first() {
                f.map[l].repl = r;
                f.map[l].repl_next = blocks[r as usize].unwrap().used;
                f.usage[r as usize] = Use::Replacement(l as u32);
            }
        }
        f.free.reset((0..g.blocks).filter(|&b| f.usage[b as usize] == Use::Free));
        Ok(f)
    }

    /// Test hook: recovery that ignores sequence numbers (the first copy found wins),
    /// to show the crash sweep catches a broken recovery.
    #[doc(hidden)]
    pub fn debug_recover_first_copy(flash: &mut Flash, params: &SchemeParams) -> FlashResult<Nftl> {
        let mut f = Nftl::recover(flash, params)?;
        for q in 0..flash.geometry().pages() {
            let p = *flash.peek(q);
            if p.kind == PageKind::Data && p.lpn < f.logical_pages && f.loc[p.lpn as usize] != q {
                f.loc[p.lpn as usize] = q;
            }
        }
        Ok(f)
    }

    fn alloc(&mut self, u: Use) -> FlashResult<Pbn> {
        let b = self.free.take()?;
        self.usage[b as usize] = u;
        Ok(b)
    }

    fn release(&mut self, b: Pbn) {
        self.usage[b as usize] = Use::Free;
        self.free.release(b);
    }

    /// Both blocks full: merge the latest copy of every page, with the new data for
    /// `lpn`, into a fresh block; erase the old data and replacement blocks.
    fn merge(&mut self, flash: &mut Flash, lbn: u32, lpn: Lpn, version: u32) -> FlashResult<()> {
        let ppb = self.ppb;
        let e = self.map[lbn as usize];
        // NFTL's cleaning is this merge: it counts as a full merge (not a GC run: see
        // ftl::scheme_cleaning), at its first operation, the replacement's first OOB read.
        flash.count_at_next_op(Count::FullMerge);
        self.merges += 1;
        flash.note("merge", || {
            format!(
                "logical block {lbn}: data block {} and replacement block {} are full — merge into a new block",
                e.data, e.repl
            )
        });
        // The replacement block's OOB tells which page holds the latest copy of each LPN.
        for o in 0..e.repl_next {
            flash.read_oob_unused(e.repl * ppb + o, Cause::FullMerge)?;
        }
        let nb = self.alloc(Use::Data(lbn))?;
        for bo in 0..ppb {
            let l = lbn * ppb + bo;
            let dst = nb * ppb + bo;
            if l == lpn {
                let page = self.page(lpn, version, TAG_DATA);
                flash.program(dst, page, Cause::Host)?;
            } else {
                let src = self.loc[l as usize];
                if src == NONE {
                    continue;
                }
                // A copy (read + program) under a new sequence number, so that recovery
                // tells this block from the ones it replaces.
                let d = flash.read(src, Cause::FullMerge)?;
                let page = self.page(d.lpn, d.version, TAG_DATA);
                flash.program(dst, page, Cause::FullMerge)?;
                self.copies += 1;
            }
            self.loc[l as usize] = dst;
        }
        flash.erase(e.data, Cause::FullMerge)?;
        flash.erase(e.repl, Cause::FullMerge)?;
        self.release(e.data);
        self.release(e.repl);
        self.map[lbn as usize] = Entry { data: nb, repl: NONE, repl_next: 0 };
        Ok(())
    }
}

impl Nftl {
    /// Reads, before the `GROUP` requests from `i` run, the lines the next group's requests
    /// will miss on: a request's page at its offset in the data block (a write's OOB read
    /// of it, section 2.2; a read's last try), the newest page of its replacement block (a
    /// read's first OOB read), its `loc` entry and its oracle slot. The block map (4 B a
    /// logical block) stays in cache; the page states (16 B a page, 8 MB on the bench's chip)
    /// do not, and in wasm each was a miss waited for inside its request. Every load is
    /// independent of the others, so their misses overlap. Returns a sum only so that the
    /// loads are kept: changes nothing (LTFTL's and page mapping's `touch_group`, the same idea).
    #[inline(always)]
    fn touch_group(&self, s: &Parts<'_>, reqs: &[Request], i: usize) -> u32 {
        let (latest, pages, ppb) = (s.oracle.latest(), s.flash.pages(), self.ppb);
        let n = reqs.len();
        let mut sum = 0u32;
        for r in &reqs[n.min(i + GROUP)..n.min(i + 2 * GROUP)] {
            let Some(lpn) = r.lpn() else { continue };
            let Some(e) = self.map.get((lpn / ppb) as usize) else { continue };
            let home = e.data.wrapping_mul(ppb).wrapping_add(lpn % ppb) as usize;
            sum = sum.wrapping_add(pages.get(home).map_or(0, |p| p.lpn));
            if e.repl != NONE && e.repl_next > 0 {
                let newest = (e.repl * ppb + e.repl_next - 1) as usize;
                sum = sum.wrapping_add(pages.get(newest).map_or(0, |p| p.lpn));
            }
            sum = sum.wrapping_add(self.loc.get(lpn as usize).copied().unwrap_or(0));
            sum = sum.wrapping_add(latest.get(lpn as usize).copied().unwrap_or(0));
        }
        sum
    }
}

impl Ftl for Nftl {
    fn name(&self) -> &'static str {
        "nftl"
    }
    fn logical_pages(&self) -> u32 {
        self.logical_pages
    }

    fn write(&mut self, flash: &mut Flash, lpn: Lpn, version: u32) -> FlashResult<()> {
        let (lbn, bo) = (lpn / self.ppb, lpn % self.ppb);
        let ppb = self.ppb;
        if self.map[lbn as usize].data == NONE {
            let b = self.alloc(Use::Data(lbn))?;
            self.map[lbn as usize].data = b;
            flash.note("alloc", || format!("logical block {lbn}: block {b} is its data block"));
        }
        let e = self.map[lbn as usize];
        let home = e.data * ppb + bo;
        // Is the page at its offset in the data block still free? (its OOB)
        if flash.read_oob(home, Cause::Host)?.is_erased() {
            let page = self.page(lpn, version, TAG_DATA);
            flash.program(home, page, Cause::Host)?;
            self.loc[lpn as usize] = home;
            return Ok(());
        }
        if e.repl == NONE {
            let b = self.alloc(Use::Replacement(lbn))?;
            self.map[lbn as usize].repl = b;
            flash.note("alloc", || format!("logical block {lbn}: block {b} is its replacement block"));
        }
        let e = self.map[lbn as usize];
        if e.repl_next < ppb {
            let dst = e.repl * ppb + e.repl_next;
            let page = self.page(lpn, version, TAG_REPL);
            flash.program(dst, page, Cause::Host)?;
            self.map[lbn as usize].repl_next += 1;
            self.loc[lpn as usize] = dst;
            return Ok(());
        }
        self.merge(flash, lbn, lpn, version)
    }

    fn read(&mut self, flash: &mut Flash, lpn: Lpn) -> FlashResult<Option<Ppn>> {
        let (lbn, bo) = (lpn / self.ppb, lpn % self.ppb);
        let e = self.map[lbn as usize];
        if e.data == NONE {
            return Ok(None);
        }
        // Newest first: the last copy in the replacement block is the latest.
        if e.repl != NONE {
            for o in (0..e.repl_next).rev() {
                let q = e.repl * self.ppb + o;
                let p = flash.read_oob(q, Cause::Host)?;
                // A torn page fails its checksum: never read as data.
                if p.kind == PageKind::Data && p.lpn == lpn {
                    flash.read(q, Cause::Host)?;
                    return Ok(Some(q));
                }
            }
        }
        let home = e.data * self.ppb + bo;
        let p = flash.read(home, Cause::Host)?;
        Ok((p.kind == PageKind::Data && p.lpn == lpn).then_some(home))
    }

    fn locate(&self, lpn: Lpn) -> Option<Ppn> {
        self.loc.get(lpn as usize).copied().filter(|&p| p != NONE)
    }

    /// On wasm32 the closed loop is compiled for NFTL, with `touch_group` every `GROUP`
    /// requests (issue 37: NFTL's wasm / native cells). Natively the simulator's shared loop
    /// runs it, unchanged (`None`).
    fn run_closed(&mut self, parts: &mut Parts<'_>, reqs: &[Request]) -> Option<Result<(), (Request, FlashError)>> {
        super::host::run_closed_grouped(self, parts, reqs, Nftl::touch_group)
    }

    fn block_role(&self, pbn: Pbn) -> BlockRole {
        match self.usage[pbn as usize] {
            Use::Free => BlockRole::Free,
            Use::Data(_) => BlockRole::Data,
            Use::Replacement(_) => BlockRole::Replacement,
        }
    }

    fn block_owner(&self, pbn: Pbn) -> Option<u32> {
        match self.usage[pbn as usize] {
            Use::Free => None,
            Use::Data(l) | Use::Replacement(l) => Some(l),
        }
    }

    fn ram_bytes(&self) -> u64 {
        // Block map: two 2-byte PBNs per logical block.
        self.map.len() as u64 * 4
    }

    fn scheme_metrics(&self) -> serde_json::Value {
        serde_json::json!({
            "logical_blocks": self.map.len(),
            "merges": self.merges,
            "valid_page_copies": self.copies,
            "free_blocks": self.free.len(),
        })
    }

    fn panels(&self, _flash: &Flash) -> Vec<Panel> {
        let entries = self
            .map
            .iter()
            .enumerate()
            .take(PANEL_ROWS)
            .map(|(l, e)| ReplacementEntry {
                lbn: l as u32,
                data: some(e.data),
                replacement: BlockFill { pbn: some(e.repl), used: e.repl_next, of: self.ppb },
            })
            .collect();
        vec![Panel::new(
            format!("Block map (RAM){}", first_rows(self.map.len(), "logical blocks")),
            PanelData::ReplacementMap { entries },
        )]
    }
}
