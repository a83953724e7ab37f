//! FAST and O-FAST rebuilt from the chip alone after a power cut: a scan of every spare area
//! (LPN, sequence number, tag), then the rebuild FastCheck's recovery shares (its RW log
//! blocks restored from checkpoints instead of a scan). See ftl/scan_recovery.rs.
#![allow(clippy::needless_range_loop)]

use super::*;
use crate::ftl::scan_recovery::{erased_free_block, max_seq, newest, scan_all, Blk};
use crate::nand::PageKind;

// ---- FAST / O-FAST ------------------------------------------------------------------

/// FAST and O-FAST: scan every spare area, then rebuild.
pub(crate) fn recover_fast(flash: &mut Flash, params: &SchemeParams, lazy: bool) -> FlashResult<FastFtl> {
    let g = *flash.geometry();
    let mut ftl = FastFtl::new(&g, params, lazy).map_err(FlashError::Violation)?;
    flash.note("recovery", || {
        format!("recovery: read the spare area (LPN, sequence number, tag) of all {} pages", g.pages())
    });
    let scans = scan_all(flash)?;
    let blks: Vec<Blk> =
        scans.into_iter().enumerate().map(|(i, p)| Blk::new(i as Pbn, p, g.pages_per_block, tag::MERGE)).collect();
    rebuild_fast(flash, &mut ftl, blks, &[], None)?;
    Ok(ftl)
}

/// The RW log blocks as FastCheck / LTFTL-style logging restores them (from checkpoints or
/// log records, and the restoration scan), instead of a scan of every spare area.
pub(crate) struct ExtRw {
    /// RW log blocks in list order (the map page's order), oldest first.
    pub order: Vec<Pbn>,
    /// Per block, per page: `Data` with the LPN for an entry valid after the consistency
    /// check (seq: the program clock, or an upper bound for checkpointed pages), `Torn`
    /// for a −1 or unreadable entry, `Erased` for an empty page.
    pub pages: Vec<Vec<Page>>,
    /// The block map of the newest map page: a logical block whose data block recovery
    /// finds different (the merge cut before its map page) has no valid RW entry left.
    pub map_bmt: Vec<Pbn>,
}

/// Rebuilds a FAST state from block summaries (see the module comment). Blocks listed in
/// `skip` are not the scheme's (FastCheck's metadata blocks) and are left alone.
/// Returns the logical blocks whose data block recovery created or completed.
pub(crate) fn rebuild_fast(
    flash: &mut Flash,
    ftl: &mut FastFtl,
    mut blks: Vec<Blk>,
    skip: &[Pbn],
    ext: Option<&ExtRw>,
) -> FlashResult<Vec<u32>> {
    let n = ftl.ppb;
    let nb = blks.len();
    ftl.seq = ftl.seq.max(max_seq(&blks));
    let mut skip: Vec<Pbn> = skip.to_vec();
    if let Some(e) = ext {
        for (i, &pbn) in e.order.iter().enumerate() {
            blks[pbn as usize] = Blk::new(pbn, e.pages[i].clone(), n, tag::MERGE);
            blks[pbn as usize].role = tag::RW;
            skip.push(pbn);
        }
    }
    let skip = &skip[..];
    for u in ftl.usage.iter_mut() {
        *u = Use::Free;
    }
    ftl.owner.fill(NONE);
    ftl.free.reset([]);
    let is_skip = |p: Pbn| skip.contains(&p);

    // 1. Garbage (only torn pages: a first program or an erase cut) and interrupted merge
    // destinations (no LAST page): erased. Their contents exist elsewhere.
    for i in 0..nb {
        let b = &blks[i];
        if is_skip(b.pbn) || !b.programmed {
            continue;
        }
        let undo = b.readable() && b.role == tag::MERGE && !b.last;
        // A restore of the SW log block (step 3) without its completing copy: its source,
        // the torn SW log block, is erased only after that copy.
        let undo_restore = b.readable() && b.role == tag::RESTORE && !b.retire;
        let stray_rw = ext.is_some() && b.readable() && b.role == tag::RW;
        if !b.readable() || undo || undo_restore || stray_rw {
            let pbn = b.pbn;
            flash.note("recovery", || {
                if undo {
                    format!("block {pbn}: a merge destination without its last copy → the merge was interrupted; erased (its sources are intact)")
                } else if undo_restore {
                    format!("block {pbn}: a copy of the SW log block without its last sector → the restore was interrupted; erased (its source is intact)")
                } else {
                    format!("block {pbn}: only torn pages (a program or erase cut by the power loss) → erased")
                }
            });
            flash.erase(pbn, Cause::Recovery)?;
            blks[i].empty();
        }
    }

    // 2. Non-RW blocks by logical block; S* = the newest SW-born block.
    let mut groups: Vec<Vec<usize>> = vec![Vec::new(); ftl.data_blocks as usize];
    let mut rw: Vec<usize> = Vec::new();
    let mut s_star: Option<usize> = None;
    if let Some(e) = ext {
        rw = e.order.iter().map(|&p| p as usize).collect();
    }
    for (i, b) in blks.iter().enumerate() {
        if is_skip(b.pbn) || !b.readable() {
            continue;
        }
        if b.role == tag::RW {
            rw.push(i);
        } else {
            groups[b.lbn as usize].push(i);
            if sw_born(b) && s_star.is_none_or(|s| b.birth > blks[s].birth) {
                s_star = Some(i);
            }
        }
    }
    if ext.is_none() {
        rw.sort_by_key(|&i| blks[i].birth);
    }
    let rw_of = |blks: &[Blk], lbn: u32| -> Vec<usize> {
        rw.iter()
            .copied()
            .filter(|&i| blks[i].pages.iter().any(|p| p.kind == PageKind::Data && p.lpn / n == lbn))
            .collect()
    };

    // 3. Per logical block: the data block, the SW log block, redo / recovery merges.
    let mut birth_d = vec![u32::MAX; ftl.data_blocks as usize];
    let mut rebuilt = Vec::new();
    for lbn in 0..ftl.data_blocks {
        let mut group = std::mem::take(&mut groups[lbn as usize]);
        if group.is_empty() {
            continue;
        }
        group.sort_by_key(|&i| blks[i].birth);
        let s_here = s_star.filter(|&s| blks[s].lbn == lbn);
        let mut garbage: Vec<usize> = Vec::new();
        let mut keep_sw: Option<usize> = None;
        let mut need_merge = false;
        // The live SW log block, if the newest SW-born block still is one (its sectors
        // shadow the data block's and the RW log blocks').
        let mut live_sw: Option<usize> = None;
        // The torn SW log block whose in-order sectors go to a new SW log block, and how many.
        let mut restore: Option<(usize, u32)> = None;
        let mut data_ish: Vec<usize> =
            group.iter().copied().filter(|&i| Some(i) != s_here || blks[i].has_merge).collect();
        // A complete restore copy whose source's erase was cut: the source holds nothing
        // the copy does not, so it is garbage (not a data block candidate).
        for &x in group.iter().filter(|&&x| blks[x].role == tag::RESTORE) {
            data_ish.retain(|&j| {
                let src = restored_from(&blks, x, j);
                if src {
                    garbage.push(j);
                }
                !src
            });
        }
        if let Some(s) = s_here.filter(|&s| !blks[s].has_merge) {
            let sb = &blks[s];
            let retired = garbage_retired(&blks, &group, s);
            // A complete block of its logical block made after S's last program (a RW
            // merge) copied every sector S held: S is garbage (its erase was cut) or an SW
            // log block with nothing newer than that copy — the same data either way.
            let superseded = data_ish.iter().any(|&j| blks[j].birth > sb.newest);
            let k = sb.pages.iter().take_while(|p| p.kind == PageKind::Data).count();
            let prefix = sb.pages[k..].iter().all(|p| p.is_erased());
            if retired || superseded {
                garbage.push(s);
            } else if data_ish.is_empty() {
                // No other block of its logical block: S is its data block. A switch, or a
                // partial merge that had nothing to copy, leaves no mark on flash, and in-place
                // writes may have filled its holes since (a non-prefix block is not a live SW
                // log block then).
                data_ish.push(s);
            } else if let Some(k) = restorable(sb) {
                // A cut tore an append (case 2.1): S holds sectors 0..k in order, then only
                // torn or erased pages. A torn page cannot be programmed again, so its in-order
                // sectors go to a new SW log block (below), which satisfies both conditions of
                // FAST 3.3 as S did before the cut: the SW log a cut-free run holds, so the
                // retried append is case 2.1 again, not case 3 into an RW log block a cut-free
                // run never takes (issue 34: recovery restores the log pool).
                live_sw = Some(s);
                restore = Some((s, k));
                garbage.push(s);
            } else if sb.torn || !prefix {
                need_merge = true;
                live_sw = Some(s);
                garbage.push(s);
            } else {
                live_sw = Some(s);
                keep_sw = Some(s);
            }
        }
        // The newest by last program: the block an interrupted operation was writing (a
        // partial merge into an SW log block born before the current data block, as after
        // a RW merge of the SW owner) is newer than the blocks it copies from.
        data_ish.sort_by_key(|&i| blks[i].newest);
        let mut d = data_ish.last().copied();
        if let Some(di) = d {
            garbage.extend(data_ish[..data_ish.len() - 1].iter().copied());
            let db = &blks[di];
            let undo = partial_merge_prefix(db).filter(|_| data_ish.len() >= 2);
            if let Some(k) = undo {
                // An interrupted partial merge into the SW log block (its data block is erased
                // only after the merge's LAST copy, so it is intact): undone. Its SW log is
                // restored (sectors 0..k to a new SW log block) and the data block kept, the
                // state before the request: the retried write then does the merge itself (case
                // 1 or 2.2, the host sector inside it as in a run without the cut), where a redo
                // left the logical block without an SW log and the retry took an RW log block.
                let prev = data_ish[data_ish.len() - 2];
                garbage.retain(|&g| g != prev);
                garbage.push(di);
                restore = Some((di, k));
                d = Some(prev);
                let pbn = db.pbn;
                flash.note("merge_redo", || {
                    format!("LBN {lbn}: the partial merge into SW log block {pbn} was interrupted → undone: its data block stays, its SW log is restored")
                });
            } else if db.torn {
                need_merge = true;
            } else if sw_born(db) && db.has_merge && !db.last {
                // Redo of an interrupted partial merge (Fig. 7a): copy the missing sectors
                // (newest copy in the old data block or the RW log blocks) into it.
                let mut srcs = data_ish[..data_ish.len() - 1].to_vec();
                srcs.extend(rw_of(&blks, lbn));
                let todo: Vec<(u32, Ppn)> = (0..n)
                    .filter(|&o| db.pages[o as usize].is_erased())
                    .filter_map(|o| newest(&blks, &srcs, lbn * n + o, n).map(|(_, p)| (o, p)))
                    .collect();
                let pbn = db.pbn;
                rebuilt.push(lbn);
                flash.note("merge_redo", || {
                    format!("LBN {lbn}: the partial merge into SW log block {pbn} was interrupted → redone: {} missing sector{} copied in", todo.len(), if todo.len() == 1 { "" } else { "s" })
                });
                for (j, &(o, src)) in todo.iter().enumerate() {
                    let t = tag::MERGE | if j + 1 == todo.len() { tag::LAST } else { 0 };
                    ftl.copy(flash, src, pbn * n + o, Cause::Recovery, t)?;
                }
            }
        }
        if need_merge {
            // A block that must stay in use holds a torn page: merge the logical block into
            // a free block (newest copy of every sector), then drop the old blocks.
            let mut srcs = group.clone();
            srcs.extend(rw_of(&blks, lbn));
            // Every copy is the newest by the sequence numbers on flash: each program stores
            // the up-to-date version of its sector at that moment (merges copy the newest,
            // and so does every recovery merge), so the highest sequence number is the
            // latest version, and this copy gets a higher one still. A copy ranked any
            // other way (an older version under a newer sequence number) would outrank
            // the latest write at every later recovery.
            // With checkpointed log pages (FastCheck, LTFTL-style) the RW copies carry order
            // keys above every clock instead: there the live SW log block's sectors (no RW
            // write to its owner while it owns it) and the data block an interrupted
            // operation was writing (the map page does not name it yet) come first.
            let sw_src = live_sw.filter(|_| ext.is_some());
            let d_new = d.filter(|&di| {
                ext.is_some_and(|e| e.map_bmt[lbn as usize] != NONE && e.map_bmt[lbn as usize] != blks[di].pbn)
            });
            let todo: Vec<(u32, Ppn)> = (0..n)
                .filter_map(|o| {
                    for x in [d_new, sw_src].into_iter().flatten() {
                        if blks[x].pages[o as usize].kind == PageKind::Data {
                            return Some((o, blks[x].pbn * n + o));
                        }
                    }
                    newest(&blks, &srcs, lbn * n + o, n).map(|(_, p)| (o, p))
                })
                .collect();
            let dst = take_erased(flash, ftl, &blks, skip)?;
            flash.note("merge_redo", || {
                format!("LBN {lbn}: a block in use holds a torn page → merged into free block {dst} ({} sectors), old blocks erased", todo.len())
            });
            let first_seq = ftl.seq + 1;
            for (j, &(o, src)) in todo.iter().enumerate() {
                let t = tag::MERGE | if j + 1 == todo.len() { tag::LAST | tag::RETIRE_SW } else { 0 };
                ftl.copy(flash, src, dst * n + o, Cause::Recovery, t)?;
            }
            garbage = group.clone();
            keep_sw = None;
            restore = None;
            d = None;
            ftl.bmt[lbn as usize] = dst;
            ftl.usage[dst as usize] = Use::Data;
            ftl.owner[dst as usize] = lbn;
            birth_d[lbn as usize] = first_seq;
            rebuilt.push(lbn);
        }
        let mut restored_sw: Option<(Pbn, u32)> = None;
        if let Some((s, k)) = restore {
            // The copy first, its source's erase after (with the garbage): a cut in between
            // leaves a complete copy (RETIRE_SW on its last sector) and its source, which
            // `restored_from` tells apart from the data block.
            let (src, dst) = (blks[s].pbn, take_erased(flash, ftl, &blks, skip)?);
            flash.note("merge_redo", || {
                format!("LBN {lbn}: SW log block {src} holds {k} sector{} in order, then pages it cannot keep → copied into free block {dst}, the new SW log block (FAST 3.3); block {src} erased", if k == 1 { "" } else { "s" })
            });
            for o in 0..k {
                let t = tag::RESTORE | if o + 1 == k { tag::RETIRE_SW } else { 0 };
                ftl.copy(flash, src * n + o, dst * n + o, Cause::Recovery, t)?;
            }
            ftl.usage[dst as usize] = Use::Sw;
            restored_sw = Some((dst, k));
        }
        for &gi in &garbage {
            if blks[gi].programmed {
                flash.erase(blks[gi].pbn, Cause::Recovery)?;
                blks[gi].empty();
            }
        }
        if let Some(di) = d {
            let b = &blks[di];
            ftl.bmt[lbn as usize] = b.pbn;
            ftl.usage[b.pbn as usize] = Use::Data;
            ftl.owner[b.pbn as usize] = lbn;
            birth_d[lbn as usize] = b.birth;
            for off in 0..n {
                let ppn = b.pbn * n + off;
                ftl.written[ppn as usize] = flash.peek(ppn).kind != PageKind::Erased;
            }
        }
        let sw_here = keep_sw
            .map(|si| (blks[si].pbn, blks[si].pages.iter().take_while(|p| p.kind == PageKind::Data).count() as u32))
            .or(restored_sw);
        if let Some((pbn, next)) = sw_here {
            ftl.sw = Some(SwLog { pbn, lbn, next });
            ftl.usage[pbn as usize] = Use::Sw;
            ftl.owner[pbn as usize] = lbn;
            for off in 0..next {
                ftl.written[(pbn * n + off) as usize] = true;
            }
        }
    }

    // 4. The RW log blocks, oldest first (round robin: the front is the next victim); a
    // page is valid iff it is newer than its logical block's data block (equation 1).
    if rw.len() as u32 > ftl.log_blocks - 1 {
        return Err(FlashError::Violation(format!(
            "recovery found {} RW log blocks, more than {}",
            rw.len(),
            ftl.log_blocks - 1
        )));
    }
    let mut latest_seq = vec![0u32; (ftl.data_blocks * n) as usize];
    for &i in &rw {
        let b = &blks[i];
        ftl.rw.push_back(b.pbn);
        ftl.usage[b.pbn as usize] = Use::Rw;
        ftl.rw_fill = b.fill();
        for (off, p) in b.pages.iter().enumerate() {
            let ppn = b.pbn * n + off as u32;
            if p.is_erased() {
                continue;
            }
            ftl.written[ppn as usize] = true;
            let lbn = p.lpn / n;
            let valid = match ext {
                None => p.kind == PageKind::Data && ftl.bmt[lbn as usize] != NONE && p.seq > birth_d[lbn as usize],
                Some(e) => {
                    let m = if p.kind == PageKind::Data { e.map_bmt[lbn as usize] } else { NONE };
                    p.kind == PageKind::Data
                        && ftl.bmt[lbn as usize] != NONE
                        && !rebuilt.contains(&lbn)
                        && (m == NONE || m == ftl.bmt[lbn as usize])
                }
            };
            if valid {
                ftl.smt[ppn as usize] = p.lpn;
                ftl.rw_of_lbn[lbn as usize].push(ppn);
                if p.seq > latest_seq[p.lpn as usize] {
                    latest_seq[p.lpn as usize] = p.seq;
                    ftl.rw_latest[p.lpn as usize] = ppn;
                }
            } else {
                ftl.smt[ppn as usize] = MERGED;
            }
        }
    }
    for pbn in 0..nb as Pbn {
        if ftl.usage[pbn as usize] == Use::Free && !is_skip(pbn) {
            if flash.block_pages(pbn).iter().any(|p| !p.is_erased()) {
                flash.erase(pbn, Cause::Recovery)?;
            }
            ftl.free.release(pbn);
        }
    }
    let (nrw, sw) = (ftl.rw.len(), ftl.sw);
    flash.note("recovery", || {
        format!(
            "recovered: {} data blocks, {nrw} RW log blocks, SW log block {}",
            ftl.bmt.iter().filter(|&&b| b != NONE).count(),
            sw.map(|s| format!("{} (LBN {}, {} sectors)", s.pbn, s.lbn, s.next)).unwrap_or_else(|| "none".into())
        )
    });
    Ok(rebuilt)
}

/// A block born as the SW log block: by a host write at offset 0 (case 1), or by
/// recovery's copy of a torn one (`tag::RESTORE`).
fn sw_born(b: &Blk) -> bool {
    b.role == tag::SW || b.role == tag::RESTORE
}

/// The number of in-order sectors of SW log block `b` a restore copies: `Some(k)` when it
/// holds sectors 0..k (k >= 1) and after them only torn or erased pages, at least one torn
/// (a cut append: with MLC paired pages also the page before it).
fn restorable(b: &Blk) -> Option<u32> {
    let k = b.pages.iter().take_while(|p| p.kind == PageKind::Data).count();
    let rest = &b.pages[k..];
    (k >= 1 && b.torn && rest.iter().all(|p| matches!(p.kind, PageKind::Torn | PageKind::Erased))).then_some(k as u32)
}

/// The in-order SW sectors (0..k, k >= 1) of an SW log block a partial merge was filling
/// when the power failed: merge copies after them, no LAST copy.
fn partial_merge_prefix(b: &Blk) -> Option<u32> {
    let sw_page = |p: &Page| p.kind == PageKind::Data && matches!(p.tag & tag::ROLE, tag::SW | tag::RESTORE);
    let k = b.pages.iter().take_while(|p| sw_page(p)).count() as u32;
    (sw_born(b) && b.has_merge && !b.last && k >= 1).then_some(k)
}

/// Whether block `j` is the torn SW log block the complete restore copy `x` was made from
/// (its erase cut): SW-born before `x`, torn, and every readable sector of it is in `x` at
/// the same offset in the same version. Nothing is lost by erasing it. The data block can
/// never match: the SW log's sector at offset 0 is always newer than the data block's.
fn restored_from(blks: &[Blk], x: usize, j: usize) -> bool {
    let (b, xb) = (&blks[j], &blks[x]);
    j != x
        && xb.retire
        && sw_born(b)
        && b.torn
        && b.birth < xb.birth
        && b.pages.iter().zip(&xb.pages).all(|(p, q)| {
            p.kind != PageKind::Data || (q.kind == PageKind::Data && q.lpn == p.lpn && q.version == p.version)
        })
}

/// Whether the SW-born block `s` is garbage: a newer complete merge of its logical block
/// retired it (case 2.3, or a recovery merge).
pub(super) fn garbage_retired(blks: &[Blk], group: &[usize], s: usize) -> bool {
    group.iter().any(|&j| blks[j].role == tag::MERGE && blks[j].retire && blks[j].birth > blks[s].birth)
}

/// An erased block nobody uses, for a recovery merge.
pub(super) fn take_erased(flash: &Flash, ftl: &FastFtl, blks: &[Blk], skip: &[Pbn]) -> FlashResult<Pbn> {
    erased_free_block(flash, blks, skip, |p| ftl.usage[p as usize] == Use::Free)
}
