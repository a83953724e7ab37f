//! KRAFT/KAST rebuilt from the chip alone after a power cut (docs/schemes/recovery.md).

use super::*;
use crate::ftl::scan_recovery::{scan, Extent};

impl Kraft {
    /// Rebuilds KRAFT / KAST from the chip alone (the paper gives no recovery protocol:
    /// a spare-area scan, docs/schemes/recovery.md). Every page's OOB is read (LPN,
    /// sequence number, tag); per LPN the readable copy with the highest sequence number
    /// is live; torn pages are skipped. Then, until nothing changes:
    /// - a logical block whose newest live page is a full-merge copy while other live pages
    ///   of it lie elsewhere had its merge cut before the old data block's erase (the
    ///   commit): the merge's new block is erased (its pages are copies of pages that are
    ///   still readable), the merge runs again when needed;
    /// - then a block with only torn pages or no live page is erased (an interrupted
    ///   erase, a merged data block whose erase was cut, an emptied log block).
    ///
    /// Each logical block's live pages then lie in at most two blocks: the oldest one
    /// whose pages all sit at their own offsets is its data block, the other its log
    /// block (a block cut in a switch is thus still the log, or already the data block
    /// once the old data block is gone). Log tables hold only live pages; a log is serial
    /// iff it holds one logical block, every page at its offset, none torn or stale.
    pub fn recover(flash: &mut Flash, params: &SchemeParams, variant: Variant) -> FlashResult<Kraft> {
        Kraft::recover_inner(flash, params, variant, true)
    }

    /// Test hook: recovery without the undo of uncommitted full merges, to show that the
    /// crash sweep catches a broken recovery.
    #[doc(hidden)]
    pub fn debug_recover_without_merge_undo(
        flash: &mut Flash,
        params: &SchemeParams,
        variant: Variant,
    ) -> FlashResult<Kraft> {
        Kraft::recover_inner(flash, params, variant, false)
    }

    pub(super) fn recover_inner(
        flash: &mut Flash,
        params: &SchemeParams,
        variant: Variant,
        undo_merges: bool,
    ) -> FlashResult<Kraft> {
        let g = *flash.geometry();
        let n = g.pages_per_block;
        let mut k = Kraft::new(&g, params, variant).map_err(FlashError::Violation)?;
        let m = k.logs.len();
        let bad = |s: String| FlashError::Violation(format!("KRAFT recovery: {s}"));
        let lp = k.logical_blocks * n;
        // Per block: readable pages (offset, lpn, seq, tag), pages used, torn offsets.
        let mut pages: Vec<Vec<(u32, Lpn, u32, u8)>> = vec![Vec::new(); g.blocks as usize];
        let mut used = vec![0u32; g.blocks as usize];
        let mut torn: Vec<Vec<u32>> = vec![Vec::new(); g.blocks as usize];
        scan(flash, 0..g.blocks, Extent::Whole, |pbn, o, p| {
            match p.kind {
                PageKind::Erased => return,
                PageKind::Data if p.lpn < lp => pages[pbn as usize].push((o, p.lpn, p.seq, p.tag)),
                _ => torn[pbn as usize].push(o),
            }
            used[pbn as usize] = o + 1;
        })?;
        let mut best: Vec<(u32, Ppn)>;
        loop {
            best = vec![(0, NONE); lp as usize];
            for (pbn, ps) in pages.iter().enumerate() {
                for &(o, lpn, seq, _) in ps {
                    if seq >= best[lpn as usize].0 {
                        best[lpn as usize] = (seq, pbn as u32 * n + o);
                    }
                }
            }
            let live_in = |pbn: usize, best: &Vec<(u32, Ppn)>| {
                pages[pbn].iter().filter(|&&(o, lpn, _, _)| best[lpn as usize].1 == pbn as u32 * n + o).count()
            };
            // Uncommitted full merges first (their sources may look stale until the merge's
            // new block is gone): the newest live page of a logical block is a merge copy
            // while some of its live pages are in another block.
            let mut erase: Vec<Pbn> = Vec::new();
            if undo_merges {
                for lbn in 0..k.logical_blocks {
                    let mine = &best[(lbn * n) as usize..((lbn + 1) * n) as usize];
                    let Some(&(_, newest)) = mine.iter().filter(|e| e.1 != NONE).max_by_key(|e| e.0) else {
                        continue;
                    };
                    let (b, o) = (newest / n, newest % n);
                    let tag = pages[b as usize].iter().find(|e| e.0 == o).map(|e| e.3);
                    if tag == Some(TAG_MERGE) && mine.iter().any(|e| e.1 != NONE && e.1 / n != b) {
                        erase.push(b);
                    }
                }
            }
            if erase.is_empty() {
                erase = (0..g.blocks).filter(|&b| used[b as usize] > 0 && live_in(b as usize, &best) == 0).collect();
            }
            if erase.is_empty() {
                break;
            }
            erase.sort_unstable();
            erase.dedup();
            flash.note("recovery", || format!("KRAFT recovery: blocks erased (uncommitted full-merge blocks, or blocks with no live page): {erase:?}"));
            for &b in &erase {
                flash.erase(b, Cause::Recovery)?;
                pages[b as usize].clear();
                torn[b as usize].clear();
                used[b as usize] = 0;
            }
        }
        k.seq = pages.iter().flatten().map(|e| e.2).max().unwrap_or(0);
        k.clock = k.seq as u64;
        let is_live = |pbn: u32, o: u32, lpn: Lpn| best[lpn as usize].1 == pbn * n + o;
        let epoch = |pbn: u32| pages[pbn as usize].iter().map(|e| e.2).min().unwrap_or(0);
        let home_shaped = |pbn: u32, lbn: u32| pages[pbn as usize].iter().all(|&(o, lpn, _, _)| lpn == lbn * n + o);
        // Blocks holding live pages of each logical block.
        let mut holders: Vec<Vec<Pbn>> = vec![Vec::new(); k.logical_blocks as usize];
        for pbn in 0..g.blocks {
            for &(o, lpn, _, _) in &pages[pbn as usize] {
                let h = &mut holders[(lpn / n) as usize];
                if is_live(pbn, o, lpn) && !h.contains(&pbn) {
                    h.push(pbn);
                }
            }
        }
        let mut log_blocks: Vec<Pbn> = Vec::new();
        let mut log_of_lbn: Vec<Pbn> = vec![NONE; k.logical_blocks as usize];
        for lbn in 0..k.logical_blocks {
            let h = &mut holders[lbn as usize];
            h.sort_by_key(|&b| epoch(b));
            let data = h.iter().copied().find(|&b| home_shaped(b, lbn));
            let logs: Vec<Pbn> = h.iter().copied().filter(|&b| Some(b) != data).collect();
            if logs.len() > 1 {
                return Err(bad(format!("logical block {lbn} has live pages in {} log blocks", logs.len())));
            }
            if let Some(d) = data {
                k.data[lbn as usize] = d;
                k.usage[d as usize] = Use::Data(lbn);
                k.unreadable.extend(torn[d as usize].iter().map(|&o| d * n + o));
            }
            if let Some(&l) = logs.first() {
                log_of_lbn[lbn as usize] = l;
                if !log_blocks.contains(&l) {
                    log_blocks.push(l);
                }
            }
        }
        if log_blocks.len() > m {
            return Err(bad(format!("{} log blocks hold live pages, more than M = {m}", log_blocks.len())));
        }
        log_blocks.sort_by_key(|&b| epoch(b));
        k.usage.iter_mut().for_each(|u| {
            if let Use::Log(_) = u {
                *u = Use::Free
            }
        });
        k.log_of.iter_mut().for_each(|x| *x = NONE);
        for (i, &b) in log_blocks.iter().enumerate() {
            let mut log = LogBlock::new(b, n);
            let mut ps = pages[b as usize].clone();
            ps.sort_by_key(|e| e.0);
            for &(o, lpn, seq, _) in &ps {
                let lbn = lpn / n;
                if !is_live(b, o, lpn) || log_of_lbn[lbn as usize] != b {
                    continue;
                }
                let ri = match log.lbns.iter().position(|&x| x == lbn) {
                    Some(r) => r,
                    None => {
                        log.lbns.push(lbn);
                        log.lbns.len() - 1
                    }
                };
                log.ri[o as usize] = ri as u16;
                log.rlsn[o as usize] = (lpn % n) as u16;
                log.last_used = log.last_used.max(seq as u64);
                k.log_of[lbn as usize] = i as u32;
            }
            if log.lbns.len() as u32 > k.k {
                return Err(bad(format!(
                    "log block {b} holds {} logical blocks, more than K = {}",
                    log.lbns.len(),
                    k.k
                )));
            }
            log.top = used[b as usize];
            log.serial = log.lbns.len() == 1
                && torn[b as usize].is_empty()
                && ps.iter().all(|&(o, lpn, _, _)| is_live(b, o, lpn) && lpn % n == o);
            k.usage[b as usize] = Use::Log(i as u32);
            k.logs[i] = log;
        }
        k.free.reset((0..g.blocks).filter(|&b| k.usage[b as usize] == Use::Free));
        for i in log_blocks.len()..m {
            let b = k.free.take().map_err(|_| bad("no free block for an empty log slot".into()))?;
            k.usage[b as usize] = Use::Log(i as u32);
            k.logs[i] = LogBlock::new(b, n);
        }
        Ok(k)
    }
}
