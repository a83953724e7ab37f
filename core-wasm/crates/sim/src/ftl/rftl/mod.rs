//! RFTL: a real-time FTL with distributed partial garbage collection
//! (Qin, Wang, Liu, Shao; papers/rftl-real-time-ftl.txt, sections 4.1–4.5).
//!
//! Every logical block owns three physical blocks (section 4.1): a *primary*, a
//! *replacement* and a *buffer* block. Inside them pages are page-mapped; the page map
//! of a logical block is split into N = ⌈π/α⌉ sub-tables of α entries, each kept in the
//! spare (OOB) area of the page written last for that sub-table; RAM holds only the N
//! sub-table indices (where the latest copy of each sub-table is). A write therefore
//! costs one OOB read (the old sub-table) plus one page program (data + updated
//! sub-table), a read one OOB read plus one page read (section 4.3).
//!
//! Garbage collection of a full primary is split into at most k steps of at most β
//! valid-page copies or one erase each (equations 1 and 2), one step per write to that
//! logical block (section 4.4), so that no request waits longer than one erase for GC.
//! The exchange operation, the circular shift and the replacement block's GC in j steps
//! (equation 3) follow Figure 5. Theorem 4.1 / Lemma 4.1 (enough free pages) and the
//! step bounds are checked at run time and reported as `FlashError::Violation`.
//!
//! The OOB sub-tables are a side structure owned by the scheme (`oob`): an entry is
//! written only when its page is programmed and read only after a counted
//! `flash.read_oob` of that page. Only the latest copy of each sub-table is kept — the
//! older copies are still on the chip, but nothing ever reads them (docs/schemes/rftl.md).

use super::panel::{
    first_rows, BlockFill, BlockGroup, GroupGc, GroupGcKind, OffsetRange, PageAt, SubTableRow, PANEL_ROWS,
};
use super::registry::{self, Builder, Mapping, PanelKind, Run, SchemeEntry};
use super::{BlockRole, Cleaning, Ftl, Panel, PanelData, SchemeParams};
use crate::nand::{
    Cause, Count, Flash, FlashError, FlashResult, Geometry, Lpn, Page, PageKind, Pbn, Ppn, Timing, NONE,
};

mod ahead;
mod recovery;

/// Index of a block's role inside a logical block's triple.
const PRIMARY: usize = 0;
const REPLACEMENT: usize = 1;
const BUFFER: usize = 2;
const ROLE_NAMES: [&str; 3] = ["primary", "replacement", "buffer"];
/// Spare-area tag of pages programmed by recovery's compaction (the roles are 0, 1, 2).
const TAG_COMPACT: u8 = 3;

/// Bytes one OOB sub-table entry takes (which of the three blocks + page offset).
const ENTRY_BYTES: u32 = 2;

/// The registry's RFTL entry (ftl::REGISTRY).
pub const ENTRY: SchemeEntry = SchemeEntry {
    id: "rftl",
    label: "RFTL (real-time)",
    short_label: "RFTL",
    description: "RFTL: primary / replacement / buffer blocks, OOB sub-tables, distributed partial GC (real-time)",
    params: &[registry::UTILISATION],
    cleaning: Cleaning::Gc,
    runs: &[Run::PartialGc],
    seldom: &[],
    mapping: Mapping::Block,
    panels: &[PanelKind::ResponseTimes, PanelKind::RftlBlockMap],
    build: Builder::Chip(|p, c| Ok(Box::new(Rftl::new(&c.geometry, &c.timing, p)?))),
    fits: |p, c| Rftl::fits(&c.geometry, &c.timing, p).map(|_| ()),
    recover: |flash, p| Ok(Box::new(Rftl::recover(flash, p)?)),
};

/// The constants of sections 4.4–4.5 for one chip.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RftlParams {
    /// Pages per block (π).
    pub pi: u32,
    /// Sub-table entries per OOB (α) and number of sub-tables (N = ⌈π/α⌉).
    pub alpha: u32,
    pub n_sub: u32,
    /// Valid-page copies per GC step (equation 2 with t = T_er).
    pub beta: u32,
    /// Equation 1 as printed, and the number of steps we allow a primary GC:
    /// max(eq. 1, ⌈π/β⌉ + 1) — eq. 1 divides the total GC time by T_er and so ignores
    /// that copies and the erase cannot share one step.
    pub k_eq1: u32,
    pub k: u32,
    /// Equation 3 as printed, and the steps we allow the replacement block's GC:
    /// max(eq. 3, ⌈k/β⌉ + 1).
    pub j_eq3: u32,
    pub j: u32,
    /// Cost of one valid-page copy in ns: T_rdpg + T_wrpg + 2·T_rdoob (equation 2).
    pub copy_ns: u64,
    /// Longest GC step allowed: T_er.
    pub step_ns: u64,
}

impl RftlParams {
    pub fn new(g: &Geometry, t: &Timing) -> Result<RftlParams, String> {
        let pi = g.pages_per_block;
        // Half the spare area is left to ECC and the page's own LPN/sequence number; the
        // other half holds sub-table entries of ENTRY_BYTES each (section 4.1: α per OOB).
        let alpha = ((g.spare_bytes / 2) / ENTRY_BYTES).clamp(1, pi);
        let n_sub = pi.div_ceil(alpha);
        let copy_ns = t.read_ns + t.program_ns + 2 * t.read_oob_ns;
        let step_ns = t.erase_ns;
        let beta = (step_ns / copy_ns.max(1)) as u32;
        if beta == 0 {
            return Err(format!(
                "RFTL needs a valid-page copy ({} us) to fit in one erase time ({} us): equation 2 gives beta = 0",
                copy_ns / 1000,
                step_ns / 1000
            ));
        }
        let div_ceil = |a: u64, b: u64| a.div_ceil(b.max(1)) as u32;
        let k_eq1 = div_ceil(pi as u64 * copy_ns + step_ns, step_ns);
        let k = k_eq1.max(pi.div_ceil(beta) + 1);
        // ⌈k·c/T_er + 1⌉ = ⌈k·c/T_er⌉ + 1.
        let j_eq3 = div_ceil(k as u64 * copy_ns, step_ns) + 1;
        let j = j_eq3.max(k.div_ceil(beta) + 1);
        // Section 4.5: the buffer must hold the k pending writes of a primary GC, then the
        // ≤ k copies and j pending writes of the replacement GC, and still have k free.
        if pi < 2 * k + j {
            return Err(format!(
                "RFTL needs pi >= 2k + j pages per block (section 4.5): pi = {pi}, k = {k}, j = {j} (beta = {beta}); use more pages per block"
            ));
        }
        Ok(RftlParams { pi, alpha, n_sub, beta, k_eq1, k, j_eq3, j, copy_ns, step_ns })
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum GcKind {
    /// The first GC of a logical block (buffer empty): the primary's valid pages go to
    /// the replacement block, then the exchange operation (Figure 5 (a)–(d)).
    Primary,
    /// Primary full and only k free pages left in the buffer: the valid pages of the
    /// primary and of the buffer go to the replacement block, the primary is erased,
    /// then the circular shift (Figure 5 (d)–(f)).
    PrimaryAndBuffer,
    /// After a circular shift: the replacement block's valid pages (the writes served
    /// during the previous GC) go to the buffer, then it is erased (Figure 5 (g)).
    Replacement,
}

/// A garbage collection in progress on one logical block.
#[derive(Clone, Debug)]
pub struct Gc {
    pub kind: GcKind,
    /// Steps done so far, and the bound (k or j).
    pub step: u32,
    pub bound: u32,
    /// Pages still to examine, in order; the victim erased at the end.
    sources: Vec<Ppn>,
    cursor: usize,
    victim: Pbn,
    /// Copies done by this GC.
    pub copies: u32,
}

#[derive(Clone, Debug)]
pub struct LogicalBlock {
    /// Physical blocks by role: [primary, replacement, buffer].
    pub blocks: [Pbn; 3],
    /// Next free page in each (the three indices of section 4.1), by role.
    pub next: [u32; 3],
    pub gc: Option<Gc>,
}

#[derive(Clone, Debug, Default)]
struct Stats {
    gc_steps: u64,
    primary_gcs: u64,
    merging_gcs: u64,
    replacement_gcs: u64,
    exchanges: u64,
    circular_shifts: u64,
    copies: u64,
    max_step_ns: u64,
}

#[derive(Clone)]
pub struct Rftl {
    pub p: RftlParams,
    ppb: u32,
    logical_pages: u32,
    pub lbs: Vec<LogicalBlock>,
    /// RAM: where the latest copy of each sub-table is (NONE: never written), N per
    /// logical block at `lbn * N + g` (`sub_at`). One flat array, not a Vec per logical
    /// block: every host request reads an entry, and a Vec each cost a pointer chase to
    /// a scattered allocation (issue 37: the second miss of wasm's `read_subtable`).
    sub_index: Vec<Ppn>,
    /// Per physical block: (logical block, role), or None if unused.
    owner: Vec<Option<(u32, u8)>>,
    /// The OOB sub-tables: only the latest copy of each is kept, and that copy lives in
    /// the page `sub_index` names, so one slot of `alpha` entries per (logical block,
    /// sub-table) holds it: about a word per logical page, where a boxed table per chip
    /// page cost a 16-byte pointer for every page (issue 37: peak RSS).
    oob: Vec<Ppn>,
    /// Simulation bookkeeping, not RFTL's RAM: where every LPN lives, for `locate`,
    /// page states and the GC's cost model (invalid pages are skipped at no cost, as
    /// equations 1–2 charge only valid-page copies).
    loc: Vec<Ppn>,
    seq: u32,
    stats: Stats,
}

impl Rftl {
    /// The registry's geometry rule (`registry::Fits`): what `new` refuses (section 4.5's
    /// pi >= 2k + j, three blocks per logical block); the parameters it derives.
    pub fn fits(g: &Geometry, t: &Timing, params: &SchemeParams) -> Result<RftlParams, String> {
        let p = RftlParams::new(g, t)?;
        let u = params.utilisation.unwrap_or(1.0);
        if registry::UTILISATION.check(u, g).is_err() {
            return Err(format!("utilisation must be in (0, 1] (got {u})"));
        }
        if g.blocks / 3 == 0 {
            return Err("RFTL needs at least 3 blocks (a primary, a replacement and a buffer per logical block)".into());
        }
        Ok(p)
    }

    pub fn new(g: &Geometry, t: &Timing, params: &SchemeParams) -> Result<Rftl, String> {
        let p = Self::fits(g, t, params)?;
        let u = params.utilisation.unwrap_or(1.0);
        let max_lbs = g.blocks / 3;
        // Utilisation: the share of the chip's logical capacity (⌊blocks/3⌋ logical
        // blocks) exported to the host; the other triples stay unused (docs).
        let n_lbs = ((max_lbs as f64 * u).round() as u32).clamp(1, max_lbs);
        let ppb = g.pages_per_block;
        let mut owner = vec![None; g.blocks as usize];
        let lbs = (0..n_lbs)
            .map(|l| {
                for r in 0..3 {
                    owner[(3 * l + r) as usize] = Some((l, r as u8));
                }
                LogicalBlock {
                    blocks: [3 * l, 3 * l + 1, 3 * l + 2],
                    next: [0; 3],
                    gc: None,
                }
            })
            .collect();
        Ok(Rftl {
            p,
            ppb,
            logical_pages: n_lbs * ppb,
            lbs,
            sub_index: vec![NONE; (n_lbs * p.n_sub) as usize],
            owner,
            oob: vec![NONE; (n_lbs * p.n_sub * p.alpha) as usize],
            loc: vec![NONE; (n_lbs * ppb) as usize],
            seq: 0,
            stats: Stats::default(),
        })
    }

    fn violation<T>(msg: String) -> FlashResult<T> {
        Err(FlashError::Violation(format!("RFTL: {msg}")))
    }

    /// Reads sub-table `g` of logical block `lbn` (one counted OOB read); false if it was
    /// never written (an empty table). Its entries are then in `oob` at `oob_slot` (no
    /// copy per request: issue 37 item 5).
    fn read_subtable(&mut self, flash: &mut Flash, lbn: u32, g: u32, cause: Cause) -> FlashResult<bool> {
        let idx = self.sub_index[self.sub_at(lbn, g)];
        if idx == NONE {
            return Ok(false);
        }
        flash.read_oob_unused(idx, cause)?;
        Ok(true)
    }

    /// Entry `e` of sub-table `g` of `lbn` as `read_subtable` read it (`written`).
    fn subtable_entry(&self, lbn: u32, g: u32, e: u32, written: bool) -> Ppn {
        if written {
            self.oob[Self::oob_slot(&self.p, lbn, g).start + e as usize]
        } else {
            NONE
        }
    }

    /// Where sub-table `g` of logical block `lbn` is named in `sub_index`.
    fn sub_at(&self, lbn: u32, g: u32) -> usize {
        (lbn * self.p.n_sub + g) as usize
    }

    /// RAM's sub-table indices of logical block `lbn`: the page holding the latest copy
    /// of each of its N sub-tables (NONE: never written).
    pub fn sub_indices(&self, lbn: u32) -> &[Ppn] {
        let n = self.p.n_sub as usize;
        &self.sub_index[lbn as usize * n..(lbn as usize + 1) * n]
    }

    /// The entries of sub-table `g` of logical block `lbn` in `oob` (the OOB of the page
    /// `sub_index` names for it).
    fn oob_slot(p: &RftlParams, lbn: u32, g: u32) -> std::ops::Range<usize> {
        let start = ((lbn * p.n_sub + g) * p.alpha) as usize;
        start..start + p.alpha as usize
    }

    /// Programs `page` at `dst` with its updated sub-table in its OOB (the one just read:
    /// `written`, else empty), then moves the sub-table index, the table and the
    /// bookkeeping (only after the program succeeded).
    fn program_with_subtable(
        &mut self,
        flash: &mut Flash,
        lbn: u32,
        dst: Ppn,
        mut page: Page,
        written: bool,
        cause: Cause,
    ) -> FlashResult<()> {
        let bo = page.lpn % self.ppb;
        let g = bo / self.p.alpha;
        self.seq += 1;
        page.seq = self.seq;
        // The spare byte records the role of the block at program time (the sub-table
        // group is the LPN's, so it needs no byte): recovery tells the blocks apart by it.
        let role = self.lbs[lbn as usize].blocks.iter().position(|&b| b == dst / self.ppb).unwrap_or(PRIMARY);
        page.tag = role as u8;
        flash.program(dst, page, cause)?;
        // The older copy is still on the chip, but no longer reachable: nothing reads it
        // again, so the new one takes its slot.
        let at = self.sub_at(lbn, g);
        self.sub_index[at] = dst;
        // The sub-table as read (`written`: else empty), updated with the new entry.
        let slot = Self::oob_slot(&self.p, lbn, g);
        if !written {
            self.oob[slot.clone()].fill(NONE);
        }
        self.oob[slot.start + (bo % self.p.alpha) as usize] = dst;
        self.loc[page.lpn as usize] = dst;
        Ok(())
    }

    pub fn free_pages(&self, lbn: u32, role: usize) -> u32 {
        self.ppb - self.lbs[lbn as usize].next[role]
    }

    /// Next free page of a role's block, advancing its index.
    fn take_page(&mut self, lbn: u32, role: usize) -> FlashResult<Ppn> {
        let lb = &mut self.lbs[lbn as usize];
        if lb.next[role] >= self.ppb {
            return Self::violation(format!(
                "logical block {lbn}: the {} block {} has no free page (Theorem 4.1 violated)",
                ROLE_NAMES[role], lb.blocks[role]
            ));
        }
        let ppn = lb.blocks[role] * self.ppb + lb.next[role];
        lb.next[role] += 1;
        Ok(ppn)
    }

    /// Section 4.4: the GC that a write to `lbn` triggers, if any (checked before the
    /// write is served, as w0 and w7 in Figure 5).
    fn maybe_trigger(&mut self, flash: &mut Flash, lbn: u32) -> FlashResult<()> {
        let (k, ppb) = (self.p.k, self.ppb);
        let lb = &self.lbs[lbn as usize];
        if lb.gc.is_some() || lb.next[PRIMARY] < ppb {
            return Ok(());
        }
        let buffer_used = lb.next[BUFFER];
        let kind = if buffer_used == 0 {
            GcKind::Primary
        } else if ppb - buffer_used <= k {
            GcKind::PrimaryAndBuffer
        } else {
            return Ok(());
        };
        // Theorem 4.1: one free block (the replacement) and k free pages (the buffer).
        if lb.next[REPLACEMENT] != 0 || flash.block_pages(lb.blocks[REPLACEMENT]).iter().any(|p| !p.is_erased()) {
            return Self::violation(format!(
                "Theorem 4.1: logical block {lbn} starts a GC but its replacement block {} is not free",
                lb.blocks[REPLACEMENT]
            ));
        }
        if ppb - buffer_used < k {
            return Self::violation(format!(
                "Theorem 4.1: logical block {lbn} starts a GC with {} free buffer pages, fewer than k = {k}",
                ppb - buffer_used
            ));
        }
        let prim = lb.blocks[PRIMARY];
        let mut sources: Vec<Ppn> = (0..ppb).map(|o| prim * ppb + o).collect();
        if kind == GcKind::PrimaryAndBuffer {
            let buf = lb.blocks[BUFFER];
            sources.extend((0..buffer_used).map(|o| buf * ppb + o));
        }
        // (Counted at its first operation, in its first step: `gc_step`.)
        let gc = Gc { kind, step: 0, bound: k, sources, cursor: 0, victim: prim, copies: 0 };
        match kind {
            GcKind::Primary => self.stats.primary_gcs += 1,
            _ => self.stats.merging_gcs += 1,
        }
        flash.note("gc", || match kind {
            GcKind::Primary => format!(
                "logical block {lbn}: primary block {prim} is full — distributed GC starts (at most k = {k} steps of β = {} copies): valid pages go to replacement block {}, writes to buffer block {}",
                self.p.beta, lb.blocks[REPLACEMENT], lb.blocks[BUFFER]
            ),
            _ => format!(
                "logical block {lbn}: primary block {prim} full and buffer block {} down to {} free pages (k = {k}) — GC of primary + buffer into replacement block {}",
                lb.blocks[BUFFER], ppb - buffer_used, lb.blocks[REPLACEMENT]
            ),
        });
        self.lbs[lbn as usize].gc = Some(gc);
        Ok(())
    }

    /// One partial GC step of `lbn` (section 4.4): up to β valid-page copies, or the
    /// erase of the victim once every valid page has been copied. Never longer than T_er.
    fn gc_step(&mut self, flash: &mut Flash, lbn: u32) -> FlashResult<()> {
        let t0 = flash.elapsed_ns;
        // The job stays in RAM as it was until the step ends: taken out while the step runs
        // (not cloned: issue 37 item 5) and put back as it was if the step stops early (a
        // power cut, a paused replay, a broken rule).
        let Some(mut gc) = self.lbs[lbn as usize].gc.take() else { return Ok(()) };
        let kept = (gc.step, gc.cursor, gc.copies);
        match self.gc_step_job(flash, lbn, &mut gc) {
            Ok(true) => self.lbs[lbn as usize].gc = Some(gc),
            Ok(false) => {}
            Err(e) => {
                (gc.step, gc.cursor, gc.copies) = kept;
                self.lbs[lbn as usize].gc = Some(gc);
                return Err(e);
            }
        }
        let spent = flash.elapsed_ns - t0;
        self.stats.max_step_ns = self.stats.max_step_ns.max(spent);
        if spent > self.p.step_ns {
            return Self::violation(format!(
                "logical block {lbn}: GC step took {} us, longer than one erase ({} us)",
                spent / 1000,
                self.p.step_ns / 1000
            ));
        }
        Ok(())
    }

    /// `gc_step` on the job `gc` of `lbn` (taken out of RAM): true while it still copies,
    /// false once the victim is erased and the GC finished. A copy moves its LPN's map at
    /// once (the updated sub-table is in the copy's OOB, section 4.1/4.3): its source is
    /// forgotten at that operation, though the victim is erased only steps later.
    fn gc_step_job(&mut self, flash: &mut Flash, lbn: u32, gc: &mut Gc) -> FlashResult<bool> {
        gc.step += 1;
        self.stats.gc_steps += 1;
        if gc.step == 1 {
            // A GC run counts at its first operation: the first step's (a copy's OOB read,
            // or the erase), after the host write that triggered it.
            flash.count_at_next_op(Count::GcRun);
        }
        if gc.step > gc.bound {
            return Self::violation(format!(
                "logical block {lbn}: GC needs step {} but its bound is {} (section 4.4)",
                gc.step, gc.bound
            ));
        }
        let dest_role = if gc.kind == GcKind::Replacement { BUFFER } else { REPLACEMENT };
        let mut copies = 0;
        while gc.cursor < gc.sources.len() && copies < self.p.beta {
            let src = gc.sources[gc.cursor];
            let p = *flash.peek(src);
            let live = p.kind == PageKind::Data && self.loc.get(p.lpn as usize) == Some(&src);
            if live {
                // Equation 2's copy: the source's OOB (its LPN), the sub-table's OOB (the
                // current mapping, updated into the copy's OOB), the page, the program.
                let dst = self.take_page(lbn, dest_role)?;
                flash.read_oob_unused(src, Cause::Gc)?;
                let g = (p.lpn % self.ppb) / self.p.alpha;
                let written = self.read_subtable(flash, lbn, g, Cause::Gc)?;
                if self.subtable_entry(lbn, g, (p.lpn % self.ppb) % self.p.alpha, written) != src {
                    return Self::violation(format!("sub-table {g} of logical block {lbn} disagrees with page {src}"));
                }
                let data = flash.read(src, Cause::Gc)?;
                self.program_with_subtable(flash, lbn, dst, Page::data(data.lpn, data.version), written, Cause::Gc)?;
                copies += 1;
            }
            gc.cursor += 1;
        }
        gc.copies += copies;
        self.stats.copies += copies as u64;
        let done_copying = gc.cursor >= gc.sources.len();
        let (step, bound, kind, victim) = (gc.step, gc.bound, gc.kind, gc.victim);
        if copies > 0 || !done_copying {
            flash.note("gc_step", || {
                format!(
                    "logical block {lbn}: GC step {step} of {bound}: {copies} valid page(s) copied to the {} block",
                    ROLE_NAMES[dest_role]
                )
            });
            Ok(true)
        } else {
            self.erase_victim(flash, lbn, victim)?;
            flash.note("gc_step", || format!("logical block {lbn}: GC step {step} of {bound}: block {victim} erased"));
            self.finish(flash, lbn, kind);
            Ok(false)
        }
    }

    fn erase_victim(&mut self, flash: &mut Flash, lbn: u32, victim: Pbn) -> FlashResult<()> {
        let ppb = self.ppb;
        let range = victim * ppb..(victim + 1) * ppb;
        // Lemma 4.1's point: nothing live may remain in the victim.
        if let Some(o) = range.clone().find(|&q| {
            let p = flash.peek(q);
            p.kind == PageKind::Data && self.loc.get(p.lpn as usize) == Some(&q)
        }) {
            return Self::violation(format!(
                "logical block {lbn}: erasing block {victim} would lose the valid page {}",
                o % ppb
            ));
        }
        if self.sub_indices(lbn).iter().any(|i| range.contains(i)) {
            return Self::violation(format!("logical block {lbn}: erasing block {victim} would lose a sub-table"));
        }
        flash.erase(victim, Cause::Gc)?;
        let lb = &mut self.lbs[lbn as usize];
        let role = lb.blocks.iter().position(|&b| b == victim).expect("victim belongs to the logical block");
        lb.next[role] = 0;
        Ok(())
    }

    /// The role changes that end a GC (section 4.4).
    fn finish(&mut self, flash: &mut Flash, lbn: u32, kind: GcKind) {
        let lb = &mut self.lbs[lbn as usize];
        match kind {
            GcKind::Primary => {
                // Exchange operation: the replacement (holding the copies) becomes the primary.
                lb.blocks.swap(PRIMARY, REPLACEMENT);
                lb.next.swap(PRIMARY, REPLACEMENT);
                self.stats.exchanges += 1;
                let (p, r) = (lb.blocks[PRIMARY], lb.blocks[REPLACEMENT]);
                flash.note("exchange", || {
                    format!("logical block {lbn}: exchange — block {p} is the primary now, erased block {r} the replacement")
                });
            }
            GcKind::PrimaryAndBuffer => {
                // Circular shift: replacement → primary, buffer → replacement, erased primary → buffer.
                // Timing: section 4.4 shifts "after the buffer block is full"; we shift when this
                // GC's last step (the erase) ends. In Figure 5 the two coincide (the k steps ride
                // on the k writes that fill the buffer's last k free pages); when the GC needs
                // fewer than k steps we shift earlier and the old buffer's free pages stay unused
                // (docs/schemes/rftl.md, "Circular shift timing").
                let [p, r, b] = lb.blocks;
                let [np, nr, nb] = lb.next;
                lb.blocks = [r, b, p];
                lb.next = [nr, nb, np];
                self.stats.circular_shifts += 1;
                // The replacement block's GC is triggered at once; its steps ride on the
                // next writes to this logical block (Figure 5 (f)–(g)).
                let sources = (0..nb).map(|o| b * self.ppb + o).collect();
                lb.gc = Some(Gc {
                    kind: GcKind::Replacement,
                    step: 0,
                    bound: self.p.j,
                    sources,
                    cursor: 0,
                    victim: b,
                    copies: 0,
                });
                self.stats.replacement_gcs += 1;
                flash.note("circular_shift", || {
                    format!(
                        "logical block {lbn}: circular shift — primary {r}, replacement {b} (its valid pages will move in at most j = {} steps), buffer {p}",
                        self.p.j
                    )
                });
            }
            GcKind::Replacement => {}
        }
        self.refresh_owner(lbn);
    }

    fn refresh_owner(&mut self, lbn: u32) {
        for (r, &b) in self.lbs[lbn as usize].blocks.iter().enumerate() {
            self.owner[b as usize] = Some((lbn, r as u8));
        }
    }

    /// Lemma 4.1 at the start of the replacement GC: the buffer must have room for the
    /// replacement's valid pages plus j pending writes.
    fn check_lemma_4_1(&self, flash: &Flash, lbn: u32) -> FlashResult<()> {
        let lb = &self.lbs[lbn as usize];
        if let Some(gc) = &lb.gc {
            if gc.kind == GcKind::Replacement && gc.step == 0 {
                let valid = gc
                    .sources
                    .iter()
                    .filter(|&&q| {
                        let p = flash.peek(q);
                        p.kind == PageKind::Data && self.loc.get(p.lpn as usize) == Some(&q)
                    })
                    .count() as u32;
                let free = self.ppb - lb.next[BUFFER];
                if valid > self.p.k || free < valid + self.p.j {
                    return Self::violation(format!(
                        "Lemma 4.1: logical block {lbn}'s replacement GC has {valid} valid pages (k = {}) and {free} free buffer pages (needs {})",
                        self.p.k,
                        valid + self.p.j
                    ));
                }
            }
        }
        Ok(())
    }

    pub fn gc_progress(&self, lbn: u32) -> Option<(GcKind, u32, u32)> {
        self.lbs.get(lbn as usize)?.gc.as_ref().map(|g| (g.kind, g.step, g.bound))
    }
}

impl Ftl for Rftl {
    fn name(&self) -> &'static str {
        "rftl"
    }
    fn logical_pages(&self) -> u32 {
        self.logical_pages
    }

    fn write(&mut self, flash: &mut Flash, lpn: Lpn, version: u32) -> FlashResult<()> {
        if lpn >= self.logical_pages {
            return Self::violation(format!("lpn {lpn} beyond the logical space"));
        }
        let lbn = lpn / self.ppb;
        let bo = lpn % self.ppb;
        self.maybe_trigger(flash, lbn)?;
        self.check_lemma_4_1(flash, lbn)?;
        // Section 4.3: read the old sub-table (one OOB read), program data + sub-table.
        let written = self.read_subtable(flash, lbn, bo / self.p.alpha, Cause::Host)?;
        let lb = &self.lbs[lbn as usize];
        let role = if lb.gc.is_none() && lb.next[PRIMARY] < self.ppb { PRIMARY } else { BUFFER };
        let dst = self.take_page(lbn, role)?;
        if let Err(e) = self.program_with_subtable(flash, lbn, dst, Page::data(lpn, version), written, Cause::Host) {
            // The page was not written: give it back unless the program tore it.
            if flash.peek(dst).is_erased() {
                self.lbs[lbn as usize].next[role] -= 1;
            }
            return Err(e);
        }
        // Section 4.2: the request first, then one partial GC step.
        self.gc_step(flash, lbn)
    }

    fn read(&mut self, flash: &mut Flash, lpn: Lpn) -> FlashResult<Option<Ppn>> {
        if lpn >= self.logical_pages {
            return Ok(None);
        }
        let (lbn, bo) = (lpn / self.ppb, lpn % self.ppb);
        let g = bo / self.p.alpha;
        if self.sub_index[self.sub_at(lbn, g)] == NONE {
            return Ok(None);
        }
        let written = self.read_subtable(flash, lbn, g, Cause::Host)?;
        let ppn = self.subtable_entry(lbn, g, bo % self.p.alpha, written);
        if ppn == NONE {
            return Ok(None);
        }
        debug_assert_eq!(ppn, self.loc[lpn as usize], "OOB sub-table and bookkeeping disagree");
        flash.read(ppn, Cause::Host)?;
        Ok(Some(ppn))
    }

    fn locate(&self, lpn: Lpn) -> Option<Ppn> {
        self.loc.get(lpn as usize).copied().filter(|&p| p != NONE)
    }

    /// On wasm32 the closed loop is compiled for RFTL and reads ahead (ahead.rs); natively
    /// the simulator's shared loop runs it, unchanged (`None`).
    fn run_closed(
        &mut self,
        parts: &mut super::host::Parts<'_>,
        reqs: &[crate::trace::Request],
    ) -> Option<Result<(), (crate::trace::Request, FlashError)>> {
        super::host::run_closed_grouped(self, parts, reqs, Rftl::touch_group)
    }

    fn block_role(&self, pbn: Pbn) -> BlockRole {
        match self.owner.get(pbn as usize).copied().flatten() {
            None => BlockRole::Free,
            Some((_, 0)) => BlockRole::Primary,
            Some((_, 1)) => BlockRole::Replacement,
            Some(_) => BlockRole::Buffer,
        }
    }

    fn block_owner(&self, pbn: Pbn) -> Option<u32> {
        self.owner.get(pbn as usize).copied().flatten().map(|o| o.0)
    }

    fn ram_bytes(&self) -> u64 {
        // Section 5.3's accounting: per logical block its three PBNs (2 B each), the three
        // next-page indices (1 B each) and the N sub-table indices (2 B each).
        self.lbs.len() as u64 * (3 * 2 + 3 + 2 * self.p.n_sub as u64)
    }

    fn scheme_metrics(&self) -> serde_json::Value {
        let s = &self.stats;
        serde_json::json!({
            "pi": self.p.pi,
            "alpha": self.p.alpha,
            "n_subtables": self.p.n_sub,
            "beta": self.p.beta,
            "k": self.p.k,
            "k_eq1": self.p.k_eq1,
            "j": self.p.j,
            "j_eq3": self.p.j_eq3,
            "logical_blocks": self.lbs.len(),
            "gc_steps": s.gc_steps,
            "primary_gcs": s.primary_gcs,
            "primary_and_buffer_gcs": s.merging_gcs,
            "replacement_gcs": s.replacement_gcs,
            "exchanges": s.exchanges,
            "circular_shifts": s.circular_shifts,
            "valid_page_copies": s.copies,
            "longest_gc_step_us": s.max_step_ns as f64 / 1000.0,
        })
    }

    fn panels(&self, _flash: &Flash) -> Vec<Panel> {
        let ppb = self.ppb;
        let more = first_rows(self.lbs.len(), "logical blocks");
        let fill = |lb: &LogicalBlock, i: usize| BlockFill { pbn: Some(lb.blocks[i]), used: lb.next[i], of: ppb };
        let groups = self
            .lbs
            .iter()
            .enumerate()
            .take(PANEL_ROWS)
            .map(|(l, lb)| BlockGroup {
                lbn: l as u32,
                primary: fill(lb, PRIMARY),
                replacement: fill(lb, REPLACEMENT),
                buffer: fill(lb, BUFFER),
                gc: lb.gc.as_ref().map(|g| GroupGc {
                    kind: match g.kind {
                        GcKind::Primary => GroupGcKind::Primary,
                        GcKind::PrimaryAndBuffer => GroupGcKind::PrimaryAndBuffer,
                        GcKind::Replacement => GroupGcKind::Replacement,
                    },
                    step: g.step,
                    of: g.bound,
                }),
            })
            .collect();
        let rows = (0..self.lbs.len() as u32)
            .take(PANEL_ROWS)
            .map(|l| SubTableRow { lbn: l, at: self.sub_indices(l).iter().map(|&q| PageAt::of(q, ppb)).collect() })
            .collect();
        let sub_tables = (0..self.p.n_sub)
            .map(|g| {
                let first = g * self.p.alpha;
                OffsetRange { first, last: (first + self.p.alpha).min(ppb) - 1 }
            })
            .collect();
        vec![
            Panel::new(
                format!("Block map (RAM): primary / replacement / buffer, pages used{more}"),
                PanelData::BlockGroups { groups },
            ),
            Panel::new(
                format!(
                    "Sub-table indices (RAM): block:page holding each sub-table in its OOB (α = {}, N = {}){more}",
                    self.p.alpha, self.p.n_sub
                ),
                PanelData::SubTableIndex { sub_tables, rows },
            ),
        ]
    }
}
