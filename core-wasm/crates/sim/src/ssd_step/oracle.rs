//! Test only: the host requests done recounted over every step so far (what `moment` did
//! before issue 37's running count), the oracle of scenario/device/tests.rs.

use super::DeviceStepper;

impl DeviceStepper {
    /// Host requests whose every page is done at the moment shown, recounted: each die's
    /// page requests completed are counted, and a host request is done when all its pages are.
    pub(crate) fn hosts_done_recount(&self) -> usize {
        let mut left: Vec<u32> = self.hosts.iter().map(|h| h.pages).collect();
        for (d, p) in self.plan.iter().enumerate() {
            for st in &p.steps[..self.pos[d].s] {
                left[st.host as usize] -= 1;
            }
        }
        assert_eq!(left, self.left, "pages left of each host request");
        left.iter().filter(|&&l| l == 0).count()
    }

    /// The count against the recount here and in the run after a recovery (and after later
    /// cuts); returns how many plans were checked.
    pub(crate) fn check_hosts_done(&self, what: &str) -> usize {
        assert_eq!(self.done_hosts, self.hosts_done_recount(), "{what}");
        1 + self.after.as_ref().map_or(0, |a| a.check_hosts_done(what))
    }
}
