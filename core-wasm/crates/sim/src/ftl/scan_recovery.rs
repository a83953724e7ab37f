//! The spare-area scan every recovery that scans reads the chip with (`scan`: page
//! mapping, NFTL, GFTL, RFTL, KRAFT/KAST, LTFTL, and BAST and FAST through `scan_all`;
//! docs/architecture.md, "Schemes"), and what BAST's and FAST's recovery read from it.
//!
//! Recovery of BAST, FAST and O-FAST from the chip alone, by the spare-area scan the
//! papers attribute to them (FastCheck 2.1 and 2.2: "LPNs in the spare area of each
//! page ... BAST recovers the address-mapping information by reading all the metadata
//! stored in the pages"; the original FAST "can be reconstructed by reading logical page
//! numbers from all the pages of log blocks"). docs/schemes/fastcheck.md explains the
//! choices; in short:
//!
//! * every program writes the LPN, a sequence number (a global program clock) and a tag
//!   (the role it was written in; a LAST flag on the final program of a merge) in the
//!   spare area. The block map is rebuilt from the spare areas of the data blocks (the
//!   brief's "simpler faithful option": these schemes have no map blocks here).
//! * a merge destination without its LAST page is an interrupted merge whose sources are
//!   all intact (old blocks are erased only after the last copy): recovery erases it
//!   (undo). A partial merge into the SW log block cannot be undone: recovery finishes it
//!   (redo). A block the cut left with a torn page that must stay in use (a data block cut
//!   during an in-place write, the SW log block cut during an append, a partial merge cut
//!   mid-copy) is merged into a free block during recovery.
//! * a log page is still valid (not −1) iff it is newer than its logical block's data
//!   block: its sequence number exceeds the data block's birth (the sequence number of its
//!   first program) — FastCheck's dbMSN ≤ lbMSN test (equation 1) with the program clock
//!   as the timestamp.
//!
//! Every operation of recovery has `Cause::Recovery`. Recovery only erases blocks whose
//! contents exist elsewhere (or are garbage) and only programs into erased pages, so a cut
//! inside it leaves a chip the next recovery handles the same way (idempotent, 5.3).

// The scan loops index blocks by pbn and erase/empty them in place: index loops read clearest.
#![allow(clippy::needless_range_loop)]

use crate::nand::{Cause, Flash, FlashError, FlashResult, Lpn, Page, PageKind, Pbn, Ppn, NONE};

/// The spare-area tag bits every block-mapped scheme's recovery reads (BAST's and FAST's
/// tags, `bast::tag` and `fast::tag`, use these values).
pub(crate) mod tag {
    /// The role of the program (scheme-defined values below 16).
    pub const ROLE: u8 = 0x0f;
    /// The last program of a merge: the destination is complete.
    pub const LAST: u8 = 0x10;
    /// On the last page of a merge that retires FAST's SW log block.
    pub const RETIRE_SW: u8 = 0x20;
}

/// What one block's spare areas say.
#[derive(Clone)]
pub(crate) struct Blk {
    pub pbn: Pbn,
    pub pages: Vec<Page>,
    /// Sequence number of its first program (lowest readable seq), u32::MAX if none.
    pub birth: u32,
    /// Sequence number of its newest readable program.
    pub newest: u32,
    /// Role bits of that first program.
    pub role: u8,
    /// Logical block of that first program.
    pub lbn: u32,
    pub torn: bool,
    pub programmed: bool,
    pub last: bool,
    pub retire: bool,
    pub has_merge: bool,
}

impl Blk {
    pub fn new(pbn: Pbn, pages: Vec<Page>, ppb: u32, merge_role: u8) -> Blk {
        let mut b = Blk {
            pbn,
            birth: u32::MAX,
            newest: 0,
            role: 0,
            lbn: NONE,
            torn: false,
            programmed: false,
            last: false,
            retire: false,
            has_merge: false,
            pages: Vec::new(),
        };
        for p in &pages {
            match p.kind {
                PageKind::Erased => {}
                PageKind::Data => {
                    b.programmed = true;
                    b.newest = b.newest.max(p.seq);
                    if p.seq < b.birth {
                        b.birth = p.seq;
                        b.role = p.tag & tag::ROLE;
                        b.lbn = p.lpn / ppb;
                    }
                    b.last |= p.tag & tag::LAST != 0;
                    b.retire |= p.tag & tag::RETIRE_SW != 0;
                    b.has_merge |= p.tag & tag::ROLE == merge_role;
                }
                _ => {
                    b.programmed = true;
                    b.torn = true;
                }
            }
        }
        b.pages = pages;
        b
    }
    pub fn readable(&self) -> bool {
        self.birth != u32::MAX
    }
    pub fn empty(&mut self) {
        self.pages.fill(Page::ERASED);
        self.birth = u32::MAX;
        self.programmed = false;
        self.torn = false;
    }
    /// Index after the last programmed page (the fill of a block written in order).
    pub fn fill(&self) -> u32 {
        self.pages.iter().rposition(|p| !p.is_erased()).map(|i| i as u32 + 1).unwrap_or(0)
    }
}

/// How far the scan reads a block.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(crate) enum Extent {
    /// Every page: torn pages may sit anywhere before erased ones, and the scheme wants
    /// to know them all (BAST, FAST, NFTL, GFTL, RFTL, KRAFT, LTFTL).
    Whole,
    /// Up to its first erased page, which is read too: the scheme programs a block's pages
    /// in order, so the rest are erased (the page-mapping FTL).
    ToFirstErased,
}

/// The spare-area scan of every recovery that scans: reads the spare area of each page of
/// `blocks`, in that order, from offset 0 up, as `Cause::Recovery`, and hands each page to
/// `visit(pbn, offset, page)`. A cut inside stops it at the read the cut falls on.
pub(crate) fn scan(
    flash: &mut Flash,
    blocks: impl IntoIterator<Item = Pbn>,
    extent: Extent,
    mut visit: impl FnMut(Pbn, u32, &Page),
) -> FlashResult<()> {
    let ppb = flash.ppb();
    for pbn in blocks {
        for off in 0..ppb {
            let p = flash.read_oob(pbn * ppb + off, Cause::Recovery)?;
            visit(pbn, off, &p);
            if extent == Extent::ToFirstErased && p.is_erased() {
                break;
            }
        }
    }
    Ok(())
}

/// `scan` of every page of every block, kept per block (BAST's and FAST's `Blk`s).
pub(crate) fn scan_all(flash: &mut Flash) -> FlashResult<Vec<Vec<Page>>> {
    let (blocks, ppb) = (flash.blocks(), flash.ppb());
    let mut out: Vec<Vec<Page>> = (0..blocks).map(|_| Vec::with_capacity(ppb as usize)).collect();
    scan(flash, 0..blocks, Extent::Whole, |pbn, _, p| out[pbn as usize].push(*p))?;
    Ok(out)
}

/// The block a recovery merge copies into (BAST's and FAST's): the lowest pbn the scan found
/// unprogrammed, still erased (recovery may have programmed it since), not in `skip`, and
/// free by the scheme's block table (`free`).
pub(crate) fn erased_free_block(
    flash: &Flash,
    blks: &[Blk],
    skip: &[Pbn],
    free: impl Fn(Pbn) -> bool,
) -> FlashResult<Pbn> {
    (0..blks.len() as Pbn)
        .find(|&p| {
            !skip.contains(&p)
                && !blks[p as usize].programmed
                && free(p)
                && flash.block_pages(p).iter().all(|x| x.is_erased())
        })
        .ok_or_else(|| FlashError::Violation("recovery found no free block for a merge".into()))
}

pub(crate) fn max_seq(blks: &[Blk]) -> u32 {
    blks.iter().flat_map(|b| b.pages.iter()).filter(|p| !p.is_erased()).map(|p| p.seq).max().unwrap_or(0)
}

/// Newest readable copy of `lsn` among the given blocks' pages: (seq, ppn).
pub(crate) fn newest(blks: &[Blk], among: &[usize], lsn: Lpn, ppb: u32) -> Option<(u32, Ppn)> {
    let mut best: Option<(u32, Ppn)> = None;
    for &i in among {
        let b = &blks[i];
        for (off, p) in b.pages.iter().enumerate() {
            if p.kind == PageKind::Data && p.lpn == lsn && best.is_none_or(|(s, _)| p.seq > s) {
                best = Some((p.seq, b.pbn * ppb + off as u32));
            }
        }
    }
    best
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::nand::{Chip, OpKind};

    /// A chip of 4 blocks x 4 pages: block 1 holds pages 0 and 1, block 3 page 0.
    fn chip() -> Flash {
        let mut c = Chip::preset("classroom").unwrap();
        c.geometry.blocks = 4;
        c.geometry.pages_per_block = 4;
        let mut f = Flash::new(c);
        for (i, ppn) in [4, 5, 12].into_iter().enumerate() {
            f.program(ppn, Page::stamped(i as u32, 1, i as u32 + 1, 0), Cause::Host).unwrap();
        }
        f
    }

    #[test]
    fn whole_reads_every_page_of_the_blocks_in_order_and_to_first_erased_stops_there() {
        let mut f = chip();
        let mut seen = Vec::new();
        scan(&mut f, [3, 1], Extent::Whole, |pbn, off, p| seen.push((pbn, off, p.is_erased()))).unwrap();
        let want: Vec<_> =
            [3, 1].into_iter().flat_map(|b| (0..4).map(move |o| (b, o, !(o == 0 || (b == 1 && o == 1))))).collect();
        assert_eq!(seen, want);
        assert_eq!(f.count(OpKind::ReadOob, Cause::Recovery), 8);

        let mut f = chip();
        seen.clear();
        scan(&mut f, 0..4, Extent::ToFirstErased, |pbn, off, p| seen.push((pbn, off, p.is_erased()))).unwrap();
        // Each block up to its first erased page, that page read too: 1 + 3 + 1 + 2.
        assert_eq!(
            seen,
            [(0, 0, true), (1, 0, false), (1, 1, false), (1, 2, true), (2, 0, true), (3, 0, false), (3, 1, true)]
        );
        assert_eq!(f.count(OpKind::ReadOob, Cause::Recovery), 7);
        assert_eq!(f.count(OpKind::ReadOob, Cause::Host), 0);

        let mut f = chip();
        let all = scan_all(&mut f).unwrap();
        assert_eq!(all.len(), 4);
        assert!(all.iter().all(|b| b.len() == 4));
        assert_eq!((all[1][1].lpn, all[3][0].seq), (1, 3));
    }
}
