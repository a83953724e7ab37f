//! The verdict on one recovery: which way the request in flight went (the recovered chip
//! decides), what was lost or wrong against the reference model, and the model to go on
//! with. Shared by the chain of cuts (`chain.rs`) and the app's power button (`Stepper`).

use super::CrashOutcome;
use crate::ftl::Ftl;
use crate::nand::{Flash, PageKind};
use crate::oracle::Oracle;
use crate::sim::State;
use crate::trace::Request;

/// What `judge` found.
#[derive(Clone, Debug)]
pub struct Judged {
    /// The recovered state shows the request in flight as done (a write that survived, a
    /// revert / freeze / unfreeze that completed).
    pub took_effect: bool,
    pub lost: u64,
    pub wrong: u64,
    pub torn_mapped: u64,
    pub frozen_damaged: u64,
    /// The version every LPN maps after recovery (u32::MAX: unreadable).
    pub got: Vec<u32>,
    /// The reference model to go on with: the one before the request in flight, or after
    /// it, as the recovered chip shows.
    pub oracle: Oracle,
}

impl Judged {
    /// The recovery's outcome as judged (its operations and time are the caller's to add;
    /// `settled` once they are).
    pub fn outcome(&self) -> CrashOutcome {
        CrashOutcome {
            lost: self.lost,
            wrong: self.wrong,
            torn_mapped: self.torn_mapped,
            frozen_damaged: self.frozen_damaged,
            in_flight_survived: self.took_effect,
            ..Default::default()
        }
    }
}

/// The version every LPN maps (0: none or erased, u32::MAX: unreadable) and how many LPNs
/// map a torn page.
pub(crate) fn versions(ftl: &dyn Ftl, flash: &Flash) -> (Vec<u32>, u64) {
    let mut torn = 0;
    let v = (0..ftl.logical_pages()).map(|l| version_of(ftl.locate(l), l, flash, &mut torn)).collect();
    (v, torn)
}

pub(crate) fn version_of(ppn: Option<u32>, lpn: u32, flash: &Flash, torn: &mut u64) -> u32 {
    match ppn {
        None => 0,
        Some(p) => {
            let pg = flash.peek(p);
            match pg.kind {
                PageKind::Data if pg.lpn == lpn => pg.version,
                PageKind::Erased => 0,
                PageKind::Torn => {
                    *torn += 1;
                    u32::MAX
                }
                _ => u32::MAX,
            }
        }
    }
}

/// Frozen states of `oracle` the recovered scheme lost or changed (a revert to the state
/// would not give exactly its pages).
pub(crate) fn frozen_damage(ftl: &dyn Ftl, flash: &Flash, oracle: &Oracle) -> u64 {
    let mut bad = 0;
    for id in oracle.frozen_ids() {
        let want = oracle.frozen(id).unwrap();
        let ok = ftl.frozen_image(id).is_some_and(|img| {
            let mut torn = 0;
            img.iter().enumerate().all(|(l, &p)| {
                let p = (p != crate::nand::NONE).then_some(p);
                version_of(p, l as u32, flash, &mut torn) == want[l]
            })
        });
        bad += !ok as u64;
    }
    bad
}

/// After a recovery that failed its check, a chain goes on from what was recovered: the
/// reference model takes every readable LPN's recovered version (`got`, from `versions`), so
/// later cuts are judged on their own.
pub(crate) fn go_on_from(oracle: &mut Oracle, got: &[u32]) {
    for (l, &g) in got.iter().enumerate() {
        if g != u32::MAX {
            oracle.ack(l as u32, g);
        }
    }
}

/// Keeps the reference model's frozen states in step with the scheme's after an
/// acknowledged request (a revert drops the later states; LTFTL may release old ones).
pub(crate) fn sync_frozen(s: &mut State) {
    let ids = s.ftl.frozen_states();
    s.oracle.retain_frozen(&ids);
}

/// `before` with `req` run to completion (the other outcome of a cut inside it); `before`
/// itself when there is no request or it fails.
pub fn completed(before: &State, req: Option<Request>) -> State {
    let mut done = before.clone();
    if let Some(r) = req {
        if done.exec(r).is_err() {
            return before.clone();
        }
        sync_frozen(&mut done);
    }
    done
}

/// Judges a recovered scheme: it must equal the reference model before the request in
/// flight (`before`) or after it (`done`, from `completed`); a write may also be judged
/// LPN by LPN (its LPN old or new, every other LPN its latest acknowledged version); a
/// freeze, unfreeze or revert is all or nothing (LTFTL time shift), decided from the
/// recovered data and list of frozen states. Then every frozen state the model keeps must
/// be intact.
pub fn judge(before: &State, done: &State, in_flight: Option<Request>, ftl: &dyn Ftl, flash: &Flash) -> Judged {
    let (got, torn_mapped) = versions(ftl, flash);
    let ids = ftl.frozen_states();
    let data_before = before.oracle.latest() == got.as_slice();
    let data_done = done.oracle.latest() == got.as_slice();
    let ids_done = done.oracle.frozen_ids() == ids;
    let mut j = Judged {
        took_effect: false,
        lost: 0,
        wrong: 0,
        torn_mapped,
        frozen_damaged: 0,
        got,
        oracle: before.oracle.clone(),
    };
    if (data_done && !data_before) || (data_done && ids_done && done.oracle != before.oracle) {
        // Done, whole (a revert is atomic; a freeze / unfreeze shows in the states).
        j.took_effect = true;
        j.oracle = done.oracle.clone();
    } else if !data_before {
        // Judge against the state before; an interrupted write may have survived.
        let write = match in_flight {
            Some(Request::Write { lpn }) => Some((lpn, before.next_version)),
            _ => None,
        };
        let d = super::verify(ftl, flash, &j.oracle, write);
        j.lost = d.lost;
        j.wrong = d.wrong;
        if let Some((lpn, ver)) = write {
            if j.got[lpn as usize] == ver {
                j.took_effect = true;
                j.oracle.ack(lpn, ver);
            }
        }
    }
    if !j.took_effect && !matches!(in_flight, Some(Request::Revert { .. })) {
        // A write or freeze in flight may have released old frozen states for space
        // before the cut (LTFTL releases the oldest, and persists that first): a state
        // the finished request would not have kept may be gone.
        let keep: Vec<u32> = j
            .oracle
            .frozen_ids()
            .into_iter()
            .filter(|i| ids.contains(i) || done.oracle.frozen_ids().contains(i))
            .collect();
        j.oracle.retain_frozen(&keep);
    }
    j.frozen_damaged = frozen_damage(ftl, flash, &j.oracle);
    j
}
