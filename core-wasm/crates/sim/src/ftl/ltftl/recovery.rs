//! LTFTL rebuilt from the chip alone after a sudden power loss (LTFTL paper section 4: the
//! metadata flag, the committed map dump, then the intent log and the OOB scan for the
//! write buffer's lost entries).

use super::*;
use crate::ftl::scan_recovery::{scan, Extent};

impl LtFtl {
    /// Rebuilds LTFTL from the chip alone after power comes back. Reads the latest
    /// metadata record; if the clean-shutdown flag is missing, the RAM log buffer was
    /// lost, and the entries are rebuilt from the spare areas of data pages newer than
    /// the last logged global time. Then the map is dumped (section 4: "when LTFTL is
    /// initialized"); with `reboot_to_frozen` the latest frozen state is reverted to
    /// first. Every read of the rebuild is charged to `Cause::Recovery`.
    pub fn recover(flash: &mut Flash, params: &SchemeParams, reboot_to_frozen: bool) -> FlashResult<LtFtl> {
        let g = *flash.geometry();
        let mut f = LtFtl::new(&g, params).map_err(FlashError::Violation)?;
        let ppb = f.ppb;
        let rc = Cause::Recovery;
        flash.note("recovery", || "recovery: reading the metadata section".into());
        // 1. metadata: the record with the highest sequence number.
        let mut best: Option<(u32, Ppn)> = None;
        scan(flash, 0..2, Extent::Whole, |b, off, p| {
            let ppn = b * ppb + off;
            if p.kind == PageKind::Meta && p.tag == TAG_META && best.is_none_or(|(s, _)| p.seq > s) {
                best = Some((p.seq, ppn));
            }
        })?;
        let mut clean = false;
        let mut chain = Vec::new();
        if let Some((seq, ppn)) = best {
            flash.read(ppn, rc)?;
            let r = flash.payload(ppn).unwrap_or(&[]).to_vec();
            if r.first() != Some(&MAGIC) {
                return Err(FlashError::Violation("ltftl metadata record without magic".into()));
            }
            clean = r[1] == 1;
            f.next_id = r[2];
            f.generation = r[3];
            f.dump_gt = r[4];
            f.dump_at = r[5];
            f.cur_slot = r[6] as usize;
            f.next_gt = r[7];
            // r[8]: the oldest revertible state, also the first of the list below.
            let mut i = 9;
            let n = r[i] as usize;
            let slot: Vec<Pbn> = r[i + 1..i + 1 + n].to_vec();
            i += 1 + n;
            let n = r[i] as usize;
            chain = r[i + 1..i + 1 + n].to_vec();
            i += 1 + n;
            let n = r[i] as usize;
            for k in 0..n {
                f.states.push(FrozenState { id: r[i + 1 + 2 * k], epoch: r[i + 2 + 2 * k] });
            }
            f.meta_seq = seq;
            f.meta_block = ppn / ppb;
            f.slots[f.cur_slot] = slot;
        }
        f.sync_state_arrays();
        // Records are written in order; continue after the last programmed page (the
        // OOB reads above saw them; a torn record counts as programmed).
        let blk = f.meta_block;
        f.meta_next = (0..ppb).rev().find(|&o| !flash.peek(blk * ppb + o).is_erased()).map_or(0, |o| o + 1);
        for b in 0..2 {
            f.written[b] = flash.block_pages(b as Pbn).iter().any(|p| !p.is_erased());
            f.programmed[b] =
                flash.block_pages(b as Pbn).iter().rposition(|p| !p.is_erased()).map_or(0, |o| o as u32 + 1);
        }
        // 2. scan the spare area of every page outside the metadata section.
        let mut data_pages: Vec<(u32, Ppn, Lpn)> = Vec::new();
        let mut has_data = vec![false; g.blocks as usize];
        // The section whose pages a block holds (an older map dump, older log pages).
        let mut holds: Vec<Option<Section>> = vec![None; g.blocks as usize];
        // Blocks holding GC copies (the GC frontier among the partly programmed ones).
        let mut copies = vec![false; g.blocks as usize];
        scan(flash, 2..g.blocks, Extent::Whole, |pbn, off, p| {
            let (ppn, b) = (pbn * ppb + off, pbn as usize);
            if p.kind == PageKind::Meta {
                holds[b] = match p.tag {
                    TAG_MAP => Some(Section::Map),
                    TAG_LOG => Some(Section::Log),
                    _ => holds[b],
                };
            }
            if p.kind != PageKind::Erased {
                f.written[b] = true;
                // Blocks fill in order: the last programmed (or torn) page ends the prefix.
                f.programmed[b] = ppn % ppb + 1;
            }
            if p.kind == PageKind::Data && (p.tag == TAG_DATA || p.tag == TAG_GC_COPY) && p.lpn < f.logical_pages {
                copies[b] |= p.tag == TAG_GC_COPY;
                has_data[b] = true;
                data_pages.push((p.seq, ppn, p.lpn));
                f.next_gt = f.next_gt.max(p.seq + 1);
            }
        })?;
        // 3. sections: metadata fixed; the committed map slot and log chain from the
        // record; blocks holding data are data blocks; the other blocks (empty or stale)
        // fill the other map slot, the rest of the log section and the free data pool.
        let cur_slot_blocks = f.slots[f.cur_slot].clone();
        let slot_len = f.slots[0].len().max(f.slots[1].len());
        let has_dump = f.dump_at != NONE;
        let taken =
            |b: Pbn| b < 2 || (has_dump && cur_slot_blocks.contains(&b)) || chain.contains(&b) || has_data[b as usize];
        let mut spare: Vec<Pbn> = (0..g.blocks).filter(|&b| !taken(b)).collect();
        spare.sort_by_key(|&b| (flash.erase_count(b), b));
        let mut spare = VecDeque::from(spare);
        // Section 5.1 keeps the mapping and log sections at a fixed size, and only wear
        // levelling trades their blocks with data blocks. So the other map slot and the
        // rest of the log section are, first, the spare blocks that already hold map pages
        // (the older dump) or log pages (older generations): the blocks those sections had
        // before the cut. Taking the least-worn spare blocks instead moved blocks into the
        // sections at every recovery and left the old ones, still holding metadata, in the
        // data pool: the mapping section grew by up to a slot per recovery (24 x 8: 9 blocks
        // against 3 cut-free) and the free pool shrank, until data writes erased them.
        let prefer = |spare: &mut VecDeque<Pbn>, s: Section| -> Option<Pbn> {
            let i = spare.iter().position(|&b| holds[b as usize] == Some(s)).unwrap_or(0);
            spare.remove(i)
        };
        let mut other_slot = Vec::new();
        if f.dump_at != NONE {
            while other_slot.len() < slot_len {
                other_slot.push(
                    prefer(&mut spare, Section::Map)
                        .ok_or_else(|| FlashError::Violation("recovery: no room for the map slots".into()))?,
                );
            }
        } else {
            // No dump yet: both slots come from spare blocks.
            f.slots[f.cur_slot].clear();
            for _ in 0..slot_len {
                let b = prefer(&mut spare, Section::Map)
                    .ok_or_else(|| FlashError::Violation("recovery: no room for the map slots".into()))?;
                f.slots[f.cur_slot].push(b);
            }
            while other_slot.len() < slot_len {
                other_slot.push(
                    prefer(&mut spare, Section::Map)
                        .ok_or_else(|| FlashError::Violation("recovery: no room for the map slots".into()))?,
                );
            }
        }
        f.slots[1 - f.cur_slot] = other_slot;
        let log_blocks = f.log_section.len();
        let mut log_section = chain.clone();
        while log_section.len() < log_blocks {
            log_section.push(
                prefer(&mut spare, Section::Log)
                    .ok_or_else(|| FlashError::Violation("recovery: no room for the log section".into()))?,
            );
        }
        f.log_section = log_section;
        f.section.fill(Section::Data);
        f.section[0] = Section::Meta;
        f.section[1] = Section::Meta;
        for s in 0..2 {
            for &b in &f.slots[s] {
                f.section[b as usize] = Section::Map;
            }
        }
        for &b in &f.log_section {
            f.section[b as usize] = Section::Log;
        }
        f.usage.fill(Use::Free);
        f.closed_by_kept.clear();
        // Spare blocks still holding metadata (a block wear levelling traded) show what
        // they hold until erased, as `swap_into_data` marks them; display only.
        for &b in &spare {
            f.traded[b as usize] = holds[b as usize];
        }
        f.free = spare;
        for b in 0..g.blocks {
            if has_data[b as usize] {
                f.set_usage(b, Use::Closed);
            }
        }
        // The write frontiers go on where they stopped, as they do without a cut: the partly
        // programmed block of host writes is the host frontier, the partly programmed block
        // of GC copies (a cut inside a GC) the GC frontier (`TAG_GC_COPY`). Closing them
        // instead left each recovery's frontier half empty and took a fresh block for the
        // next write: the free pool ran one below a cut-free run's (11 x 15: 1 free block
        // against 2). Taking the GC frontier for the host frontier would let host writes
        // use the room GC needs to free a block (then "ran out of free data blocks").
        let mut last = vec![None; g.blocks as usize];
        for &(gt, ppn, _) in &data_pages {
            let b = (ppn / ppb) as usize;
            last[b] = last[b].max(Some(gt));
        }
        let partial = |gc: bool| {
            (0..g.blocks)
                .filter(|&b| has_data[b as usize] && f.programmed[b as usize] < ppb && copies[b as usize] == gc)
                .max_by_key(|&b| last[b as usize])
        };
        let (host, gc) = (partial(false), partial(true));
        if let Some(b) = host {
            f.set_usage(b, Use::Frontier);
            f.frontier = Some((b, f.programmed[b as usize]));
        }
        if let Some(b) = gc {
            f.set_usage(b, Use::GcFrontier);
            f.gc_frontier = Some((b, f.programmed[b as usize]));
        }
        // 4. the committed map dump: the inverted table gives the forward map.
        if f.dump_at != NONE {
            f.slot_next = 0;
            let slot = f.slots[f.cur_slot].clone();
            let idx = slot.iter().position(|&b| b == f.dump_at / ppb).unwrap_or(0) as u32 * ppb + f.dump_at % ppb;
            f.slot_next = idx;
            for i in 0..f.map_pages {
                let ppn = f.slot_ppn(f.slot_next);
                f.slot_next += 1;
                flash.read(ppn, rc)?;
                let payload = flash.payload(ppn).unwrap_or(&[]).to_vec();
                let base = i * (f.page_bytes / 4);
                for (k, &sector) in payload.iter().enumerate() {
                    if sector != NONE && sector < f.logical_pages {
                        f.fwd[sector as usize] = base + k as u32;
                    }
                }
            }
        }
        // An uncommitted later dump may have used the rest of this slot: the next dump
        // goes to the other slot (erased first).
        f.slot_next = f.slots[f.cur_slot].len() as u32 * ppb;
        // 5. the log chain: history before the dump, then entries to replay.
        let mut last_logged: Option<u32> = None;
        let mut by_sector: Vec<Vec<u32>> = vec![Vec::new(); f.logical_pages as usize];
        f.chain = chain.clone();
        f.chain_next = ppb;
        'chain: for &b in chain.iter() {
            for off in 0..ppb {
                let ppn = b * ppb + off;
                let p = flash.read_oob(ppn, rc)?;
                // Chain pages are written in order: the first page that is not a
                // complete log page of this generation ends the log.
                if p.kind != PageKind::Meta || p.tag != TAG_LOG || p.seq != f.generation {
                    break 'chain;
                }
                flash.read(ppn, rc)?;
                let words = flash.payload(ppn).unwrap_or(&[]).to_vec();
                f.log_pages.push((ppn, f.log.len()));
                for w in words.chunks(4) {
                    let e = LogEntry::decode(w);
                    // Moves are never in the history part (a dump resolves them).
                    if e.moved() || e.gt >= f.dump_gt {
                        if e.moved() {
                            if f.fwd[e.sector() as usize] == e.old {
                                f.fwd[e.sector() as usize] = e.new;
                            }
                            // A moved page that a frozen state needs: the entry that
                            // invalidated its data now names the copy. (A move entry's
                            // time field holds the moved data's birth.)
                            if let Some(i) = Self::death_entry(&f.log, &by_sector, e.sector(), e.gt) {
                                if f.log[i].old == e.old {
                                    f.log[i].old = e.new;
                                }
                            }
                        } else {
                            f.fwd[e.sector() as usize] = e.new;
                            last_logged = Some(last_logged.map_or(e.gt, |l| l.max(e.gt)));
                        }
                    }
                    if !e.moved() && (e.sector() as usize) < by_sector.len() {
                        by_sector[e.sector() as usize].push(f.log.len() as u32);
                    }
                    f.log.push(e);
                }
                f.chain_next = off + 1;
            }
        }
        f.flushed = f.log.len();
        f.since_dump = f.log.len();
        // 6. unclean shutdown: the RAM buffer was lost. Rebuild its entries from the
        // spare areas of pages newer than the last logged global time.
        if !clean {
            let from = last_logged.map_or(f.dump_gt, |l| l + 1).max(f.dump_gt);
            let mut tail: Vec<(u32, Ppn, Lpn)> = data_pages.iter().copied().filter(|&(gt, _, _)| gt >= from).collect();
            tail.sort();
            tail.dedup_by_key(|t| t.0); // a GC copy carries its original's ⟨sector, time⟩
            let n = tail.len();
            flash.note("recovery", || format!("unclean shutdown: {n} log entries rebuilt from spare areas"));
            for (gt, ppn, sector) in tail {
                let old = f.fwd[sector as usize];
                f.fwd[sector as usize] = ppn;
                by_sector[sector as usize].push(f.log.len() as u32);
                f.log.push(LogEntry::write(sector, old, ppn, gt));
            }
        }
        // 7. RAM indexes: owner from the map, deaths from the log.
        for (sector, ppn) in f.fwd.clone().into_iter().enumerate() {
            if ppn != NONE {
                let p = flash.peek(ppn);
                if p.kind != PageKind::Data || p.lpn != sector as u32 {
                    return Err(FlashError::Violation(format!(
                        "recovery: sector {sector} maps to page {ppn}, which does not hold it ({:?}); gen {} dump_gt {} clean {clean} last_logged {last_logged:?} log {:?}",
                        p, f.generation, f.dump_gt, f.log.iter().filter(|e| e.sector() == sector as u32).collect::<Vec<_>>()
                    )));
                }
                f.count_valid(ppn, true);
            }
        }
        // (Deaths matter only to frozen states: `death` is empty without one.)
        let deaths = if f.death.is_empty() { &[][..] } else { &data_pages[..] };
        for &(birth, ppn, sector) in deaths {
            if f.is_valid(flash, ppn) {
                continue;
            }
            if let Some(i) = Self::death_entry(&f.log, &by_sector, sector, birth) {
                if f.log[i].old == ppn {
                    f.death[ppn as usize] = f.log[i].gt;
                }
            }
        }
        f.rebuild_old_ref();
        f.recount_retractable(flash);
        f.mounted = true;
        // 8. "when LTFTL is initialized": dump the up-to-date map (or revert first).
        match f.states.last().copied() {
            Some(s) if reboot_to_frozen => {
                f.do_revert(flash, s.id, rc)?.map_err(FlashError::Violation)?;
            }
            _ => f.dump(flash, rc)?,
        }
        // 9. The GC reserve, restored by recovery rather than by later traffic: a cut inside
        // a GC (its destination taken, its victim not yet erased) left a block fewer free
        // than a cut-free run ever has between requests. Between requests a cut-free run
        // has at least MIN_FREE - 1 free blocks (GC runs until MIN_FREE are free, then the
        // host frontier takes one), so GC runs here while fewer are free — no more, so GC
        // stays the requests' work — after the dump (its log pages go to the new log
        // chain), and only on reclaimable pages: recovery never releases a frozen state to
        // make room (the request in flight might not have).
        while f.free.len() < MIN_FREE - 1
            && (f.gc_frontier.is_some_and(|(_, n)| n < ppb) || !f.free.is_empty())
            && f.closed_by_kept.first().is_some_and(|b| f.reclaimable(b) > 0)
        {
            f.collect(flash)?;
        }
        Ok(f)
    }
}
