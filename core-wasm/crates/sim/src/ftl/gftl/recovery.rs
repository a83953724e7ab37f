//! GFTL rebuilt from the chip alone after a power cut: a spare-area scan, and jobs cut mid-way resumed (docs/schemes/recovery.md).

use super::*;
use crate::ftl::scan_recovery::{scan, Extent};

impl Gftl {
    /// Rebuilds GFTL from the chip alone: a spare-area scan (GFTL keeps its block map and
    /// buffer page map in RAM only). Every page's OOB is read: LPN, sequence number, tag
    /// (host write into a data block, host write into a buffer, GC copy); torn pages are
    /// skipped. Blocks with only torn pages are erased. Per logical block, the blocks
    /// holding data-block pages (host or GC) are its data block and, during a GC job, the
    /// job's new block: two of them mean the job had not committed (its commit is the erase
    /// of the old data block), so the newer one — copies only — is erased. Then per LPN the
    /// readable copy with the highest sequence number is live; buffer blocks left with no
    /// live page (a committed job's closed buffers) are erased. The remaining data-ish
    /// block is the data block (a read scans it newest first, so it finds the live copy of
    /// any LPN whose live copy is there); the live pages of the buffers go into the buffer
    /// page map; the newest buffer that is not full stays open, the others are closed
    /// buffers; a logical block with a full data block or any buffer is queued. A job cut
    /// before its commit is resumed (or, with no room left in its new block, undone) and
    /// recovery runs queued jobs until the pools are those of a run without cuts (below;
    /// docs/schemes/recovery.md).
    pub fn recover(flash: &mut Flash, params: &SchemeParams) -> FlashResult<Gftl> {
        let g = *flash.geometry();
        let ppb = g.pages_per_block;
        let mut f = Gftl::new(&g, flash.timing(), params).map_err(FlashError::Violation)?;
        let n = f.lbs.len();
        let mut owner = vec![NONE; g.blocks as usize];
        let mut used = vec![0u32; g.blocks as usize];
        let mut only_buffer = vec![true; g.blocks as usize];
        let mut epoch = vec![u32::MAX; g.blocks as usize];
        let mut pages: Vec<(Ppn, Lpn, u32)> = Vec::new();
        let mut erase = Vec::new();
        for pbn in 0..g.blocks {
            scan(flash, [pbn], Extent::Whole, |_, o, p| {
                let q = pbn * ppb + o;
                match p.kind {
                    PageKind::Erased => return,
                    PageKind::Data if p.lpn < f.logical_pages => {
                        owner[pbn as usize] = p.lpn / ppb;
                        only_buffer[pbn as usize] &= p.tag == TAG_BUFFER;
                        epoch[pbn as usize] = epoch[pbn as usize].min(p.seq);
                        f.seq = f.seq.max(p.seq);
                        pages.push((q, p.lpn, p.seq));
                    }
                    _ => {}
                }
                used[pbn as usize] = o + 1;
            })?;
            if used[pbn as usize] > 0 && owner[pbn as usize] == NONE {
                erase.push(pbn);
            }
        }
        let mut mine: Vec<Vec<Pbn>> = vec![Vec::new(); n];
        for pbn in 0..g.blocks {
            if owner[pbn as usize] != NONE {
                mine[owner[pbn as usize] as usize].push(pbn);
            }
        }
        // Uncommitted jobs: the newer of two data-ish blocks is the job's new block. It is
        // kept and the job resumed (its copies stay) when it has room for every page still
        // to copy; restarting every job from scratch would starve GC under frequent cuts
        // (buffers pile up until the free pool runs dry). Otherwise it is erased (undo).
        let mut dest: Vec<Pbn> = vec![NONE; n];
        for (l, blocks) in mine.iter_mut().enumerate() {
            let mut dataish: Vec<Pbn> = blocks.iter().copied().filter(|&b| !only_buffer[b as usize]).collect();
            dataish.sort_by_key(|&b| epoch[b as usize]);
            while dataish.len() > 2 {
                let t = dataish.remove(1);
                erase.push(t);
                blocks.retain(|&b| b != t);
            }
            if dataish.len() == 2 {
                dest[l] = dataish[1];
            }
        }
        let newest_copies = |gone: &[bool], skip: &[Pbn]| -> Vec<Ppn> {
            let mut loc = vec![NONE; f.logical_pages as usize];
            let mut best = vec![0u32; f.logical_pages as usize];
            for &(q, lpn, seq) in &pages {
                let b = q / ppb;
                if !gone[b as usize] && !skip.contains(&b) && (loc[lpn as usize] == NONE || seq >= best[lpn as usize]) {
                    best[lpn as usize] = seq;
                    loc[lpn as usize] = q;
                }
            }
            loc
        };
        let mut gone = vec![false; g.blocks as usize];
        for &b in &erase {
            gone[b as usize] = true;
        }
        let loc_all = newest_copies(&gone, &[]);
        // Logical blocks whose cut job is undone (no room left in its new block): that job
        // was at the head of the queue, and goes back there.
        let mut undone = vec![false; n];
        for l in 0..n {
            let d = dest[l];
            if d == NONE {
                continue;
            }
            // Pages the resumed job still copies: live in the old data block or in a buffer
            // older than the job's first copy (the buffers the job closed).
            let old = mine[l].iter().copied().find(|&b| !only_buffer[b as usize] && b != d).unwrap_or(NONE);
            let todo = (0..ppb)
                .filter(|&bo| {
                    let q = loc_all[l * ppb as usize + bo as usize];
                    q != NONE
                        && (q / ppb == old
                            || (only_buffer[(q / ppb) as usize] && epoch[(q / ppb) as usize] < epoch[d as usize]))
                })
                .count() as u32;
            if used[d as usize] + todo > ppb {
                erase.push(d);
                undone[l] = true;
                gone[d as usize] = true;
                mine[l].retain(|&b| b != d);
                dest[l] = NONE;
            }
        }
        f.loc = newest_copies(&gone, &[]);
        // Where reads find a page a job copied but did not commit: its source.
        let before_job = newest_copies(&gone, &dest);
        for (l, blocks) in mine.iter_mut().enumerate() {
            let range = l * ppb as usize..(l + 1) * ppb as usize;
            let live_in = |b: Pbn| f.loc[range.clone()].iter().filter(|&&q| q != NONE && q / ppb == b).count();
            // Stale buffers (a committed job's closed buffers) are erased.
            let stale: Vec<Pbn> = blocks
                .iter()
                .copied()
                .filter(|&b| {
                    only_buffer[b as usize]
                        && live_in(b) == 0
                        && (dest[l] == NONE || epoch[b as usize] > epoch[dest[l] as usize])
                })
                .collect();
            blocks.retain(|b| !stale.contains(b));
            erase.extend(stale);
        }
        for &b in &erase {
            flash.erase(b, Cause::Recovery)?;
        }
        let mut resumed = Vec::new();
        let mut waiting: Vec<(bool, bool, u32, u32)> = Vec::new();
        for (l, mut blocks) in mine.into_iter().enumerate() {
            if blocks.is_empty() {
                continue;
            }
            let d = dest[l];
            blocks.retain(|&b| b != d);
            let range = l * ppb as usize..(l + 1) * ppb as usize;
            let live_in = |b: Pbn| f.loc[range.clone()].iter().filter(|&&q| q != NONE && q / ppb == b).count();
            let data = match blocks.iter().copied().find(|&b| !only_buffer[b as usize]) {
                Some(d) => d,
                None => *blocks.iter().max_by_key(|&&b| (live_in(b), std::cmp::Reverse(b))).unwrap(),
            };
            blocks.retain(|&b| b != data);
            blocks.sort_by_key(|&b| epoch[b as usize]);
            let closed: Vec<Pbn> = if d != NONE {
                blocks.iter().copied().filter(|&b| epoch[b as usize] < epoch[d as usize]).collect()
            } else {
                Vec::new()
            };
            blocks.retain(|b| !closed.contains(b));
            let lb = &mut f.lbs[l];
            lb.data = data;
            lb.data_next = used[data as usize];
            f.usage[data as usize] = Use::Data(l as u32);
            for bo in 0..ppb as usize {
                let q = if d != NONE { before_job[l * ppb as usize + bo] } else { f.loc[l * ppb as usize + bo] };
                if q != NONE && q / ppb != data {
                    lb.buf_map[bo] = q;
                }
            }
            for &b in &blocks {
                f.usage[b as usize] = Use::Buffer(l as u32);
            }
            // The newest buffer that still has room stays open.
            if let Some(&b) = blocks.last().filter(|&&b| only_buffer[b as usize] && used[b as usize] < ppb) {
                lb.buf = b;
                lb.buf_next = used[b as usize];
                blocks.pop();
            }
            lb.full_bufs = blocks;
            if d != NONE {
                for &b in &closed {
                    f.usage[b as usize] = Use::Closed(l as u32);
                }
                f.usage[d as usize] = Use::Dest(l as u32);
                f.lbs[l].queued = true;
                resumed.push(Job {
                    lbn: l as u32,
                    phase: Phase::Copy(0),
                    old: data,
                    new: d,
                    new_next: used[d as usize],
                    closed,
                    steps: 0,
                });
                continue;
            }
            let lb = &f.lbs[l];
            if lb.data_next == ppb || !lb.full_bufs.is_empty() || lb.buf != NONE {
                // When it joined the queue: its data block filled (newest page there) or
                // its first buffer page was written, whichever came first.
                let mut at = u32::MAX;
                if lb.data_next == ppb {
                    at = pages.iter().filter(|p| p.0 / ppb == lb.data).map(|p| p.2).max().unwrap_or(0);
                }
                for &b in lb.full_bufs.iter().chain(std::iter::once(&lb.buf)).filter(|&&b| b != NONE) {
                    at = at.min(epoch[b as usize]);
                }
                let low = lb.buf != NONE && ppb - lb.buf_next <= 2 * f.max_steps || !lb.full_bufs.is_empty();
                waiting.push((!undone[l], !low, at, l as u32));
            }
        }
        // The queue as it was: jobs with copies on flash first (they were at its head), then
        // first come first served, a logical block whose buffer runs low ahead (as `write`
        // moves it). Rebuilding it in LBN order would starve the last logical blocks when
        // cuts come faster than a job's steps (their buffers pile up until no block is free).
        waiting.sort();
        for (_, _, _, l) in waiting {
            f.enqueue(flash, l);
        }
        for j in resumed.into_iter().rev() {
            f.queue.push_front(j);
        }
        f.free.reset((0..g.blocks).filter(|&b| f.usage[b as usize] == Use::Free));
        // The pools as a run without cuts has them between requests (issue 34), restored by
        // recovery itself, not by later traffic. GFTL keeps "enough free space to serve
        // write requests" by running GC "consecutively as long as the queue is not empty"
        // (RFTL paper, section 1, on GFTL [9]), one step per request, with as many buffer
        // blocks as data blocks (section 5.3). Without cuts a job's steps run in successive
        // requests and the request that opens a new buffer for the head's logical block
        // also runs the step that erases its old blocks: between requests at most one job
        // holds a new block, and after a job a logical block holds at most its open buffer.
        // A cut inside a job leaves it half done (its new block and closed buffers on
        // flash, resumed above) and the interrupted request, retried, opens another buffer
        // first; repeated cuts keep it there (5 x 12, one logical block: data + closed +
        // new + open buffer, one free block where a run without cuts keeps two). So, in
        // queue order (a resumed job's new block is used before another job takes one):
        // - a job found half done is run to its end;
        // - the job at the head is run to its end while its logical block holds more than
        //   one buffer (an undone job's closed buffer and the one opened since: 17 x 14,
        //   three buffers where a run without cuts has two);
        // - a logical block behind the head may hold one buffer only, open, with room for
        //   the writes of one job's steps (the constructor's sizing rule; torn pages of cut
        //   writes fill buffers faster than it assumes), else the head's job is run.
        // After it: no job in progress, every logical block at most one buffer, so at most
        // n buffers and blocks - 2n >= 3 free. Each job run leaves the queue: at most n
        // jobs, each at most pi OOB reads, pi copies and the erases of its old blocks
        // (docs/schemes/recovery.md, GFTL: the cost).
        let bufs = |f: &Gftl, l: usize| {
            let lb = &f.lbs[l];
            lb.full_bufs.len()
                + (lb.buf != NONE) as usize
                + f.usage.iter().filter(|&&u| u == Use::Closed(l as u32)).count()
        };
        while let Some(job) = f.queue.front() {
            let h = job.lbn as usize;
            let why = if job.new != NONE {
                format!("was cut before its commit (new block {} on flash)", job.new)
            } else {
                let over = (0..n).find(|&l| {
                    let (lb, k) = (&f.lbs[l], bufs(&f, l));
                    k > 1 || l != h && k == 1 && (lb.buf == NONE || ppb - lb.buf_next < f.max_steps)
                });
                let Some(l) = over else { break };
                format!("is run for logical block {l} ({} buffer blocks)", bufs(&f, l))
            };
            flash.note("recovery", || {
                format!("GFTL recovery: the GC job of logical block {h} at the head of the queue {why} — run to its end now")
            });
            while f.lbs[h].queued {
                f.gc_step(flash)?;
            }
        }
        let queued: Vec<u32> = f.queue.iter().map(|j| j.lbn).collect();
        flash.note("recovery", || {
            format!("GFTL recovery: spare areas scanned, newest copy of every LPN kept; blocks erased (torn only, uncommitted GC destinations, stale buffers): {erase:?}; logical blocks back in the GC queue: {queued:?}")
        });
        Ok(f)
    }
}
