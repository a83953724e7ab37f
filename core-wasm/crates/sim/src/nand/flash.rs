use serde::Serialize;
use std::collections::BTreeMap;

mod copy;

use super::{BlockSplit, Chip, Geometry, Timing};

pub type Lpn = u32;
pub type Pbn = u32;
pub type Ppn = u32;

/// "No page / no LPN" in packed arrays.
pub const NONE: u32 = u32::MAX;

/// What a physical page holds.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[repr(u8)]
pub enum PageKind {
    Erased = 0,
    /// Host data: `lpn` and `version` (the oracle's write counter) are the data area.
    Data = 1,
    /// A metadata page (map page, checkpoint, intent-log page, map directory); its
    /// payload, if any, is in `Flash::payload`.
    Meta = 2,
    /// A program interrupted by a power cut: the ECC/checksum fails, so the page must be
    /// detected as unreadable rather than read as valid data.
    Torn = 3,
}

/// Contents of one page: the data area (`lpn`, `version`) and the spare area (`lpn` is
/// written there too, as the papers' schemes do, plus `seq`: a sequence number, MSN or
/// global time depending on the scheme, and `tag`, a scheme-defined spare byte).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Page {
    pub lpn: Lpn,
    pub version: u32,
    pub seq: u32,
    pub kind: PageKind,
    pub tag: u8,
}

impl Page {
    pub const ERASED: Page = Page { lpn: NONE, version: 0, seq: 0, kind: PageKind::Erased, tag: 0 };
    pub fn data(lpn: Lpn, version: u32) -> Page {
        Page { lpn, version, seq: 0, kind: PageKind::Data, tag: 0 }
    }
    pub fn meta(tag: u8, seq: u32) -> Page {
        Page { lpn: NONE, version: 0, seq, kind: PageKind::Meta, tag }
    }
    /// Host data with what the recovering schemes write in the spare area: a sequence
    /// number (newest copy wins) and a scheme-defined tag (the role it was written in).
    pub fn stamped(lpn: Lpn, version: u32, seq: u32, tag: u8) -> Page {
        Page { lpn, version, seq, kind: PageKind::Data, tag }
    }
    pub fn with_seq(mut self, seq: u32) -> Page {
        self.seq = seq;
        self
    }
    pub fn is_erased(&self) -> bool {
        self.kind == PageKind::Erased
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
#[repr(u8)]
pub enum OpKind {
    Read = 0,
    ReadOob = 1,
    Program = 2,
    Erase = 3,
}

/// Why an operation happened. Metrics are broken down by cause; the UI narrates by it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
#[repr(u8)]
pub enum Cause {
    Host = 0,
    /// Garbage collection of a page-mapping or real-time FTL.
    Gc = 1,
    /// A switch merge (a log block becomes the data block).
    Switch = 2,
    /// A partial merge (copy the missing pages into the log block, then switch).
    PartialMerge = 3,
    /// A full merge (copy the latest of every page into a new block).
    FullMerge = 4,
    /// Copies that keep a log block serial (KRAFT's fill).
    Fill = 5,
    /// Mapping metadata: map pages, map blocks, map directory.
    Map = 6,
    /// Checkpoints and intent logs.
    Log = 7,
    Recovery = 8,
    WearLevel = 9,
}

pub const CAUSES: [Cause; 10] = [
    Cause::Host,
    Cause::Gc,
    Cause::Switch,
    Cause::PartialMerge,
    Cause::FullMerge,
    Cause::Fill,
    Cause::Map,
    Cause::Log,
    Cause::Recovery,
    Cause::WearLevel,
];

impl Cause {
    pub fn name(self) -> &'static str {
        match self {
            Cause::Host => "host",
            Cause::Gc => "gc",
            Cause::Switch => "switch",
            Cause::PartialMerge => "partial_merge",
            Cause::FullMerge => "full_merge",
            Cause::Fill => "fill",
            Cause::Map => "map",
            Cause::Log => "log",
            Cause::Recovery => "recovery",
            Cause::WearLevel => "wear_level",
        }
    }
}

/// One entry of the event stream: a flash operation, or an FTL-level note
/// (merge begin, victim chosen, role change, GC step ...) for narration.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum Event {
    /// `content` and `version` are the page's as the operation read or programmed it
    /// (what the device view derives page states from, src/moment.rs); erases carry
    /// `PageKind::Erased` and 0.
    Op {
        kind: OpKind,
        ppn: Ppn,
        pbn: Pbn,
        lpn: Lpn,
        cause: Cause,
        content: PageKind,
        version: u32,
    },
    Note {
        tag: &'static str,
        text: String,
    },
}

/// Errors a flash operation can return. The FTL unwinds with `?`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum FlashError {
    /// The power-loss budget ran out: this and every later operation fail.
    PowerLoss,
    /// The FTL broke a NAND rule (a bug in the scheme, never a user error).
    Violation(String),
}

impl std::fmt::Display for FlashError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            FlashError::PowerLoss => write!(f, "power loss"),
            FlashError::Violation(m) => write!(f, "NAND rule violated: {m}"),
        }
    }
}

pub type FlashResult<T> = Result<T, FlashError>;

/// Merge and GC counts kept beside the operation counts so that one clone of the
/// chip carries every metric (keyframes restore them together).
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct FtlCounters {
    pub switch_merges: u64,
    pub partial_merges: u64,
    /// Full merges counted per logical block merged.
    pub full_merges: u64,
    /// Full merges counted per victim log block (one victim may need several).
    pub full_merge_victims: u64,
    pub gc_runs: u64,
    /// Log-block replacements and the summed utilisation of the replaced blocks
    /// (valid pages / pages; FAST paper Figure 4).
    pub log_replacements: u64,
    pub log_utilisation_sum: f64,
}

/// One count a scheme announces with `Flash::count_at_next_op`: it is added when the work
/// it counts does its first flash operation (docs/cli.md, "When a merge or a GC run counts").
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Count {
    /// A garbage-collection run (`gc_runs`).
    GcRun,
    /// A switch merge (`switch_merges`).
    SwitchMerge,
    /// A partial merge (`partial_merges`).
    PartialMerge,
    /// One logical block fully merged (`full_merges`).
    FullMerge,
    /// A victim log block whose merges are full merges (`full_merge_victims`).
    FullMergeVictim,
    /// A log block replaced, with its utilisation (valid pages / pages): `log_replacements`
    /// and `log_utilisation_sum`.
    LogReplacement(f64),
}

impl Count {
    /// Whether an operation with this cause does the counted work: a GC run's operations
    /// have cause `Gc`, a merge's its kind of merge; a log-block replacement is done by
    /// whichever merge (or erase) retires the log block.
    #[inline]
    pub fn done_by(self, cause: Cause) -> bool {
        match self {
            Count::GcRun => cause == Cause::Gc,
            Count::SwitchMerge => cause == Cause::Switch,
            Count::PartialMerge => cause == Cause::PartialMerge,
            Count::FullMerge | Count::FullMergeVictim => cause == Cause::FullMerge,
            Count::LogReplacement(_) => matches!(cause, Cause::Switch | Cause::PartialMerge | Cause::FullMerge),
        }
    }
}

/// The cleanings a request's work is named by, in the order the narration names the first
/// one counted (`Flash::cleaned`).
pub const CLEANINGS: [&str; 4] = ["full merge", "partial merge", "switch merge", "garbage collection"];

impl Count {
    /// Its bit in `Flash::cleaned` (an index of `CLEANINGS`; none for the other counts).
    fn cleaning_bit(self) -> u8 {
        match self {
            Count::FullMerge => 1,
            Count::PartialMerge => 2,
            Count::SwitchMerge => 4,
            Count::GcRun => 8,
            Count::FullMergeVictim | Count::LogReplacement(_) => 0,
        }
    }
}

impl FtlCounters {
    pub fn add(&mut self, c: Count) {
        match c {
            Count::GcRun => self.gc_runs += 1,
            Count::SwitchMerge => self.switch_merges += 1,
            Count::PartialMerge => self.partial_merges += 1,
            Count::FullMerge => self.full_merges += 1,
            Count::FullMergeVictim => self.full_merge_victims += 1,
            Count::LogReplacement(u) => {
                self.log_replacements += 1;
                self.log_utilisation_sum += u;
            }
        }
    }
}

/// What an interrupted program leaves behind (crash sweeps; docs/schemes/recovery.md).
/// The default is the SLC-era model: the page under program is torn (detectably unreadable).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize)]
pub struct TornModel {
    /// MLC paired pages: an upper page (odd offset) shares its cells with the lower page
    /// just before it; cutting its program also tears that lower page, written earlier.
    pub paired_pages: bool,
    /// The program was cut so early that the page still reads as erased.
    pub reads_erased: bool,
}

/// The chip. Owns every page, erase counts, counters and the event stream.
#[derive(Clone)]
pub struct Flash {
    pub chip: Chip,
    pages: Vec<Page>,
    /// Pages programmed so far in each block (for the in-order programming rule).
    write_ptr: Vec<u32>,
    erase_counts: Vec<u32>,
    /// Metadata payloads of `Meta` pages (map pages, checkpoints ...), by ppn.
    payloads: BTreeMap<Ppn, Vec<u32>>,
    /// counts[kind][cause]
    counts: [[u64; 10]; 4],
    pub elapsed_ns: u64,
    /// `elapsed_ns` split by cause, so a request's own time and the GC/merge work it
    /// carried can be told apart (response-time timeline).
    time_by_cause: [u64; 10],
    pub counters: FtlCounters,
    /// The cleanings counted since the request began (bit i: `CLEANINGS[i]`; `State::exec`
    /// clears it): what names the GC / merge work a request carried, without reading the
    /// four counters before every request (issue 37).
    pub cleaned: u8,
    /// Counts announced by `count_at_next_op`, waiting for their work's first operation.
    pending: Vec<Count>,
    /// Operations left before power fails; None = unlimited.
    power_budget: Option<u64>,
    power_lost: bool,
    /// What a cut program leaves (see `TornModel`).
    pub torn_model: TornModel,
    /// The budget is a pause (`pause_after`), not a cut: the failing operation tears nothing.
    pause: bool,
    recording: bool,
    events: Vec<Event>,
    /// The chip's `Geometry::block_split`, worked out once.
    blocks_of: BlockSplit,
    /// Nothing to do besides the operation itself: not recording, no power budget, no
    /// count waiting (`replain`). A read or program then takes the inline path
    /// (`read`, `program`); otherwise the out-of-line one that checks every case (issue 37:
    /// one test instead of four in every operation of the loop).
    plain: bool,
}

impl Flash {
    pub fn new(chip: Chip) -> Flash {
        let g = chip.geometry;
        Flash {
            pages: vec![Page::ERASED; g.pages() as usize],
            write_ptr: vec![0; g.blocks as usize],
            erase_counts: vec![0; g.blocks as usize],
            payloads: BTreeMap::new(),
            counts: [[0; 10]; 4],
            elapsed_ns: 0,
            time_by_cause: [0; 10],
            counters: FtlCounters::default(),
            cleaned: 0,
            pending: Vec::new(),
            power_budget: None,
            power_lost: false,
            torn_model: TornModel::default(),
            pause: false,
            recording: false,
            events: Vec::new(),
            plain: true,
            blocks_of: g.block_split(),
            chip,
        }
    }

    /// Sets `plain` again after a change of what it stands for.
    #[inline]
    fn replain(&mut self) {
        self.plain = !self.recording && !self.power_lost && self.power_budget.is_none() && self.pending.is_empty();
    }

    /// Zeroes the operation counters, flash time and merge / GC counters, keeping the
    /// chip's contents and its per-block erase counts (wear is physical): what
    /// preconditioning does where measuring starts (src/precondition.rs).
    pub fn reset_counters(&mut self) {
        self.counts = [[0; 10]; 4];
        self.elapsed_ns = 0;
        self.time_by_cause = [0; 10];
        self.counters = FtlCounters::default();
        self.cleaned = 0;
        self.pending.clear();
        self.replain();
    }

    // ---- merge and GC counts ----------------------------------------------------

    /// Announces a count for work about to start (a merge, a GC run, a log-block
    /// replacement). It is added to `counters` at the first operation from here on that does
    /// that work (`Count::done_by` its cause: a host program or a map write in between does
    /// not take it), as that operation passes the power budget; a power cut or a pause before
    /// it drops it, so a moment before the work's first operation shows no count. A count
    /// still waiting when the request completes is added then (`flush_counts`: work that
    /// needed no operation). The rule, for every scheme: a merge, a GC run or a log-block
    /// replacement counts at its first flash operation (docs/cli.md).
    pub fn count_at_next_op(&mut self, c: Count) {
        self.pending.push(c);
        self.plain = false;
    }

    /// Adds every count still waiting (a request completed: State::exec).
    #[inline]
    pub fn flush_counts(&mut self) {
        if !self.pending.is_empty() {
            self.flush_pending();
        }
    }
    #[inline(never)]
    fn flush_pending(&mut self) {
        for c in std::mem::take(&mut self.pending) {
            self.add_count(c);
        }
        self.replain();
    }

    fn add_count(&mut self, c: Count) {
        self.counters.add(c);
        self.cleaned |= c.cleaning_bit();
    }

    /// What the GC / merge work counted since `cleaned` was cleared is named: the first of
    /// `CLEANINGS` counted, or "GC work" (work that counted none).
    pub fn cleaning_name(&self) -> &'static str {
        CLEANINGS.get(self.cleaned.trailing_zeros() as usize).copied().unwrap_or("GC work")
    }

    /// Counts waiting for their work's first operation.
    pub fn pending_counts(&self) -> &[Count] {
        &self.pending
    }

    /// An operation with `cause` passed the power budget: the waiting counts it does are added.
    #[cold]
    #[inline(never)]
    fn count_pending(&mut self, cause: Cause) {
        let mut i = 0;
        while i < self.pending.len() {
            let c = self.pending[i];
            if c.done_by(cause) {
                self.add_count(c);
                self.pending.remove(i);
            } else {
                i += 1;
            }
        }
        self.replain();
    }

    pub fn geometry(&self) -> &Geometry {
        &self.chip.geometry
    }
    pub fn timing(&self) -> &Timing {
        &self.chip.timing
    }
    pub fn ppb(&self) -> u32 {
        self.chip.geometry.pages_per_block
    }
    pub fn blocks(&self) -> u32 {
        self.chip.geometry.blocks
    }

    // ---- power ----------------------------------------------------------------

    /// After `n` more operations every operation fails with `PowerLoss`.
    pub fn set_power_budget(&mut self, n: Option<u64>) {
        self.power_budget = n;
        self.replain();
    }
    pub fn power_lost(&self) -> bool {
        self.power_lost
    }
    /// Power comes back: the chip keeps its contents, the budget is cleared.
    pub fn power_on(&mut self) {
        self.power_lost = false;
        self.power_budget = None;
        self.pause = false;
        // Counts announced for work the cut (or pause) stopped before it began.
        self.pending.clear();
        self.replain();
    }
    /// A pause after `n` more operations (the app's op-exact view, src/stepper.rs): the
    /// FTL unwinds at operation `n + 1` as on power loss, but that operation leaves its
    /// page or block as it was (nothing torn): the chip and RAM as they are between
    /// operations `n` and `n + 1`. `power_on` ends it.
    pub fn pause_after(&mut self, n: u64) {
        self.power_budget = Some(n);
        self.pause = true;
        self.plain = false;
    }

    /// Charges one operation (done for `cause`) against the power budget; once it passes,
    /// the counts waiting for it are added (`count_at_next_op`). One that fails drops them.
    /// (`plain`: nothing to charge, nothing waiting.)
    #[inline]
    fn spend(&mut self, cause: Cause) -> FlashResult<()> {
        if self.plain {
            return Ok(());
        }
        if self.power_lost {
            self.pending.clear();
            return Err(FlashError::PowerLoss);
        }
        if let Some(b) = self.power_budget {
            if b == 0 {
                self.power_lost = true;
                self.pending.clear();
                self.replain();
                return Err(FlashError::PowerLoss);
            }
            self.power_budget = Some(b - 1);
        }
        if !self.pending.is_empty() {
            self.count_pending(cause);
        }
        Ok(())
    }

    // ---- event stream ---------------------------------------------------------

    /// Per-operation events are kept only when someone watches (stepping in the UI);
    /// full-speed runs count metrics only and regenerate events by replay.
    pub fn set_recording(&mut self, on: bool) {
        self.recording = on;
        if !on {
            self.events.clear();
        }
        self.replain();
    }
    pub fn recording(&self) -> bool {
        self.recording
    }
    pub fn take_events(&mut self) -> Vec<Event> {
        std::mem::take(&mut self.events)
    }
    /// An FTL-level note for narration. The text is built only when recording.
    #[inline]
    pub fn note(&mut self, tag: &'static str, text: impl FnOnce() -> String) {
        if self.recording {
            self.events.push(Event::Note { tag, text: text() });
        }
    }

    /// The time and count of an operation, without the event (`plain`: not recording).
    #[inline(always)]
    fn account_plain(&mut self, kind: OpKind, cause: Cause) {
        let t = &self.chip.timing;
        let ns = match kind {
            OpKind::Read => t.read_ns,
            OpKind::ReadOob => t.read_oob_ns,
            OpKind::Program => t.program_ns,
            OpKind::Erase => t.erase_ns,
        };
        self.elapsed_ns += ns;
        self.time_by_cause[cause as usize] += ns;
        self.counts[kind as usize][cause as usize] += 1;
    }

    #[inline]
    fn account(&mut self, kind: OpKind, ppn: Ppn, lpn: Lpn, cause: Cause) {
        self.account_plain(kind, cause);
        if self.recording {
            let pbn = self.split(ppn).0;
            let (content, version) = match kind {
                OpKind::Erase => (PageKind::Erased, 0),
                _ => (self.pages[ppn as usize].kind, self.pages[ppn as usize].version),
            };
            self.events.push(Event::Op { kind, ppn, pbn, lpn, cause, content, version });
        }
    }

    // ---- operations -----------------------------------------------------------

    /// Reads a page (data and spare area). Inline for the common case (`plain`, the page
    /// on the chip): the schemes' hot paths read without a call (issue 37; `#[inline]`
    /// alone left it a call).
    #[inline(always)]
    pub fn read(&mut self, ppn: Ppn, cause: Cause) -> FlashResult<Page> {
        self.read_as(OpKind::Read, ppn, cause)
    }

    /// Reads only the spare (OOB) area: the caller must use only `lpn`, `seq`, `tag`, `kind`.
    /// Inline for the common case, as `read` (NFTL's and RFTL's hot path: one a host write;
    /// a call in wasm was a prologue, a stack check and the result through memory).
    #[inline(always)]
    pub fn read_oob(&mut self, ppn: Ppn, cause: Cause) -> FlashResult<Page> {
        self.read_as(OpKind::ReadOob, ppn, cause)
    }

    /// An OOB read whose content the caller does not use (RFTL's sub-tables are in the
    /// scheme's own `oob`; a merge's scan that only charges the reads): counted, timed and
    /// checked as `read_oob`, without loading the page. In wasm, `read_oob(..)?` with the
    /// page unused still loaded it and copied it to the stack, a cache miss a host write
    /// in RFTL (22 % of its wasm samples); natively LLVM dropped that load (issue 37).
    #[inline(always)]
    pub fn read_oob_unused(&mut self, ppn: Ppn, cause: Cause) -> FlashResult<()> {
        if self.plain && (ppn as usize) < self.pages.len() {
            self.account_plain(OpKind::ReadOob, cause);
            Ok(())
        } else {
            self.read_checked(OpKind::ReadOob, ppn, cause).map(drop)
        }
    }

    /// `read` and `read_oob`: the plain case inline, the rest a call.
    #[inline(always)]
    fn read_as(&mut self, kind: OpKind, ppn: Ppn, cause: Cause) -> FlashResult<Page> {
        match self.pages.get(ppn as usize) {
            Some(&p) if self.plain => {
                self.account_plain(kind, cause);
                Ok(p)
            }
            _ => self.read_checked(kind, ppn, cause),
        }
    }

    /// A read in every case: out of range, a power budget, counts waiting, recording.
    #[inline(never)]
    fn read_checked(&mut self, kind: OpKind, ppn: Ppn, cause: Cause) -> FlashResult<Page> {
        self.check_ppn(ppn)?;
        self.spend(cause)?;
        let p = self.pages[ppn as usize];
        self.account(kind, ppn, p.lpn, cause);
        Ok(p)
    }

    /// Block and offset of a page (a shift and a mask, no division: `BlockSplit`).
    #[inline]
    fn split(&self, ppn: Ppn) -> (Pbn, u32) {
        (self.blocks_of.pbn(ppn), self.blocks_of.offset(ppn))
    }

    /// Programs an erased page. Inline for the common case (`plain`, an erased page on the
    /// chip, in order, a page that is not the erased record): the schemes' hot paths
    /// program without a call (issue 37); every other case, and every broken rule, takes
    /// `program_checked` (`#[inline]` alone left it a call).
    #[inline(always)]
    pub fn program(&mut self, ppn: Ppn, page: Page, cause: Cause) -> FlashResult<()> {
        let (pbn, off) = self.split(ppn);
        let in_order = !self.chip.in_order_programming || self.write_ptr.get(pbn as usize).is_some_and(|&w| off >= w);
        match self.pages.get_mut(ppn as usize) {
            Some(p) if self.plain && p.is_erased() && page.kind != PageKind::Erased && in_order => {
                // Field by field, not `*p = page`: that copy reloaded the page as 16 bytes from
                // the stack where it was built by narrower stores (its padding never written),
                // a store-forwarding stall (issue 37).
                let Page { lpn, version, seq, kind, tag } = page;
                (p.lpn, p.version, p.seq, p.kind, p.tag) = (lpn, version, seq, kind, tag);
                // In range: `pages` holds `write_ptr.len()` blocks of pages.
                let wp = &mut self.write_ptr[pbn as usize];
                *wp = (*wp).max(off + 1);
                self.account_plain(OpKind::Program, cause);
                Ok(())
            }
            _ => self.program_checked(ppn, page, cause),
        }
    }

    /// `program` in every case: a broken rule, a power budget, counts waiting, recording.
    #[inline(never)]
    fn program_checked(&mut self, ppn: Ppn, page: Page, cause: Cause) -> FlashResult<()> {
        self.check_ppn(ppn)?;
        let (pbn, off) = self.split(ppn);
        if !self.pages[ppn as usize].is_erased() || page.kind == PageKind::Erased {
            return Err(self.program_violation(pbn, off, page));
        }
        if self.chip.in_order_programming && off < self.write_ptr[pbn as usize] {
            return Err(self.program_violation(pbn, off, page));
        }
        if let Err(e) = self.spend(cause) {
            // The page under program when power fails is torn (a pause tears nothing).
            if !self.pause {
                self.tear(ppn, page);
            }
            return Err(e);
        }
        self.pages[ppn as usize] = page;
        let wp = &mut self.write_ptr[pbn as usize];
        *wp = (*wp).max(off + 1);
        self.account(OpKind::Program, ppn, page.lpn, cause);
        Ok(())
    }

    /// A program cut by the power loss: the page is torn (detectably unreadable), or still
    /// reads as erased (cut very early); with MLC paired pages an upper page's cut also
    /// tears its lower page, programmed earlier in the block.
    fn tear(&mut self, ppn: Ppn, page: Page) {
        if !self.torn_model.reads_erased {
            self.pages[ppn as usize] = Page { kind: PageKind::Torn, ..page };
        }
        let off = self.split(ppn).1;
        if self.torn_model.paired_pages && off % 2 == 1 {
            let lower = &mut self.pages[ppn as usize - 1];
            if !lower.is_erased() {
                lower.kind = PageKind::Torn;
            }
        }
    }

    /// The NAND rule a program broke (kept out of the hot path).
    #[cold]
    #[inline(never)]
    fn program_violation(&self, pbn: Pbn, off: u32, page: Page) -> FlashError {
        let ppn = pbn * self.ppb() + off;
        FlashError::Violation(if !self.pages[ppn as usize].is_erased() {
            format!("program of page {off} in block {pbn}, which is not erased")
        } else if page.kind == PageKind::Erased {
            "programming an erased record".into()
        } else {
            format!(
                "out-of-order program of page {off} in block {pbn} (next in order is {})",
                self.write_ptr[pbn as usize]
            )
        })
    }

    /// Programs a metadata page with a payload (map page, checkpoint, log page ...).
    pub fn program_meta(&mut self, ppn: Ppn, page: Page, payload: Vec<u32>, cause: Cause) -> FlashResult<()> {
        self.program(ppn, page, cause)?;
        self.payloads.insert(ppn, payload);
        Ok(())
    }

    /// Forgets the payload of a metadata page nobody will read again (a superseded map
    /// page): simulation memory only, no flash operation; `payload(ppn)` then returns None.
    pub fn drop_payload(&mut self, ppn: Ppn) {
        self.payloads.remove(&ppn);
    }
    /// As `drop_payload`, handing the payload back (its buffer can be reused).
    pub fn take_payload(&mut self, ppn: Ppn) -> Option<Vec<u32>> {
        self.payloads.remove(&ppn)
    }

    /// Copies a page's contents to an erased page (one read + one program),
    /// returning what was copied.
    pub fn copy(&mut self, src: Ppn, dst: Ppn, cause: Cause) -> FlashResult<Page> {
        let p = self.read(src, cause)?;
        self.program(dst, p, cause)?;
        Ok(p)
    }

    /// Erases a whole block.
    pub fn erase(&mut self, pbn: Pbn, cause: Cause) -> FlashResult<()> {
        if pbn >= self.blocks() {
            return Err(FlashError::Violation(format!("erase of block {pbn} beyond the chip")));
        }
        let ppb = self.ppb();
        let range = (pbn * ppb) as usize..((pbn + 1) * ppb) as usize;
        if let Err(e) = self.spend(cause) {
            // An interrupted erase leaves the block in an unknown state: every
            // programmed page is treated as unreadable.
            if !self.pause {
                for p in &mut self.pages[range] {
                    if !p.is_erased() {
                        p.kind = PageKind::Torn;
                    }
                }
            }
            return Err(e);
        }
        self.pages[range].fill(Page::ERASED);
        if !self.payloads.is_empty() {
            let lo = pbn * ppb;
            let keys: Vec<Ppn> = self.payloads.range(lo..lo + ppb).map(|(k, _)| *k).collect();
            for k in keys {
                self.payloads.remove(&k);
            }
        }
        self.write_ptr[pbn as usize] = 0;
        self.erase_counts[pbn as usize] += 1;
        self.account(OpKind::Erase, pbn * ppb, NONE, cause);
        Ok(())
    }

    #[inline]
    fn check_ppn(&self, ppn: Ppn) -> FlashResult<()> {
        if ppn as usize >= self.pages.len() {
            return Err(Self::beyond(ppn));
        }
        Ok(())
    }
    #[cold]
    #[inline(never)]
    fn beyond(ppn: Ppn) -> FlashError {
        FlashError::Violation(format!("page {ppn} is beyond the chip"))
    }

    // ---- inspection (free: no time, no power) -----------------------------------

    #[inline]
    pub fn peek(&self, ppn: Ppn) -> &Page {
        &self.pages[ppn as usize]
    }
    pub fn payload(&self, ppn: Ppn) -> Option<&[u32]> {
        self.payloads.get(&ppn).map(|v| v.as_slice())
    }
    pub fn pages(&self) -> &[Page] {
        &self.pages
    }
    pub fn block_pages(&self, pbn: Pbn) -> &[Page] {
        let ppb = self.ppb() as usize;
        &self.pages[pbn as usize * ppb..(pbn as usize + 1) * ppb]
    }
    pub fn erase_counts(&self) -> &[u32] {
        &self.erase_counts
    }
    pub fn erase_count(&self, pbn: Pbn) -> u32 {
        self.erase_counts[pbn as usize]
    }
    pub fn count(&self, kind: OpKind, cause: Cause) -> u64 {
        self.counts[kind as usize][cause as usize]
    }
    pub fn total(&self, kind: OpKind) -> u64 {
        self.counts[kind as usize].iter().sum()
    }
    /// Time spent in operations of one cause, in ns.
    pub fn time_ns(&self, cause: Cause) -> u64 {
        self.time_by_cause[cause as usize]
    }
    pub fn total_ops(&self) -> u64 {
        self.counts.iter().flatten().sum()
    }
}
