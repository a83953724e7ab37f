//! RFTL rebuilt from the chip alone after a power cut (docs/schemes/recovery.md).

use super::*;
use crate::ftl::scan_recovery::{scan, Extent};

impl Rftl {
    /// Rebuilds RFTL from the chip alone after a power cut. The paper leaves recovery to a
    /// scan of the flash media (section 4.1: the sub-tables are in the OOB areas, RAM holds
    /// only their indices); we read the OOB of every page of every triple: its LPN, its
    /// sequence number and the role its block had when the page was programmed
    /// (docs/schemes/recovery.md). Per LPN the readable copy with the highest sequence
    /// number wins (a torn page fails its checksum and is skipped); per sub-table the page
    /// written last for it holds the current sub-table (every program writes the updated
    /// sub-table), so its index is restored and its OOB table is the group's live mapping.
    ///
    /// A GC in progress at the cut is not resumed step by step: recovery (not a real-time
    /// operation) finishes or undoes it at once, so the recovered triple is always in a
    /// no-GC state that satisfies Theorem 4.1. A block's *epoch* is its oldest page (the
    /// first program after its last erase) and its *first role* that page's tag. Rules,
    /// applied until none fits (docs/schemes/recovery.md):
    /// (1) a compaction block (below) that is the newest of two or three used blocks: it
    /// committed if it holds every live page of the logical block (its copies are the
    /// newest) — erase the others — otherwise erase it (redone by rule 4).
    /// (2) Two blocks that began as primary/replacement: the newer is the destination of a
    /// primary GC whose victim is still readable (its erase had not begun): its pages are
    /// copies, erase it. (3) Two blocks that began as buffers: a replacement GC (the older
    /// is its victim): copy the victim's live pages into the buffer (what recuts left no
    /// room for: into the primary, or compaction when there is none; with no room in
    /// either, the primary or the buffer is emptied into the others' free pages and erased
    /// first), erase the victim.
    /// (4) A buffer with fewer than k free pages beside a primary (full, or holding the
    /// GC's copies) or beside no primary at all (section 4.4's GC found nothing to copy:
    /// the buffer holds the only copy): a GC had begun or a circular shift had just
    /// happened — *compaction*: copy every live page into an empty block (tag COMPACT),
    /// erase the others. What is left is a no-GC triple: a primary, an empty replacement,
    /// a buffer with at least k free pages — or, after a primary GC with nothing to copy
    /// (exchange of two empty blocks), the buffer alone, as a cut-free run has it.
    pub fn recover(flash: &mut Flash, params: &SchemeParams) -> FlashResult<Rftl> {
        let g = *flash.geometry();
        let t = *flash.timing();
        let mut f = Rftl::new(&g, &t, params).map_err(FlashError::Violation)?;
        let ppb = f.ppb;
        let n = f.lbs.len() as u32;
        let bad = |m: String| FlashError::Violation(format!("RFTL recovery: {m}"));
        #[derive(Clone, Copy, Default)]
        struct B {
            used: u32,
            readable: u32,
            epoch: u32,
            first_role: u8,
        }
        for l in 0..n {
            let pbn = |i: usize| 3 * l + i as u32;
            let range = (l * ppb) as usize..((l + 1) * ppb) as usize;
            let mut rounds = 0;
            let (roles, info, latest) = loop {
                rounds += 1;
                if rounds > 16 {
                    return Err(bad(format!("logical block {l} does not settle")));
                }
                let mut info = [B::default(); 3];
                let mut latest = vec![(0u32, NONE); f.p.n_sub as usize];
                let mut best = vec![0u32; ppb as usize];
                f.loc[range.clone()].fill(NONE);
                for (i, b) in info.iter_mut().enumerate() {
                    scan(flash, [pbn(i)], Extent::Whole, |_, o, p| {
                        let q = pbn(i) * ppb + o;
                        match p.kind {
                            PageKind::Erased => return,
                            PageKind::Data if p.lpn / ppb == l => {
                                if b.readable == 0 || p.seq < b.epoch {
                                    b.epoch = p.seq;
                                    b.first_role = p.tag;
                                }
                                b.readable += 1;
                                f.seq = f.seq.max(p.seq);
                                let bo = (p.lpn % ppb) as usize;
                                if p.seq >= best[bo] {
                                    best[bo] = p.seq;
                                    f.loc[p.lpn as usize] = q;
                                }
                                let grp = bo / f.p.alpha as usize;
                                if p.seq >= latest[grp].0 {
                                    latest[grp] = (p.seq, q);
                                }
                            }
                            _ => {}
                        }
                        b.used = o + 1;
                    })?;
                    if b.used > 0 && b.readable == 0 {
                        // Only torn pages: an interrupted erase or first program.
                        flash.erase(pbn(i), Cause::Recovery)?;
                        *b = B::default();
                    }
                }
                let used: Vec<usize> = (0..3).filter(|&i| info[i].readable > 0).collect();
                let empty: Vec<usize> = (0..3).filter(|&i| info[i].readable == 0).collect();
                let live_in = |f: &Rftl, i: usize| {
                    f.loc[range.clone()].iter().filter(|&&q| q != NONE && q / ppb == pbn(i)).count()
                };
                let live = f.loc[range.clone()].iter().filter(|&&q| q != NONE).count();
                // Rule 1: a compaction block is the newest only while its compaction runs.
                // It committed once it holds every live page (its copies are the newest):
                // then the blocks it replaces go; otherwise it goes (it is redone).
                if let Some(&c) = used.iter().max_by_key(|&&i| info[i].epoch) {
                    if info[c].first_role == TAG_COMPACT && used.len() > 1 {
                        let done = live_in(&f, c) == live;
                        let victim = if done { *used.iter().find(|&&i| i != c).unwrap() } else { c };
                        flash.note("recovery", || {
                            if done {
                                format!("logical block {l}: a compaction into block {} had copied every live page — block {} erased", pbn(c), pbn(victim))
                            } else {
                                format!("logical block {l}: a compaction was cut before it had copied every live page — its block {} erased", pbn(c))
                            }
                        });
                        flash.erase(pbn(victim), Cause::Recovery)?;
                        continue;
                    }
                }
                let mut pr: Vec<usize> = used.iter().copied().filter(|&i| info[i].first_role != BUFFER as u8).collect();
                let mut bu: Vec<usize> = used.iter().copied().filter(|&i| info[i].first_role == BUFFER as u8).collect();
                pr.sort_by_key(|&i| info[i].epoch);
                bu.sort_by_key(|&i| info[i].epoch);
                match (pr.len(), bu.len()) {
                    (2, _) => {
                        // Rule 2: an uncommitted primary GC's destination.
                        flash.note("recovery", || format!("logical block {l}: a primary GC was cut before its victim's erase — its destination block {} is erased", pbn(pr[1])));
                        flash.erase(pbn(pr[1]), Cause::Recovery)?;
                        continue;
                    }
                    (0 | 1, 2) => {
                        // Rule 3: finish the replacement GC (also when the primary holds
                        // nothing: every live page was written after the GC's trigger).
                        let (r, b) = (bu[0], bu[1]);
                        let todo = live_in(&f, r) as u32;
                        let room_b = ppb - info[b].used;
                        if todo > room_b && pr.is_empty() {
                            // Recuts tore the buffer's free pages: rule 4's compaction into
                            // the empty block instead (rule 1 then erases the other two).
                            let e = empty[0];
                            flash.note("recovery", || format!("logical block {l}: a replacement GC was cut and buffer block {} has no room left — compaction of its live pages into block {}", pbn(b), pbn(e)));
                            let live: Vec<Ppn> = f.loc[range.clone()].iter().copied().filter(|&q| q != NONE).collect();
                            f.copy_pages(flash, &live, &[(pbn(e), 0, TAG_COMPACT)])?;
                            continue;
                        }
                        // What the buffer has no room for (recuts tore its free pages) goes
                        // to the primary's free pages.
                        let room = |i: usize| ppb - info[i].used;
                        let room_p = pr.first().map_or(0, |&p| room(p));
                        if todo > room_b + room_p {
                            // No room for the victim's live pages in the buffer and the
                            // primary either (recuts tore their free pages), and no empty
                            // block for a compaction: all three are in use. The logical
                            // block's live pages fit in one block, so the dead pages of
                            // the three leave room: the primary or the buffer, whichever
                            // has fewer live pages that the other two blocks' free pages
                            // take, is emptied into them and erased. That block is then
                            // empty and the rules go on from there (rule 4 with the victim
                            // as the buffer, or rule 3 without a primary: a compaction
                            // into it). A cut before the erase leaves copies newer than
                            // their sources, and the next recovery moves the rest.
                            let p = pr[0];
                            let Some((x, to)) = [(b, [p, r]), (p, [b, r])]
                                .into_iter()
                                .filter(|&(x, [y, z])| live_in(&f, x) as u32 <= room(y) + room(z))
                                .min_by_key(|&(x, _)| live_in(&f, x))
                            else {
                                return Err(bad(format!(
                                    "logical block {l}: no room in blocks {}, {} and {} to finish the replacement GC ({todo} live pages in block {})",
                                    pbn(b),
                                    pbn(p),
                                    pbn(r),
                                    pbn(r)
                                )));
                            };
                            flash.note("recovery", || format!("logical block {l}: a replacement GC was cut and neither buffer block {} nor primary block {} has room for victim {}'s live pages — block {}'s live pages move to the free pages of the other two, then it is erased", pbn(b), pbn(p), pbn(r), pbn(x)));
                            let live: Vec<Ppn> =
                                f.loc[range.clone()].iter().copied().filter(|&q| q != NONE && q / ppb == pbn(x)).collect();
                            let dests: Vec<(Pbn, u32, u8)> =
                                to.iter().map(|&i| (pbn(i), info[i].used, info[i].first_role)).collect();
                            f.copy_pages(flash, &live, &dests)?;
                            flash.erase(pbn(x), Cause::Recovery)?;
                            continue;
                        }
                        flash.note("recovery", || format!("logical block {l}: a replacement GC was cut — recovery copies block {}'s live pages to buffer block {} and erases it", pbn(r), pbn(b)));
                        let live: Vec<Ppn> =
                            f.loc[range.clone()].iter().copied().filter(|&q| q != NONE && q / ppb == pbn(r)).collect();
                        let mut dests = vec![(pbn(b), info[b].used, BUFFER as u8)];
                        if let Some(&p) = pr.first() {
                            dests.push((pbn(p), info[p].used, PRIMARY as u8));
                        }
                        f.copy_pages(flash, &live, &dests)?;
                        flash.erase(pbn(r), Cause::Recovery)?;
                        continue;
                    }
                    (0 | 1, 1) if ppb - info[bu[0]].used < f.p.k => {
                        // Rule 4: a buffer with fewer than k free pages beside a primary
                        // that is full (a primary + buffer GC had begun), that holds the GC's
                        // copies (a circular shift had just happened) or that is empty (the
                        // GC had nothing to copy: the buffer holds the only copies) —
                        // Theorem 4.1 cannot hold for the next GC: compaction into an empty
                        // block. Rule 1 decides a cut compaction.
                        let e = empty[0];
                        flash.note("recovery", || format!("logical block {l}: a GC had begun (or a circular shift had just happened) — compaction of its live pages into block {}", pbn(e)));
                        let live: Vec<Ppn> = f.loc[range.clone()].iter().copied().filter(|&q| q != NONE).collect();
                        f.copy_pages(flash, &live, &[(pbn(e), 0, TAG_COMPACT)])?;
                        flash.erase(pbn(bu[0]), Cause::Recovery)?;
                        if let Some(&p) = pr.first() {
                            flash.erase(pbn(p), Cause::Recovery)?;
                        }
                        continue;
                    }
                    (0, 0) => break ([0, 1, 2], info, latest),
                    (1, 1) => break ([pr[0], empty[0], bu[0]], info, latest),
                    (1, 0) => break ([pr[0], empty[0], empty[1]], info, latest),
                    // A primary GC with nothing to copy (the buffer held the only copy)
                    // erased the primary and exchanged two empty blocks: the buffer alone
                    // is used, the state a cut-free run is in until the next write.
                    (0, 1) => break ([empty[0], empty[1], bu[0]], info, latest),
                    _ => {
                        return Err(bad(format!(
                            "logical block {l}: {} primary-like and {} buffer-like blocks",
                            pr.len(),
                            bu.len()
                        )))
                    }
                }
            };
            let lb = &mut f.lbs[l as usize];
            lb.blocks = [pbn(roles[0]), pbn(roles[1]), pbn(roles[2])];
            lb.next = [info[roles[0]].used, info[roles[1]].used, info[roles[2]].used];
            lb.gc = None;
            for (grp, &(_, q)) in latest.iter().enumerate() {
                if q == NONE {
                    continue;
                }
                let at = f.sub_at(l, grp as u32);
                f.sub_index[at] = q;
                let lo = l * ppb + grp as u32 * f.p.alpha;
                let slot = Rftl::oob_slot(&f.p, l, grp as u32);
                for (k, x) in (lo..lo + f.p.alpha).enumerate() {
                    f.oob[slot.start + k] = if x < (l + 1) * ppb { f.loc[x as usize] } else { NONE };
                }
            }
            f.refresh_owner(l);
        }
        Ok(f)
    }

    /// Recovery's copies: every page of `pages` is read and programmed under a new
    /// sequence number into the first destination block (pbn, next free page) with room,
    /// then the next; each destination gives the tag its copies carry (the block's role).
    fn copy_pages(&mut self, flash: &mut Flash, pages: &[Ppn], dests: &[(Pbn, u32, u8)]) -> FlashResult<()> {
        let ppb = self.ppb;
        let mut slots = dests.iter().flat_map(|&(b, next, tag)| (next..ppb).map(move |o| (b * ppb + o, tag)));
        for &q in pages {
            let Some((dst, tag)) = slots.next() else {
                return Err(FlashError::Violation("RFTL recovery: no room for a copy".into()));
            };
            let d = flash.read(q, Cause::Recovery)?;
            self.seq += 1;
            flash.program(dst, Page::stamped(d.lpn, d.version, self.seq, tag), Cause::Recovery)?;
        }
        Ok(())
    }
}
