//! What the app shows of a stepper's moment: page states, block roles and owners, the
//! display, victims, events and the narration (read-only; stepping is in stepper.rs).

use serde::Serialize;
use ts_rs::TS;

use super::Stepper;
use crate::crash::request_words;
use crate::ftl::{PageState, Panel};
use crate::moment::Display;
use crate::nand::{Cause, Event, OpKind, PageKind, NONE};
use crate::sim::State;
use crate::trace::Request;

/// The scheme panels of the moment on screen (`Session.view()`; ftl/panel.rs).
#[derive(Clone, Debug, Serialize, TS)]
#[ts(export)]
pub struct SchemeView {
    pub panels: Vec<Panel>,
    /// False while power is off or recovery rebuilds the RAM (no panels then).
    pub powered: bool,
}

/// An event as the UI gets it.
#[derive(Serialize, TS)]
#[ts(export, rename = "SimEvent")]
pub struct EventView {
    pub kind: &'static str,
    pub pbn: Option<u32>,
    pub page: Option<u32>,
    pub lpn: Option<u32>,
    pub cause: Option<&'static str>,
    pub text: String,
}

fn plural(n: usize, one: &str, many: &str) -> String {
    format!("{n} {}", if n == 1 { one } else { many })
}

/// Causes of the cleaning work whose victims the device view marks.
fn cleaning(c: Cause) -> bool {
    matches!(c, Cause::Gc | Cause::Switch | Cause::PartialMerge | Cause::FullMerge | Cause::Fill | Cause::WearLevel)
}

impl Stepper {
    /// The state on screen: the paused state inside a request or recovery, else the
    /// simulator's (after the last completed request, or as the power cut left it).
    pub fn view(&self) -> &State {
        self.paused.as_ref().unwrap_or(&self.sim.state)
    }

    /// Whether a copy of the state before the request shown is held (`begin`: only while
    /// a request of several operations is revealed, or on a branch after a recovery).
    pub fn holds_before(&self) -> bool {
        self.before.is_some()
    }

    /// The state before the next flash operation can run, as a crash test starts from
    /// it: the state before the request in progress (with the request and the operations
    /// revealed of it), or the present between requests. None while power is off or a
    /// recovery is being revealed.
    pub fn cut_point(&self) -> Option<(&State, usize)> {
        if self.power.is_some() || self.rec.is_some() {
            return None;
        }
        if self.in_request {
            return self.before.as_ref().map(|b| (b, self.k));
        }
        Some((&self.sim.state, 0))
    }

    /// Requests completed (the one in progress excluded).
    pub fn step(&self) -> usize {
        if let Some(rec) = &self.rec {
            return rec.off.before.pos;
        }
        self.sim.pos() - usize::from(self.in_request)
    }
    /// Flash operations revealed in the request (or recovery) in progress.
    pub fn op_cursor(&self) -> usize {
        if self.in_request {
            self.k
        } else {
            0
        }
    }
    pub fn op_count(&self) -> usize {
        if self.in_request {
            self.n
        } else {
            0
        }
    }

    /// Page states at this moment (the scheme's view of the chip; while power is off or
    /// a recovery runs, the chip read through the RAM the cut lost).
    pub fn page_states(&self) -> Vec<u8> {
        self.display().states.iter().map(|&s| s as u8).collect()
    }
    /// The LPN of each data page (NONE for erased, metadata and torn pages).
    pub fn page_lpns(&self) -> Vec<u32> {
        self.view().flash.pages().iter().map(|p| if p.kind == PageKind::Data { p.lpn } else { NONE }).collect()
    }
    pub fn block_roles(&self) -> Vec<u8> {
        self.display().roles.iter().map(|&r| r as u8).collect()
    }
    pub fn block_owners(&self) -> Vec<i32> {
        self.display().first_owners()
    }
    /// Blocks serving more than one logical block (a KRAFT/KAST log block shared by up to
    /// K), with all of them.
    pub fn block_owner_sets(&self) -> Vec<(u32, Vec<u32>)> {
        let d = self.display();
        d.owners.iter().enumerate().filter(|(_, o)| o.len() > 1).map(|(b, o)| (b as u32, o.clone())).collect()
    }

    /// Page states, roles and owners of the moment shown (src/moment.rs): the scheme's
    /// own view between requests; inside a request or recovery, the view before it with
    /// the operations revealed applied as a chip applies them; while power is off, the
    /// cut moment's.
    pub fn display(&self) -> &Display {
        self.shown.get_or_init(|| {
            if let Some(off) = &self.power {
                return off.display.clone();
            }
            if self.in_request {
                let ops = &self.events[..self.cursor];
                if let Some(rec) = &self.rec {
                    return Display::during(&rec.off.display, &rec.cut, self.view(), ops, false);
                }
                if let Some(before) = &self.before {
                    let base = self.base.get_or_init(|| Display::of(before));
                    return Display::during(base, before, self.view(), ops, true);
                }
            }
            Display::of(self.view())
        })
    }
    pub fn erase_counts(&self) -> Vec<u32> {
        self.view().flash.erase_counts().to_vec()
    }
    pub fn metrics_json(&self) -> String {
        serde_json::to_string(&self.view().metrics()).unwrap_or_default()
    }
    /// The scheme panels; dark while power is off and while recovery rebuilds the RAM.
    pub fn scheme_view(&self) -> SchemeView {
        if self.power.is_some() || self.rec.is_some() {
            return SchemeView { panels: Vec::new(), powered: false };
        }
        let s = self.view();
        SchemeView { panels: s.ftl.panels(&s.flash), powered: true }
    }
    /// `scheme_view()` as JSON.
    pub fn view_json(&self) -> String {
        serde_json::to_string(&self.scheme_view()).unwrap_or_default()
    }

    /// Blocks the merge or GC under way will erase (its victims), while it runs: the
    /// erases of cleaning work not yet revealed, when the last revealed operation (or the
    /// next one, announced by a note) belongs to that work.
    pub fn victims(&self) -> Vec<u32> {
        if !self.in_request || self.rec.is_some() {
            return Vec::new();
        }
        let revealed = &self.events[..self.cursor];
        let last = revealed.iter().rev().find_map(|e| match e {
            Event::Op { cause, .. } => Some(*cause),
            _ => None,
        });
        let next = self.events[self.cursor..].iter().find_map(|e| match e {
            Event::Op { cause, .. } => Some(*cause),
            _ => None,
        });
        let announced = matches!(revealed.last(), Some(Event::Note { .. }));
        if !(last.is_some_and(cleaning) || (announced && next.is_some_and(cleaning))) {
            return Vec::new();
        }
        let mut v = Vec::new();
        for e in &self.events[self.cursor..] {
            if let Event::Op { kind, pbn, cause, .. } = e {
                if *cause == Cause::Host {
                    break;
                }
                if *kind == OpKind::Erase && cleaning(*cause) && !v.contains(pbn) {
                    v.push(*pbn);
                }
            }
        }
        v
    }

    /// Revealed events with plain-words text.
    pub fn events(&self) -> Vec<EventView> {
        let g = *self.sim.state.flash.geometry();
        let view = self.view();
        self.events[..self.cursor]
            .iter()
            .map(|e| match e {
                Event::Op { kind, ppn, pbn, lpn, cause, .. } => {
                    let page = g.offset_of(*ppn);
                    // Metadata pages may carry a number in their spare area (LTFTL's map
                    // and log pages): never an LPN.
                    let meta = *lpn == NONE
                        || view.flash.peek(*ppn).kind == PageKind::Meta
                        || (view.flash.peek(*ppn).kind == PageKind::Erased
                            && self.sim.state.flash.peek(*ppn).kind == PageKind::Meta);
                    let what = match kind {
                        OpKind::Read if meta => format!("read metadata page {page} of block {pbn}"),
                        OpKind::Read => format!("read lpn {lpn} from page {page} of block {pbn}"),
                        OpKind::ReadOob => format!("read the spare area of page {page} of block {pbn}"),
                        OpKind::Program if meta => format!("program metadata into page {page} of block {pbn}"),
                        OpKind::Program => format!("program lpn {lpn} into page {page} of block {pbn}"),
                        OpKind::Erase => format!("erase block {pbn}"),
                    };
                    let kind = match kind {
                        OpKind::Read => "read",
                        OpKind::ReadOob => "read_oob",
                        OpKind::Program => "program",
                        OpKind::Erase => "erase",
                    };
                    EventView {
                        kind,
                        pbn: Some(*pbn),
                        page: (kind != "erase").then_some(page),
                        lpn: (!meta && kind != "erase").then_some(*lpn),
                        cause: Some(cause.name()),
                        text: format!("{what} ({})", cause.name().replace('_', " ")),
                    }
                }
                Event::Note { tag, text } => {
                    EventView { kind: tag, pbn: None, page: None, lpn: None, cause: None, text: text.clone() }
                }
            })
            .collect()
    }

    /// What the last revealed operation did: the notes revealed with it (each phase or
    /// decision on its own line) and the operation itself.
    fn last_step_lines(&self) -> String {
        let evs = self.events();
        let Some(i) = evs.iter().rposition(|e| e.cause.is_some()) else {
            return evs.iter().map(|e| e.text.clone()).collect::<Vec<_>>().join("\n");
        };
        let start = evs[..i].iter().rposition(|e| e.cause.is_some()).map_or(0, |j| j + 1);
        let mut lines: Vec<String> = evs[start..i].iter().map(|e| e.text.clone()).collect();
        if lines.is_empty() {
            // No new note: the phase or decision this operation belongs to, for context.
            if let Some(n) = evs[..i].iter().rev().find(|e| e.cause.is_none()) {
                lines.push(n.text.clone());
            }
        }
        lines.push(evs[i].text.clone());
        // Closing notes after the last operation (revealed with it).
        lines.extend(evs[i + 1..].iter().map(|e| e.text.clone()));
        lines.join("\n")
    }

    /// The torn pages the power cut just left (the program it interrupted; an MLC pair's
    /// lower page with it), one line each: empty when the cut tore nothing.
    fn torn_lines(&self) -> String {
        let Some(off) = &self.power else { return String::new() };
        let (chip, before) = (&self.sim.state.flash, &off.before.flash);
        let ppb = chip.ppb();
        let torn: Vec<u32> = (0..chip.geometry().pages())
            .filter(|&p| chip.peek(p).kind == PageKind::Torn && before.peek(p).kind != PageKind::Torn)
            .collect();
        // An interrupted erase tears every programmed page of its block at once (Flash::erase):
        // one line for the block, not a program named per page (issue 35, item 3).
        if off.torn_by == Some(OpKind::Erase) {
            let mut blocks: Vec<u32> = torn.iter().map(|p| p / ppb).collect();
            blocks.dedup();
            return blocks
                .iter()
                .map(|b| {
                    let n = torn.iter().filter(|p| *p / ppb == *b).count();
                    format!(
                        "Block {b} is torn: the erase under way when power failed is half done; its {} unreadable and {} nothing until the block is erased again.",
                        plural(n, "programmed page is", "programmed pages are"),
                        if n == 1 { "holds" } else { "hold" }
                    )
                })
                .collect::<Vec<_>>()
                .join("\n");
        }
        torn.iter()
            .map(|p| {
                format!(
                    "Page {} of block {} is torn: the program under way when power failed is half done, its data unreadable; it holds nothing until its block is erased.",
                    p % ppb,
                    p / ppb
                )
            })
            .collect::<Vec<_>>()
            .join("\n")
    }

    /// At a recovery's end, the copies the recovered map went back to (docs/architecture.md,
    /// "What a moment shows": the one invalid → valid without an erase, only across a
    /// recovery): pages shown invalid at the cut — forgotten by the RAM the cut lost, a GC
    /// source or the copy an unacknowledged write replaced — that are valid now, neither
    /// erased nor reprogrammed since. NFTL, RFTL, LTFTL and FastCheck recoveries do this.
    /// One line, empty when there are none.
    fn valid_again_line(&self) -> String {
        let pos = self.sim.pos();
        let Some(root) = self.roots.iter().rev().find(|r| r.state.pos == pos) else { return String::new() };
        let (cut, at_cut) = (&root.rec.cut.flash, &root.rec.off.display.states);
        let chip = &self.view().flash;
        let now = &self.display().states;
        let ppb = chip.ppb() as usize;
        let pages: Vec<String> = (0..now.len().min(at_cut.len()))
            .filter(|&p| {
                at_cut[p] == PageState::Invalid
                    && now[p] == PageState::Valid
                    && chip.peek(p as u32) == cut.peek(p as u32)
                    && chip.erase_counts()[p / ppb] == cut.erase_counts()[p / ppb]
            })
            .map(|p| format!("lpn {} in page {} of block {}", chip.peek(p as u32).lpn, p % ppb, p / ppb))
            .collect();
        const SHOWN: usize = 6;
        let list = match pages.len() {
            0 => return String::new(),
            n if n > SHOWN => format!("{} and {} more", pages[..SHOWN].join(", "), n - SHOWN),
            _ => pages.join(", "),
        };
        format!(
            "Valid again: {list} — {} the lost RAM had forgotten; the recovered map points to {} (the acknowledged version), so {} valid without an erase.",
            if pages.len() == 1 { "a copy" } else { "copies" },
            if pages.len() == 1 { "it" } else { "them" },
            if pages.len() == 1 { "it is" } else { "they are" },
        )
    }

    /// Plain-words lines about the moment shown: the request (or recovery), the flash
    /// operation just revealed and the notes that explain it.
    pub fn narration(&self) -> String {
        if let Some(off) = &self.power {
            let ops = plural(off.ops, "flash operation", "flash operations");
            // Requests are numbered from 1, the one in play (the counter and the power panel
            // say the same: issue 35).
            let n = off.before.pos + 1;
            let text = match (off.in_recovery, off.req) {
                (true, _) => format!("Power cut during the recovery from the cut in request {n}, after {ops} of it: RAM is lost again, the chip keeps what recovery wrote. Press Recover."),
                (false, Some(r)) => format!("Power cut during request {n} ({}) after {ops}: RAM is lost, the chip keeps its pages. Press Recover.", request_words(r)),
                (false, None) => format!("Power cut before request {n}: RAM is lost, the chip keeps its pages. Press Recover."),
            };
            return match self.torn_lines() {
                t if t.is_empty() => text,
                t => format!("{text}\n{t}"),
            };
        }
        if self.recovery_events {
            let n = plural(self.n, "flash operation", "flash operations");
            if self.rec.is_some() && self.k == 0 {
                return format!("Power is back: the scheme rebuilds its RAM from the chip alone ({n}). Step (→) to watch each phase.");
            }
            if self.rec.is_none() {
                let ok = self.verdict.as_ref().is_some_and(|v| v.ok);
                let mut done = format!(
                    "Recovery done ({n}): {}",
                    if ok { "every acknowledged write is found." } else { "the verdict shows what was lost." }
                );
                let again = self.valid_again_line();
                if !again.is_empty() {
                    done = format!("{done}\n{again}");
                }
                // The last recovery operation is narrated like every other (issue 35).
                return match self.n {
                    0 => done,
                    k => format!("Recovery — op {k}/{k}: {}\n{done}", self.last_step_lines()),
                };
            }
            return format!("Recovery — op {}/{}: {}", self.k, self.n, self.last_step_lines());
        }
        let Some(req) = self.request else {
            return if self.sim.pos() == 0 {
                "Ready: press → to step one flash operation, or Space to play.".into()
            } else {
                format!("At request {} of {}.", self.sim.pos(), self.sim.total())
            };
        };
        let head = match req {
            Request::Write { lpn } => format!("Write lpn {lpn}"),
            Request::Read { lpn } => format!("Read lpn {lpn}"),
            Request::Freeze => "Freeze".into(),
            Request::Unfreeze { state } => format!("Unfreeze state {state}"),
            Request::Revert { state } => format!("Revert to state {state}"),
        };
        if self.n == 0 {
            let notes: Vec<String> = self.events().into_iter().map(|e| e.text).collect();
            return match req {
                Request::Read { .. } if notes.is_empty() => format!("{head}: never written, nothing to read."),
                _ if notes.is_empty() => format!("{head}: no flash operation needed."),
                _ => format!("{head}: {}", notes.join("\n")),
            };
        }
        let k = if self.in_request { self.k } else { self.n };
        if k == 0 {
            return format!("{head}: about to start ({}).", plural(self.n, "flash operation", "flash operations"));
        }
        let done = if self.in_request { "" } else { " (done)" };
        let text = format!("{head} — op {k}/{}{done}: {}", self.n, self.last_step_lines());
        // Open timing model: why the request started late (stepper/queue.rs).
        match self.queue().note {
            Some(n) if k == 1 || !self.in_request => format!("{text}\n{}{}.", n[..1].to_uppercase(), &n[1..]),
            _ => text,
        }
    }
}
