//! DFTL after a power cut: RAM (the GTD and the CMT) is gone. The paper says the GTD can be
//! rebuilt from the translation pages' spare area and leaves the rest open; the choices
//! (docs/schemes/dftl.md, "Power cuts"):
//!
//! - Durable before a write is acknowledged: the data page only, with its LPN and a
//!   sequence number in the spare area. Its mapping may live in the CMT alone (dirty).
//! - The CMT entry of a write is made (room made, the entry loaded) before the data page is
//!   programmed, and GC updates a cached entry in the CMT, an uncached one in its
//!   translation page before the victim's erase. So a mapping its translation page does
//!   not hold is always a CMT entry: after a cut there are at most `cmt_entries` of them.
//! - Recovery reads every page's spare area (as page mapping's recovery does): the newest
//!   copy of each translation page gives the GTD; the newest sequence number of each LPN
//!   gives its data (a GC copy keeps its source's number: equal numbers are equal data).
//!   Each translation page is read once; an entry that points at anything but a newest copy
//!   of its LPN is corrected by a dirty CMT entry (no flash write during the scan).
//! - Then GC runs until the reserve is back, as before any request.

use super::{BlockUse, Dftl, Frontier, SchemeParams, TAG_GC, TAG_TRANS};
use crate::nand::{Cause, Flash, FlashError, FlashResult, PageKind, Ppn, NONE};

/// What the spare-area scan keeps of one data page.
#[derive(Clone, Copy)]
struct Seen {
    lpn: u32,
    seq: u32,
}

impl Dftl {
    pub fn recover(flash: &mut Flash, params: &SchemeParams) -> FlashResult<Dftl> {
        let g = *flash.geometry();
        flash.note("recovery", || {
            "DFTL recovery: read every spare area; the newest copy of each translation page rebuilds the GTD, the newest copy of each LPN its data; translation entries that lag go into the CMT as dirty entries".into()
        });
        let mut ftl = Dftl::new(&g, params).map_err(FlashError::Violation)?;
        let lp = ftl.logical_pages as usize;
        let mut best_seq = vec![0u32; lp];
        let mut best_ppn = vec![NONE; lp];
        let mut gtd_seq = vec![0u32; ftl.gtd.len()];
        // The data page each readable data page holds (for checking translation entries).
        let mut seen = vec![Seen { lpn: NONE, seq: 0 }; g.pages() as usize];
        // Partly written blocks: (role of the last readable page, frontier).
        let mut partial: Vec<(Option<BlockUse>, Frontier)> = Vec::new();
        ftl.free.clear();
        for pbn in 0..g.blocks {
            let (mut next, mut role, mut trans) = (g.pages_per_block, None, false);
            for off in 0..g.pages_per_block {
                let ppn = pbn * g.pages_per_block + off;
                let p = flash.read_oob(ppn, Cause::Recovery)?;
                match p.kind {
                    PageKind::Erased => {
                        next = off;
                        break;
                    }
                    PageKind::Data if p.lpn < ftl.logical_pages => {
                        role = Some(if p.tag == TAG_GC { BlockUse::DataGc } else { BlockUse::Host });
                        ftl.seq = ftl.seq.max(p.seq);
                        seen[ppn as usize] = Seen { lpn: p.lpn, seq: p.seq };
                        let l = p.lpn as usize;
                        // Among equal numbers (a GC copy and its source) the later-found one.
                        if p.seq >= best_seq[l] {
                            best_seq[l] = p.seq;
                            best_ppn[l] = ppn;
                        }
                    }
                    PageKind::Meta if p.tag == TAG_TRANS && (p.lpn as usize) < ftl.gtd.len() => {
                        role = Some(BlockUse::TransOpen);
                        trans = true;
                        ftl.seq = ftl.seq.max(p.seq);
                        let t = p.lpn as usize;
                        if p.seq >= gtd_seq[t] {
                            gtd_seq[t] = p.seq;
                            ftl.gtd[t] = ppn;
                        }
                    }
                    _ => {}
                }
            }
            if next == 0 {
                ftl.free.push_back(pbn);
                continue;
            }
            let full = if trans { BlockUse::Trans } else { BlockUse::Data };
            if next < g.pages_per_block {
                partial.push((role, Frontier { pbn, next }));
                ftl.usage[pbn as usize] = full;
            } else {
                ftl.close(pbn, full);
            }
        }
        // The partly written blocks become the frontiers again (one per role; a block with
        // no readable page serves a data role left open, else it is closed like a full one).
        partial.sort_by_key(|&(role, f)| (role.is_none(), f.pbn));
        for (role, f) in partial {
            let slot = match role {
                Some(BlockUse::Host) => 0,
                Some(BlockUse::DataGc) => 1,
                Some(_) => 2,
                None if ftl.gc.is_none() => 1,
                None if ftl.host.is_none() => 0,
                None => 3,
            };
            let (frontier, open) = match slot {
                0 => (&mut ftl.host, BlockUse::Host),
                1 => (&mut ftl.gc, BlockUse::DataGc),
                2 => (&mut ftl.trans, BlockUse::TransOpen),
                _ => {
                    let u = ftl.usage[f.pbn as usize];
                    ftl.close(f.pbn, u);
                    continue;
                }
            };
            if frontier.is_none() {
                *frontier = Some(f);
                ftl.usage[f.pbn as usize] = open;
            } else {
                let u = ftl.usage[f.pbn as usize];
                ftl.close(f.pbn, u);
            }
        }
        // The translation pages, once each: every entry that does not point at a newest copy
        // of its LPN lags a write the CMT held; it goes back into the CMT, dirty.
        let per_page = ftl.per_page;
        let mut lagging: Vec<(u32, Ppn)> = Vec::new();
        for tvpn in 0..ftl.gtd.len() as u32 {
            let entries = ftl.read_translation(flash, tvpn, Cause::Recovery)?;
            for (i, &t) in entries.iter().enumerate() {
                let lpn = tvpn * per_page + i as u32;
                if lpn as usize >= lp {
                    break;
                }
                let l = lpn as usize;
                let newest = best_ppn[l] != NONE;
                let agrees = if newest {
                    t != NONE && (t as usize) < seen.len() && seen[t as usize].lpn == lpn && seen[t as usize].seq == best_seq[l]
                } else {
                    t == NONE
                };
                let at = if agrees { t } else { best_ppn[l] };
                if at != NONE {
                    ftl.at[l] = at;
                    ftl.valid.incr(at / ftl.ppb);
                }
                if !agrees {
                    lagging.push((lpn, at));
                }
            }
        }
        for p in ftl.gtd.clone() {
            if p != NONE {
                ftl.valid.incr(p / ftl.ppb);
            }
        }
        flash.note("recovery", || format!("{} mappings lagged their translation pages: back in the CMT, dirty", lagging.len()));
        for (lpn, ppn) in lagging {
            while ftl.cmt.is_full() {
                ftl.evict(flash)?;
            }
            ftl.cmt.insert(lpn, ppn, true);
        }
        ftl.ensure_free(flash, Cause::Recovery)?;
        Ok(ftl)
    }
}
