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

use std::collections::VecDeque;

use super::{BlockRole, Ftl, SchemeParams, Table};
use crate::nand::{Cause, Flash, FlashError, FlashResult, Geometry, Lpn, Page, PageKind, Pbn, Ppn, NONE};

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
    free: VecDeque<Pbn>,
    /// Simulation bookkeeping (not NFTL's RAM): where every LPN lives.
    loc: Vec<Ppn>,
    merges: u64,
    copies: u64,
}

/// Logical blocks a chip exports at a utilisation: the RFTL capacity ⌊blocks/3⌋ times
/// the utilisation, so RFTL, GFTL and NFTL on one chip serve the same logical space.
pub fn logical_blocks(g: &Geometry, params: &SchemeParams) -> Result<u32, String> {
    let u = params.utilisation.unwrap_or(1.0);
    if !(u > 0.0 && u <= 1.0) {
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
            free: (0..g.blocks).collect(),
            loc: vec![NONE; (n * ppb) as usize],
            merges: 0,
            copies: 0,
        })
    }

    fn alloc(&mut self, u: Use) -> FlashResult<Pbn> {
        let b = self.free.pop_front().ok_or_else(|| FlashError::Violation("NFTL ran out of free blocks".into()))?;
        self.usage[b as usize] = u;
        Ok(b)
    }

    fn release(&mut self, b: Pbn) {
        self.usage[b as usize] = Use::Free;
        self.free.push_back(b);
    }

    /// Both blocks full: merge the latest copy of every page, with the new data for
    /// `lpn`, into a fresh block; erase the old data and replacement blocks.
    fn merge(&mut self, flash: &mut Flash, lbn: u32, lpn: Lpn, version: u32) -> FlashResult<()> {
        let ppb = self.ppb;
        let e = self.map[lbn as usize];
        flash.counters.full_merges += 1;
        flash.counters.gc_runs += 1;
        self.merges += 1;
        flash.note("merge", || {
            format!("logical block {lbn}: data block {} and replacement block {} are full — merge into a new block", e.data, e.repl)
        });
        // The replacement block's OOB tells which page holds the latest copy of each LPN.
        for o in 0..e.repl_next {
            flash.read_oob(e.repl * ppb + o, Cause::FullMerge)?;
        }
        let nb = self.alloc(Use::Data(lbn))?;
        for bo in 0..ppb {
            let l = lbn * ppb + bo;
            let dst = nb * ppb + bo;
            if l == lpn {
                flash.program(dst, Page::data(lpn, version), Cause::Host)?;
            } else {
                let src = self.loc[l as usize];
                if src == NONE {
                    continue;
                }
                flash.copy(src, dst, Cause::FullMerge)?;
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
            flash.program(home, Page::data(lpn, version), Cause::Host)?;
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
            flash.program(dst, Page::data(lpn, version), Cause::Host)?;
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
                if flash.read_oob(q, Cause::Host)?.lpn == lpn {
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

    fn tables(&self, _flash: &Flash) -> Vec<Table> {
        let b = |x: Pbn| if x == NONE { "-".to_string() } else { x.to_string() };
        let rows = self
            .map
            .iter()
            .enumerate()
            .take(256)
            .map(|(l, e)| {
                vec![
                    l.to_string(),
                    b(e.data),
                    b(e.repl),
                    if e.repl == NONE { "-".into() } else { format!("{}/{}", e.repl_next, self.ppb) },
                ]
            })
            .collect();
        vec![Table {
            title: format!(
                "Block map (RAM){}",
                if self.map.len() > 256 { " — first 256 logical blocks" } else { "" }
            ),
            columns: vec!["lbn".into(), "data".into(), "replacement".into(), "replacement used".into()],
            rows,
        }]
    }
}
