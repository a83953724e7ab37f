//! The reference model: the latest acknowledged version of every logical page,
//! plus the versions each frozen state pinned (for time-shifting schemes).

use std::collections::BTreeMap;

use crate::nand::Lpn;

/// Version 0 means "never written".
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Oracle {
    latest: Vec<u32>,
    frozen: BTreeMap<u32, Vec<u32>>,
}

impl Oracle {
    pub fn new(logical_pages: u32) -> Oracle {
        Oracle { latest: vec![0; logical_pages as usize], frozen: BTreeMap::new() }
    }
    /// The host was told the write of `version` to `lpn` succeeded.
    pub fn ack(&mut self, lpn: Lpn, version: u32) {
        self.latest[lpn as usize] = version;
    }
    pub fn expected(&self, lpn: Lpn) -> u32 {
        self.latest[lpn as usize]
    }
    pub fn latest(&self) -> &[u32] {
        &self.latest
    }
    pub fn freeze(&mut self, id: u32) {
        self.frozen.insert(id, self.latest.clone());
    }
    pub fn unfreeze(&mut self, id: u32) {
        self.frozen.remove(&id);
    }
    /// Reverting to a state makes its versions the latest ones.
    pub fn revert(&mut self, id: u32) -> bool {
        match self.frozen.get(&id) {
            Some(v) => {
                self.latest = v.clone();
                true
            }
            None => false,
        }
    }
    /// Ids of the frozen states, ascending.
    pub fn frozen_ids(&self) -> Vec<u32> {
        self.frozen.keys().copied().collect()
    }
    /// Keeps only the frozen states in `ids` (a scheme may release states itself: LTFTL
    /// drops the states frozen after a revert's target, and releases old ones for space).
    pub fn retain_frozen(&mut self, ids: &[u32]) {
        self.frozen.retain(|k, _| ids.contains(k));
    }
    pub fn frozen(&self, id: u32) -> Option<&[u32]> {
        self.frozen.get(&id).map(|v| v.as_slice())
    }
}
