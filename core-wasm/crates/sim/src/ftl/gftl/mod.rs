//! GFTL (Choudhuri & Givargis, CODES+ISSS 2008) *as the RFTL paper describes it*
//! (papers/rftl-real-time-ftl.txt, Table 2, sections 5.2–5.3): block-mapped data blocks,
//! buffer blocks with a page map in RAM, a central GC queue and partial block cleaning
//! — one bounded GC step per request. We did not have the GFTL paper; this is our
//! reading, documented in docs/schemes/rftl.md:
//!
//! - A logical block's *data block* is written in order from page 0 (no page map in
//!   RAM): a read finds the latest copy of its LPN by scanning the block's OOB area from
//!   the newest page backwards — up to π OOB reads, hence U(e_r) = T_rdpg + π·T_rdoob.
//! - When the data block is full (a host write fills it: GFTL collects "once a block
//!   becomes full"), the logical block joins the central GC queue; its writes go to its
//!   *buffer block*, whose pages are mapped in RAM (U(e_w) = T_wrpg).
//! - Every request, read or write, is followed by one GC step of the job at the head
//!   of the queue. A step does OOB scans and valid-page copies while they fit in T_er,
//!   or one erase alone, so L(p) = T_er + max(U(e_r), U(e_w)).
//! - A job: take a new block and close the buffer (later writes open a fresh one), scan
//!   the old data block's OOB, copy the latest copy of every page from the old data block
//!   and the closed buffer into the new block, erase the old data block (the new block
//!   becomes the data block), erase the closed buffer.
//! - If a queued logical block's buffer runs low (≤ 2 jobs' worth of steps left), its job
//!   moves to the front of the waiting jobs.

use std::collections::VecDeque;

use super::nftl::logical_blocks;
use super::pool::BlockPool;
use super::panel::{some, BlockFill, BufferedEntry, GcJob, GcPhase, PANEL_ROWS};
use super::registry::{self, Builder, Mapping, PanelKind, Run, SchemeEntry};
use super::{BlockRole, Cleaning, Ftl, Panel, PanelData, SchemeParams};
use crate::nand::{
    Cause, Count, Flash, FlashError, FlashResult, Geometry, Lpn, Page, PageKind, Pbn, Ppn, Timing, NONE,
};

mod recovery;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Use {
    Free,
    Data(u32),
    Buffer(u32),
    /// A closed buffer waiting for its job to merge and erase it.
    Closed(u32),
    /// The new block a job is filling.
    Dest(u32),
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Phase {
    Start,
    Scan(u32),
    Copy(u32),
    EraseOld,
    EraseBuf,
}

#[derive(Clone, Debug)]
struct Job {
    lbn: u32,
    phase: Phase,
    old: Pbn,
    new: Pbn,
    new_next: u32,
    /// The logical block's buffer blocks when the job started, merged then erased.
    closed: Vec<Pbn>,
    steps: u32,
}

/// The fields of a `Job` a step changes before it records the job again (the buffers it
/// merges are set at the job's start and dropped one by one only at its end).
#[derive(Clone, Copy)]
struct Kept {
    phase: Phase,
    new: Pbn,
    new_next: u32,
    steps: u32,
    closed: usize,
}

impl Kept {
    fn of(job: &Job) -> Kept {
        Kept { phase: job.phase, new: job.new, new_next: job.new_next, steps: job.steps, closed: job.closed.len() }
    }
    /// `job` as it was when last recorded.
    fn restore(self, job: &mut Job) {
        debug_assert_eq!(job.closed.len(), self.closed, "no buffer is dropped before a step can stop");
        (job.phase, job.new, job.new_next, job.steps) = (self.phase, self.new, self.new_next, self.steps);
    }
}

#[derive(Clone, Debug)]
struct Lblock {
    data: Pbn,
    data_next: u32,
    /// Open buffer block (NONE: none yet) and its next free page. When it fills before
    /// the logical block's job has run, it is closed and another one is chained.
    buf: Pbn,
    buf_next: u32,
    /// Full buffer blocks chained before the job ran.
    full_bufs: Vec<Pbn>,
    /// RAM page map of the buffer blocks (open or closed): block offset → page.
    buf_map: Vec<Ppn>,
    queued: bool,
}

#[derive(Clone)]
pub struct Gftl {
    ppb: u32,
    page_bytes: u32,
    timing: Timing,
    logical_pages: u32,
    lbs: Vec<Lblock>,
    usage: Vec<Use>,
    free: BlockPool,
    queue: VecDeque<Job>,
    /// Most steps one job can take (for the buffer's safety margin and the UI).
    max_steps: u32,
    /// Simulation bookkeeping (not GFTL's RAM): where every LPN lives.
    loc: Vec<Ppn>,
    jobs: u64,
    gc_steps: u64,
    copies: u64,
    max_step_ns: u64,
    /// Sequence number written to the spare area of every program (host writes and GC
    /// copies), so that a spare-area scan after a power cut finds the newest copy of an LPN.
    seq: u32,
}

/// Spare-area tags: a host write into a data block / into a buffer block; a GC copy.
const TAG_DATA: u8 = 0;
const TAG_BUFFER: u8 = 1;
const TAG_GC: u8 = 2;

/// The registry's GFTL entry (ftl::REGISTRY).
pub const ENTRY: SchemeEntry = SchemeEntry {
    id: "gftl",
    label: "GFTL",
    short_label: "GFTL",
    description: "GFTL as the RFTL paper describes it: buffer blocks, central GC queue, partial block cleaning",
    params: &[registry::UTILISATION],
    cleaning: Cleaning::Gc,
    runs: &[Run::PartialGc],
    seldom: &[],
    mapping: Mapping::Block,
    panels: &[PanelKind::ResponseTimes, PanelKind::GftlBound],
    build: Builder::Chip(|p, c| Ok(Box::new(Gftl::new(&c.geometry, &c.timing, p)?))),
    fits: |p, c| Gftl::fits(&c.geometry, &c.timing, p).map(|_| ()),
    recover: |flash, p| Ok(Box::new(Gftl::recover(flash, p)?)),
};

impl Gftl {
    /// The registry's geometry rule (`registry::Fits`): what `new` refuses; the logical
    /// blocks and the most steps of one GC job.
    pub fn fits(g: &Geometry, t: &Timing, params: &SchemeParams) -> Result<(u32, u32), String> {
        let ppb = g.pages_per_block;
        // Every logical block holds a data and a buffer block; the job in progress holds
        // a new block and a second buffer on top.
        let n = logical_blocks(g, params)?.min(g.blocks.saturating_sub(3) / 2);
        if n == 0 {
            return Err("GFTL needs at least 5 blocks".into());
        }
        let copy = t.read_ns + t.program_ns;
        if copy > t.erase_ns || t.read_oob_ns > t.erase_ns {
            return Err("GFTL needs a page copy to fit in one erase time".into());
        }
        let per_step = (t.erase_ns / copy) as u32;
        let scan_steps = (ppb as u64 * t.read_oob_ns).div_ceil(t.erase_ns) as u32;
        let max_steps = 1 + scan_steps + ppb.div_ceil(per_step) + 2;
        // Our sizing rule (the analogue of RFTL's Theorem 4.1): a buffer block absorbs the
        // writes of a logical block whose job waits behind one other job.
        if ppb < 2 * max_steps {
            return Err(format!(
                "GFTL needs pi >= 2 x (steps of one GC job) = {} pages per block (got {ppb}); use more pages per block",
                2 * max_steps
            ));
        }
        Ok((n, max_steps))
    }

    pub fn new(g: &Geometry, t: &Timing, params: &SchemeParams) -> Result<Gftl, String> {
        let ppb = g.pages_per_block;
        let (n, max_steps) = Self::fits(g, t, params)?;
        Ok(Gftl {
            ppb,
            page_bytes: g.page_bytes,
            timing: *t,
            logical_pages: n * ppb,
            lbs: vec![
                Lblock {
                    data: NONE,
                    data_next: 0,
                    buf: NONE,
                    buf_next: 0,
                    full_bufs: Vec::new(),
                    buf_map: vec![NONE; ppb as usize],
                    queued: false
                };
                n as usize
            ],
            usage: vec![Use::Free; g.blocks as usize],
            free: BlockPool::new("GFTL", 0..g.blocks),
            queue: VecDeque::new(),
            max_steps,
            loc: vec![NONE; (n * ppb) as usize],
            jobs: 0,
            gc_steps: 0,
            copies: 0,
            max_step_ns: 0,
            seq: 0,
        })
    }

    fn page(&mut self, lpn: Lpn, version: u32, tag: u8) -> Page {
        self.seq += 1;
        Page::stamped(lpn, version, self.seq, tag)
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

    fn enqueue(&mut self, flash: &mut Flash, lbn: u32) {
        let lb = &mut self.lbs[lbn as usize];
        if lb.queued {
            return;
        }
        lb.queued = true;
        let old = lb.data;
        self.queue.push_back(Job {
            lbn,
            phase: Phase::Start,
            old,
            new: NONE,
            new_next: 0,
            closed: Vec::new(),
            steps: 0,
        });
        let pos = self.queue.len();
        flash.note("gc_queue", || {
            format!("logical block {lbn}: data block {old} is full — queued for GC (position {pos})")
        });
    }

    /// One partial-block-cleaning step of the job at the head of the queue.
    fn gc_step(&mut self, flash: &mut Flash) -> FlashResult<()> {
        // The job stays at the head of the queue as it was, with its copies recorded, if
        // the step stops early (a pause or cut unwinds with them: `page_state` keeps them
        // valid until the erase). It is taken out while the step runs, not cloned per step
        // and per copy (issue 37 item 5): `kept` is what the queue would hold.
        let Some(mut job) = self.queue.pop_front() else { return Ok(()) };
        let mut kept = Kept::of(&job);
        match self.gc_step_job(flash, &mut job, &mut kept) {
            Ok((done, spent)) => {
                if !done {
                    self.queue.push_front(job);
                }
                self.check_step(spent)
            }
            Err(e) => {
                kept.restore(&mut job);
                self.queue.push_front(job);
                Err(e)
            }
        }
    }

    /// `gc_step` on `job` (taken from the head of the queue): whether the job is done (it
    /// leaves the queue) and the step's time. `kept` follows the points where the job is
    /// recorded (its start, each copy).
    fn gc_step_job(&mut self, flash: &mut Flash, job: &mut Job, kept: &mut Kept) -> FlashResult<(bool, u64)> {
        let t0 = flash.elapsed_ns;
        let budget = self.timing.erase_ns;
        let ppb = self.ppb;
        let lbn = job.lbn;
        job.steps += 1;
        self.gc_steps += 1;
        let mut did = 0u32;
        loop {
            let spent = flash.elapsed_ns - t0;
            match job.phase {
                Phase::Start => {
                    job.new = self.alloc(Use::Dest(lbn))?;
                    let lb = &mut self.lbs[lbn as usize];
                    job.closed = std::mem::take(&mut lb.full_bufs);
                    if lb.buf != NONE {
                        job.closed.push(lb.buf);
                    }
                    lb.buf = NONE;
                    lb.buf_next = 0;
                    for &b in &job.closed {
                        self.usage[b as usize] = Use::Closed(lbn);
                    }
                    // Counts at the job's first operation: the scan's first OOB read, next.
                    flash.count_at_next_op(Count::GcRun);
                    self.jobs += 1;
                    let (old, new, closed) = (job.old, job.new, &job.closed);
                    flash.note("gc", || {
                        format!("GC of logical block {lbn}: old data block {old} and buffer blocks {closed:?} merge into block {new}")
                    });
                    job.phase = Phase::Scan(0);
                    *kept = Kept::of(job);
                }
                Phase::Scan(o) => {
                    if o >= ppb {
                        job.phase = Phase::Copy(0);
                        continue;
                    }
                    if spent + self.timing.read_oob_ns > budget {
                        break;
                    }
                    flash.read_oob_unused(job.old * ppb + o, Cause::Gc)?;
                    did += 1;
                    job.phase = Phase::Scan(o + 1);
                }
                Phase::Copy(bo) => {
                    if bo >= ppb {
                        job.phase = Phase::EraseOld;
                        continue;
                    }
                    let lpn = lbn * ppb + bo;
                    let src = self.loc[lpn as usize];
                    let from_old_or_closed = src != NONE && (src / ppb == job.old || job.closed.contains(&(src / ppb)));
                    if from_old_or_closed {
                        if spent + self.timing.read_ns + self.timing.program_ns > budget {
                            break;
                        }
                        let dst = job.new * ppb + job.new_next;
                        // Read + program under a new sequence number (recovery: newest wins).
                        let d = flash.read(src, Cause::Gc)?;
                        let page = self.page(d.lpn, d.version, TAG_GC);
                        flash.program(dst, page, Cause::Gc)?;
                        job.new_next += 1;
                        self.loc[lpn as usize] = dst;
                        *kept = Kept::of(job);
                        self.copies += 1;
                        did += 1;
                    }
                    job.phase = Phase::Copy(bo + 1);
                }
                Phase::EraseOld => {
                    if did > 0 {
                        break;
                    }
                    let range = job.old * ppb..(job.old + 1) * ppb;
                    if self.loc[(lbn * ppb) as usize..((lbn + 1) * ppb) as usize].iter().any(|q| range.contains(q)) {
                        return Err(FlashError::Violation(format!(
                            "GFTL: erasing block {} would lose a valid page",
                            job.old
                        )));
                    }
                    flash.erase(job.old, Cause::Gc)?;
                    self.release(job.old);
                    let lb = &mut self.lbs[lbn as usize];
                    lb.data = job.new;
                    lb.data_next = job.new_next;
                    // Pages copied from the closed buffer now live in the new data block.
                    for e in lb.buf_map.iter_mut() {
                        if *e != NONE && job.closed.contains(&(*e / ppb)) {
                            *e = NONE;
                        }
                    }
                    self.usage[job.new as usize] = Use::Data(lbn);
                    let (old, new) = (job.old, job.new);
                    flash.note("gc_step", || {
                        format!("GC of logical block {lbn}: block {old} erased; block {new} is its data block")
                    });
                    job.phase = Phase::EraseBuf;
                    did += 1;
                }
                Phase::EraseBuf => {
                    if let Some(&b) = job.closed.last() {
                        if did > 0 {
                            break;
                        }
                        let range = b * ppb..(b + 1) * ppb;
                        if self.loc[(lbn * ppb) as usize..((lbn + 1) * ppb) as usize].iter().any(|q| range.contains(q))
                        {
                            return Err(FlashError::Violation(format!(
                                "GFTL: erasing buffer {b} would lose a valid page"
                            )));
                        }
                        flash.erase(b, Cause::Gc)?;
                        self.release(b);
                        job.closed.pop();
                        did += 1;
                        continue;
                    }
                    self.lbs[lbn as usize].queued = false;
                    let spent = flash.elapsed_ns - t0;
                    self.max_step_ns = self.max_step_ns.max(spent);
                    flash.note("gc_step", || format!("GC of logical block {lbn} done in {} steps", job.steps));
                    // A data block filled by the copies alone waits for the next write.
                    return Ok((true, spent));
                }
            }
        }
        let spent = flash.elapsed_ns - t0;
        self.max_step_ns = self.max_step_ns.max(spent);
        let (steps, max) = (job.steps, self.max_steps);
        flash.note("gc_step", || format!("GC of logical block {lbn}: step {steps} (at most {max})"));
        Ok((false, spent))
    }

    fn check_step(&self, spent: u64) -> FlashResult<()> {
        if spent > self.timing.erase_ns {
            return Err(FlashError::Violation(format!(
                "GFTL: a GC step took {} us, longer than one erase",
                spent / 1000
            )));
        }
        Ok(())
    }
}

impl Ftl for Gftl {
    fn name(&self) -> &'static str {
        "gftl"
    }
    fn logical_pages(&self) -> u32 {
        self.logical_pages
    }

    fn write(&mut self, flash: &mut Flash, lpn: Lpn, version: u32) -> FlashResult<()> {
        let (lbn, bo) = (lpn / self.ppb, lpn % self.ppb);
        let ppb = self.ppb;
        if self.lbs[lbn as usize].data == NONE {
            let b = self.alloc(Use::Data(lbn))?;
            self.lbs[lbn as usize].data = b;
        }
        let lb = &self.lbs[lbn as usize];
        if !lb.queued && lb.data_next < ppb {
            let dst = lb.data * ppb + lb.data_next;
            let page = self.page(lpn, version, TAG_DATA);
            flash.program(dst, page, Cause::Host)?;
            let lb = &mut self.lbs[lbn as usize];
            lb.data_next += 1;
            lb.buf_map[bo as usize] = NONE;
            self.loc[lpn as usize] = dst;
            if lb.data_next == ppb {
                self.enqueue(flash, lbn);
            }
        } else {
            if lb.buf == NONE {
                let b = self.alloc(Use::Buffer(lbn))?;
                let lb = &mut self.lbs[lbn as usize];
                lb.buf = b;
                lb.buf_next = 0;
            }
            if self.lbs[lbn as usize].buf_next >= ppb {
                // Full before the job ran: chain another buffer block.
                let b = self.alloc(Use::Buffer(lbn))?;
                let lb = &mut self.lbs[lbn as usize];
                let full = std::mem::replace(&mut lb.buf, b);
                lb.full_bufs.push(full);
                lb.buf_next = 0;
                flash.note("alloc", || format!("logical block {lbn}: buffer block {full} full — block {b} chained"));
            }
            let lb = &self.lbs[lbn as usize];
            let dst = lb.buf * ppb + lb.buf_next;
            let page = self.page(lpn, version, TAG_BUFFER);
            flash.program(dst, page, Cause::Host)?;
            let lb = &mut self.lbs[lbn as usize];
            lb.buf_next += 1;
            lb.buf_map[bo as usize] = dst;
            let left = ppb - lb.buf_next;
            self.loc[lpn as usize] = dst;
            self.enqueue(flash, lbn);
            // Buffer running low: this job goes first among the waiting ones.
            if left <= 2 * self.max_steps {
                if let Some(i) = self.queue.iter().skip(1).position(|j| j.lbn == lbn) {
                    let job = self.queue.remove(i + 1).expect("position found");
                    self.queue.insert(1.min(self.queue.len()), job);
                }
            }
        }
        self.gc_step(flash)
    }

    fn read(&mut self, flash: &mut Flash, lpn: Lpn) -> FlashResult<Option<Ppn>> {
        // The period's GC step runs first here (after the request for writes): the
        // simulator checks the page a read returns after the request, and a step may
        // erase the block the read found the page in. The response time is the same.
        self.gc_step(flash)?;
        let (lbn, bo) = (lpn / self.ppb, lpn % self.ppb);
        let lb = &self.lbs[lbn as usize];
        let mut found = None;
        if lb.buf_map[bo as usize] != NONE {
            let q = lb.buf_map[bo as usize];
            flash.read(q, Cause::Host)?;
            found = Some(q);
        } else if lb.data != NONE {
            let (data, used) = (lb.data, lb.data_next);
            for o in (0..used).rev() {
                let q = data * self.ppb + o;
                let p = flash.read_oob(q, Cause::Host)?;
                if p.kind == PageKind::Data && p.lpn == lpn {
                    flash.read(q, Cause::Host)?;
                    found = Some(q);
                    break;
                }
            }
        }
        Ok(found)
    }

    fn locate(&self, lpn: Lpn) -> Option<Ppn> {
        self.loc.get(lpn as usize).copied().filter(|&p| p != NONE)
    }

    /// A job's new block counts with the buffers (issue 34). Every block is free, a logical
    /// block's data block, a buffer or a job's new block, so buffers + new block = blocks -
    /// data blocks - free: they are one pool, held by the free pool's bound. Which of the
    /// two holds a block is only whether the head's job has started: recovery runs a job
    /// cut half way to its end (no new block left), while a run without cuts is mid-job at
    /// most moments, so buffers alone could exceed that run's most by one with free blocks
    /// at its fewest (32 x 16, hot/cold: buffers 10 vs 9, free 12 = 12).
    fn pool_of(&self, role: BlockRole) -> BlockRole {
        if role == BlockRole::GcDestination {
            BlockRole::Buffer
        } else {
            role
        }
    }

    fn block_role(&self, pbn: Pbn) -> BlockRole {
        match self.usage[pbn as usize] {
            Use::Free => BlockRole::Free,
            Use::Data(_) => BlockRole::Data,
            Use::Buffer(_) | Use::Closed(_) => BlockRole::Buffer,
            Use::Dest(_) => BlockRole::GcDestination,
        }
    }

    /// The pages a job has copied stay valid in the old data block and the closed buffers
    /// until the job erases them (GFTL's partial block cleaning spans requests).
    fn page_state(&self, flash: &Flash, ppn: Ppn) -> super::PageState {
        let st = super::default_page_state(self, flash, ppn);
        if st != super::PageState::Invalid
            || !matches!(self.usage[(ppn / self.ppb) as usize], Use::Data(_) | Use::Closed(_))
        {
            return st;
        }
        let pbn = ppn / self.ppb;
        let p = flash.peek(ppn);
        let job_copied = self.queue.iter().any(|j| {
            (j.old == pbn || j.closed.contains(&pbn)) && self.locate(p.lpn).is_some_and(|q| q / self.ppb == j.new)
        });
        if job_copied && super::copy_of_located(self, flash, ppn) {
            return super::PageState::Valid;
        }
        st
    }

    fn block_owner(&self, pbn: Pbn) -> Option<u32> {
        match self.usage[pbn as usize] {
            Use::Free => None,
            Use::Data(l) | Use::Buffer(l) | Use::Closed(l) | Use::Dest(l) => Some(l),
        }
    }

    fn ram_bytes(&self) -> u64 {
        // Section 5.3's three parts: a 3-byte block map entry per data block, a 1-byte
        // page-map entry per buffer page (one buffer block per data block), and one
        // block's worth of data buffer.
        let n = self.lbs.len() as u64;
        3 * n + n * self.ppb as u64 + self.ppb as u64 * self.page_bytes as u64
    }

    fn scheme_metrics(&self) -> serde_json::Value {
        serde_json::json!({
            "logical_blocks": self.lbs.len(),
            "gc_jobs": self.jobs,
            "gc_steps": self.gc_steps,
            "valid_page_copies": self.copies,
            "max_steps_per_job": self.max_steps,
            "queue_length": self.queue.len(),
            "longest_gc_step_us": self.max_step_ns as f64 / 1000.0,
        })
    }

    fn panels(&self, _flash: &Flash) -> Vec<Panel> {
        let ppb = self.ppb;
        let entries = self
            .lbs
            .iter()
            .enumerate()
            .take(PANEL_ROWS)
            .map(|(l, lb)| BufferedEntry {
                lbn: l as u32,
                data: BlockFill { pbn: some(lb.data), used: lb.data_next, of: ppb },
                full_buffers: lb.full_bufs.clone(),
                buffer: BlockFill { pbn: some(lb.buf), used: lb.buf_next, of: ppb },
                buffered_pages: lb.buf_map.iter().filter(|&&q| q != NONE).count() as u32,
            })
            .collect();
        let jobs = self
            .queue
            .iter()
            .map(|j| GcJob {
                lbn: j.lbn,
                phase: match j.phase {
                    Phase::Start => GcPhase::Start,
                    Phase::Scan(p) => GcPhase::Scan(p),
                    Phase::Copy(p) => GcPhase::Copy(p),
                    Phase::EraseOld => GcPhase::EraseOld,
                    Phase::EraseBuf => GcPhase::EraseBuffer,
                },
                steps: j.steps,
            })
            .collect();
        vec![
            Panel::new("Block map and buffer page map (RAM)", PanelData::BufferedBlockMap { entries }),
            Panel::new("Central GC queue", PanelData::GcQueue { max_steps: self.max_steps, jobs }),
        ]
    }
}
