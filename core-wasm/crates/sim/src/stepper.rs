//! Stepping one flash operation at a time, for the app. A request runs whole in the
//! simulator with event recording on; its operations are then revealed one by one on
//! a display copy of the page states, which snaps to the scheme's own view when the
//! request completes.

use serde::Serialize;

use crate::crash::{CrashOutcome, Recover};
use crate::ftl::PageState;
use crate::nand::{Event, OpKind, NONE};
use crate::sim::{Simulator, State};
use crate::trace::Request;

/// Power is off: the chip as the cut left it; RAM is lost (docs/session-api.md).
struct PowerOff {
    /// The state before the interrupted request (the reference model's view).
    before: State,
    /// The request in flight (not acknowledged), None for a cut between requests.
    req: Option<Request>,
}

pub struct Stepper {
    pub sim: Simulator,
    /// Events of the in-progress (or last completed) request.
    events: Vec<Event>,
    /// Events revealed so far.
    cursor: usize,
    in_request: bool,
    /// The request the events belong to.
    request: Option<Request>,
    /// Display copy of page states and LPNs while a request is being revealed.
    states: Vec<u8>,
    lpns: Vec<u32>,
    /// Power cut and recovery (`power_cut`, `recover`).
    power: Option<PowerOff>,
    recoverer: Option<Recover>,
    /// The events being revealed are a recovery's.
    recovering: bool,
    /// The verdict of the last recovery.
    verdict: Option<serde_json::Value>,
    /// Requests completed when the run diverged from the recorded workload run (a
    /// recovered power cut); seeking back before the present returns to the recorded run.
    branch_from: Option<usize>,
    /// Block roles before the request, and which blocks its revealed operations touched:
    /// an untouched block keeps its old role until the request completes (a GC victim
    /// reads "data" until its erase is shown), a touched one shows its new role.
    roles_before: Vec<u8>,
    touched: Vec<bool>,
}

/// An event as the UI gets it.
#[derive(Serialize)]
pub struct EventView {
    pub kind: &'static str,
    pub pbn: Option<u32>,
    pub page: Option<u32>,
    pub lpn: Option<u32>,
    pub cause: Option<&'static str>,
    pub text: String,
}

impl Stepper {
    pub fn new(sim: Simulator) -> Stepper {
        Stepper {
            sim,
            events: Vec::new(),
            cursor: 0,
            in_request: false,
            request: None,
            states: Vec::new(),
            lpns: Vec::new(),
            power: None,
            recoverer: None,
            recovering: false,
            verdict: None,
            branch_from: None,
            roles_before: Vec::new(),
            touched: Vec::new(),
        }
    }

    /// How `recover` rebuilds the scheme from the chip (Scenario::recoverer).
    pub fn set_recoverer(&mut self, r: Recover) {
        self.recoverer = Some(r);
    }

    pub fn powered(&self) -> bool {
        self.power.is_none()
    }
    /// A recovery's operations are being revealed.
    pub fn recovering(&self) -> bool {
        self.recovering && self.in_request
    }

    /// Cuts power at the current flash operation: mid-request, the operations revealed so
    /// far are done and the next one never happens (a program under way is torn); between
    /// requests, before the next one. The chip keeps its pages; RAM is lost (the scheme's
    /// tables are dark until `recover`).
    pub fn power_cut(&mut self) -> Result<(), String> {
        if self.power.is_some() {
            return Err("power is already off".into());
        }
        if self.recovering && self.in_request {
            // A cut inside the recovery being revealed: not modelled in the stepper.
            return Err("finish revealing the recovery first".into());
        }
        let (before, req, k) = if self.in_request && !self.recovering {
            let k = self.op_cursor() as u64;
            let req = self.request;
            let (states, lpns) = (std::mem::take(&mut self.states), std::mem::take(&mut self.lpns));
            let events: Vec<Event> = self.events[..self.cursor].to_vec();
            let pos = self.sim.pos() - 1;
            self.seek(pos)?;
            self.states = states;
            self.lpns = lpns;
            self.events = events;
            self.cursor = self.events.len();
            self.request = req;
            (self.sim.state.clone(), req, k)
        } else {
            self.finish();
            let (states, lpns) = self.authoritative();
            self.states = states;
            self.lpns = lpns;
            self.events.clear();
            self.cursor = 0;
            self.request = None;
            (self.sim.state.clone(), None, 0)
        };
        if let Some(r) = req {
            let mut cut = before.clone();
            cut.flash.set_power_budget(Some(k));
            if cut.exec(r).is_ok() {
                return Err("the request finished before the cut".into());
            }
            cut.flash.power_on();
            self.sim.state = cut;
        }
        self.recovering = false;
        self.in_request = false;
        self.verdict = None;
        self.power = Some(PowerOff { before, req });
        Ok(())
    }

    /// Power comes back: the scheme recovers from the chip alone. Its operations and notes
    /// are revealed like a request's (`step_op`); the verdict (`verdict`) compares every LPN
    /// with the reference model. The run then goes on with the requests after the
    /// interrupted one (which was not acknowledged).
    pub fn recover(&mut self) -> Result<(), String> {
        let Some(off) = self.power.take() else { return Err("power is on".into()) };
        let Some(rec) = self.recoverer.clone() else {
            self.power = Some(off);
            return Err("this session has no recovery".into());
        };
        let mut flash = self.sim.state.flash.clone();
        flash.set_recording(true);
        let ftl = match rec(&mut flash) {
            Ok(Ok(f)) => f,
            other => {
                let msg = match other {
                    Ok(Err(e)) => e,
                    Err(e) => e.to_string(),
                    Ok(Ok(_)) => unreachable!(),
                };
                self.power = Some(off);
                return Err(msg);
            }
        };
        self.events = flash.take_events();
        flash.set_recording(false);
        let in_flight = match off.req {
            Some(Request::Write { lpn }) => Some((lpn, off.before.next_version)),
            _ => None,
        };
        let mut v: CrashOutcome = crate::crash::verify(ftl.as_ref(), &flash, &off.before.oracle, in_flight);
        let mut oracle = off.before.oracle.clone();
        let mut survived = false;
        if let Some((lpn, ver)) = in_flight {
            if ftl.locate(lpn).is_some_and(|p| flash.peek(p).version == ver) {
                oracle.ack(lpn, ver);
                survived = true;
            }
        }
        let ops = self.events.iter().filter(|e| matches!(e, Event::Op { .. })).count();
        v.recovery_ops = ops as u64;
        // While the recovery is revealed, blocks it has not touched keep their last role.
        self.roles_before = self.current_roles();
        self.touched = vec![false; self.roles_before.len()];
        let pos = off.before.pos + usize::from(off.req.is_some());
        self.sim.state = State {
            flash,
            ftl,
            oracle,
            host: off.before.host.clone(),
            next_version: off.before.next_version + u32::from(off.req.is_some()),
            pos,
        };
        self.sim.truncate_keyframes(off.before.pos);
        self.branch_from = Some(off.before.pos);
        self.verdict = Some(serde_json::json!({
            "ok": v.ok(),
            "lost": v.lost,
            "wrong": v.wrong,
            "torn_mapped": v.torn_mapped,
            "recovery_ops": v.recovery_ops,
            "in_flight": off.req.map(|r| format!("{r:?}")),
            "in_flight_survived": survived,
        }));
        self.cursor = 0;
        self.in_request = !self.events.is_empty();
        self.recovering = true;
        self.request = None;
        Ok(())
    }

    /// The last recovery's verdict as JSON (null before any).
    pub fn verdict_json(&self) -> String {
        self.verdict.clone().unwrap_or(serde_json::Value::Null).to_string()
    }


    /// Requests completed (the in-progress one, already run in the simulator, excluded).
    pub fn step(&self) -> usize {
        self.sim.pos() - usize::from(self.in_request)
    }
    /// Flash operations revealed in the in-progress request.
    pub fn op_cursor(&self) -> usize {
        if !self.in_request {
            return 0;
        }
        self.events[..self.cursor].iter().filter(|e| matches!(e, Event::Op { .. })).count()
    }
    pub fn op_count(&self) -> usize {
        if !self.in_request {
            return 0;
        }
        self.events.iter().filter(|e| matches!(e, Event::Op { .. })).count()
    }

    fn authoritative(&self) -> (Vec<u8>, Vec<u32>) {
        let s = &self.sim.state;
        let n = s.flash.geometry().pages();
        let states = (0..n).map(|p| s.ftl.page_state(&s.flash, p) as u8).collect();
        let lpns = s.flash.pages().iter().map(|p| p.lpn).collect();
        (states, lpns)
    }

    /// Page states as displayed (mid-request: the pre-request view with the revealed ops applied).
    pub fn page_states(&self) -> Vec<u8> {
        if self.in_request || self.power.is_some() {
            self.states.clone()
        } else {
            self.authoritative().0
        }
    }
    pub fn page_lpns(&self) -> Vec<u32> {
        if self.in_request || self.power.is_some() {
            self.lpns.clone()
        } else {
            self.authoritative().1
        }
    }

    /// Starts the next request: snapshot the display, run it recording events.
    fn begin(&mut self) -> Result<bool, String> {
        let Some(req) = self.sim.next_request() else { return Ok(false) };
        self.recovering = false;
        let (states, lpns) = self.authoritative();
        self.states = states;
        self.lpns = lpns;
        self.roles_before = self.current_roles();
        self.touched = vec![false; self.roles_before.len()];
        self.sim.state.flash.set_recording(true);
        let r = self.sim.step();
        self.events = self.sim.state.flash.take_events();
        self.sim.state.flash.set_recording(false);
        r?;
        self.request = Some(req);
        self.cursor = 0;
        self.in_request = true;
        Ok(true)
    }

    /// Reveals events up to and including the next flash operation.
    fn reveal_one(&mut self) {
        let ppb = self.sim.state.flash.ppb();
        while self.cursor < self.events.len() {
            let e = self.events[self.cursor].clone();
            self.cursor += 1;
            if let Event::Op { kind, ppn, pbn, lpn, .. } = e {
                if matches!(kind, OpKind::Program | OpKind::Erase) {
                    self.touched[pbn as usize] = true;
                }
                match kind {
                    OpKind::Program => {
                        if lpn == NONE {
                            self.states[ppn as usize] = PageState::Metadata as u8;
                        } else {
                            // The older copy of this LPN, if displayed valid, is now stale.
                            for (i, (&s, &l)) in self.states.iter().zip(&self.lpns).enumerate() {
                                if l == lpn && s == PageState::Valid as u8 && i != ppn as usize {
                                    self.states[i] = PageState::Invalid as u8;
                                    break;
                                }
                            }
                            self.states[ppn as usize] = PageState::Valid as u8;
                        }
                        self.lpns[ppn as usize] = lpn;
                    }
                    OpKind::Erase => {
                        let r = (pbn * ppb) as usize..((pbn + 1) * ppb) as usize;
                        self.states[r.clone()].fill(PageState::Erased as u8);
                        self.lpns[r].fill(NONE);
                    }
                    OpKind::Read | OpKind::ReadOob => {}
                }
                break;
            }
        }
        // Schemes write a note before the operations it explains, so notes after this
        // operation belong to the next one — unless no operation follows (a closing note).
        let rest = &self.events[self.cursor..];
        if rest.iter().all(|e| matches!(e, Event::Note { .. })) {
            self.cursor = self.events.len();
        }
        if self.cursor >= self.events.len() {
            self.in_request = false;
        }
    }

    /// One more flash operation (starting the next request if needed). False at the end.
    pub fn step_op(&mut self) -> Result<bool, String> {
        self.check_power()?;
        if !self.in_request && !self.begin()? {
            return Ok(false);
        }
        self.reveal_one();
        Ok(true)
    }

    /// Finishes the in-progress request, or runs the next one whole.
    pub fn step_request(&mut self) -> Result<bool, String> {
        self.check_power()?;
        if !self.in_request && !self.begin()? {
            return Ok(false);
        }
        self.cursor = self.events.len();
        self.in_request = false;
        Ok(true)
    }

    /// Full speed, no events kept.
    pub fn run(&mut self, n: usize) -> Result<usize, String> {
        self.check_power()?;
        self.recovering = false;
        self.forget_request();
        self.sim.run(n)
    }

    /// Leaves no request in progress and no events to show.
    fn forget_request(&mut self) {
        self.in_request = false;
        self.events.clear();
        self.cursor = 0;
        self.request = None;
    }

    fn finish(&mut self) {
        self.in_request = false;
        self.recovering = false;
        self.cursor = self.events.len();
    }

    fn check_power(&self) -> Result<(), String> {
        if self.power.is_some() {
            return Err("power is off: recover first (or seek to leave the power cut)".into());
        }
        Ok(())
    }

    /// Seeking back leaves a power-cut branch and returns to the recorded run.
    pub fn seek(&mut self, step: usize) -> Result<(), String> {
        if let Some(off) = self.power.take() {
            self.sim.state = off.before;
        }
        if self.branch_from.is_some_and(|_| step < self.sim.pos()) {
            // Keyframes after the branch point are the branch's; the simulator's seek then
            // replays the recorded run from an earlier keyframe.
            let b = self.branch_from.take().unwrap();
            self.sim.truncate_keyframes(b);
        }
        self.recovering = false;
        self.forget_request();
        self.sim.seek(step)
    }

    /// The state after `step` requests plus `ops` flash operations of the next one
    /// (the event list's "jump to this moment").
    pub fn goto(&mut self, step: usize, ops: usize) -> Result<(), String> {
        self.seek(step)?;
        if ops == 0 || !self.begin()? {
            return Ok(());
        }
        let n = self.op_count();
        if ops >= n {
            self.finish();
            return Ok(());
        }
        for _ in 0..ops {
            self.reveal_one();
        }
        Ok(())
    }

    /// Back one flash operation (into the previous request when between requests).
    pub fn back_op(&mut self) -> Result<bool, String> {
        let (pos, revealed) = if self.in_request {
            (self.sim.pos() - 1, self.op_cursor())
        } else if self.sim.pos() == 0 {
            return Ok(false);
        } else {
            let pos = self.sim.pos() - 1;
            // Operations of the request just completed: re-run it to count them.
            self.seek(pos)?;
            self.begin()?;
            let n = self.op_count();
            (pos, n)
        };
        self.seek(pos)?;
        if revealed <= 1 {
            return Ok(true);
        }
        self.begin()?;
        for _ in 0..revealed - 1 {
            self.reveal_one();
        }
        Ok(true)
    }

    /// Revealed events with plain-words text.
    pub fn events(&self) -> Vec<EventView> {
        let g = *self.sim.state.flash.geometry();
        self.events[..self.cursor]
            .iter()
            .map(|e| match e {
                Event::Op { kind, ppn, pbn, lpn, cause } => {
                    let page = g.offset_of(*ppn);
                    let what = match kind {
                        OpKind::Read => format!("read page {page} of block {pbn}"),
                        OpKind::ReadOob => format!("read the spare area of page {page} of block {pbn}"),
                        OpKind::Program if *lpn == NONE => format!("program metadata into page {page} of block {pbn}"),
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
                        lpn: (*lpn != NONE).then_some(*lpn),
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

    /// One line about the last revealed event, with the request it belongs to.
    pub fn narration(&self) -> String {
        if self.power.is_some() {
            return match self.power.as_ref().and_then(|p| p.req) {
                Some(r) => format!("Power cut during {r:?} after {} flash operations: RAM is lost, the chip keeps its pages. Press Recover.", self.events.iter().filter(|e| matches!(e, Event::Op { .. })).count()),
                None => "Power cut between requests: RAM is lost, the chip keeps its pages. Press Recover.".into(),
            };
        }
        if self.recovering {
            let evs = self.events();
            let n_ops = evs.iter().filter(|e| e.cause.is_some()).count();
            let last_op = evs.iter().rev().find(|e| e.cause.is_some()).map(|e| e.text.clone()).unwrap_or_default();
            let last_note = evs.iter().rev().find(|e| e.cause.is_none()).map(|e| e.text.clone()).unwrap_or_default();
            let sep = if last_note.is_empty() || last_op.is_empty() { "" } else { " · " };
            return format!("Recovery — op {n_ops}/{}: {last_note}{sep}{last_op}", self.op_count().max(n_ops));
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
        let evs = self.events();
        if evs.is_empty() {
            return match req {
                Request::Read { .. } => format!("{head}: never written, nothing to read."),
                _ => format!("{head}: no flash operation needed."),
            };
        }
        let last_op = evs.iter().rev().find(|e| e.cause.is_some());
        let last_note = evs.iter().rev().find(|e| e.cause.is_none());
        let n_ops = evs.iter().filter(|e| e.cause.is_some()).count();
        let mut s = format!("{head} — op {n_ops}/{}: ", self.op_count().max(n_ops));
        if let Some(n) = last_note {
            s.push_str(&n.text);
            s.push_str(" · ");
        }
        if let Some(o) = last_op {
            s.push_str(&o.text);
        }
        s
    }
}

impl Stepper {
    fn current_roles(&self) -> Vec<u8> {
        let s = &self.sim.state;
        (0..s.flash.blocks()).map(|b| s.ftl.block_role(b) as u8).collect()
    }
    /// Roles as displayed (see `roles_before`).
    pub fn block_roles(&self) -> Vec<u8> {
        let mut roles = self.current_roles();
        if self.in_request {
            for (b, r) in roles.iter_mut().enumerate() {
                if !self.touched[b] {
                    *r = self.roles_before[b];
                }
            }
        }
        roles
    }
    pub fn block_owners(&self) -> Vec<i32> {
        let s = &self.sim.state;
        (0..s.flash.blocks()).map(|b| s.ftl.block_owner(b).map_or(-1, |l| l as i32)).collect()
    }
    /// Scheme panels as JSON: `{tables:[{title, columns, rows}]}`.
    pub fn view_json(&self) -> String {
        let s = &self.sim.state;
        if self.power.is_some() {
            // RAM is lost: the panels go dark.
            return serde_json::json!({ "tables": [], "powered": false }).to_string();
        }
        serde_json::json!({ "tables": s.ftl.tables(&s.flash), "powered": true }).to_string()
    }
}
