//! BullMQ's stalled checker (docs/MODEL.md "The stalled checker runs in the
//! workers"), the engine's reading of bullmq's `Worker.stalledChecker` and
//! `moveStalledJobsToWait-9.lua`, for a scenario whose checks take two
//! passes:
//!
//! - every worker process runs the checker from its own start, every
//!   `stalledInterval` after its last check;
//! - a check runs only if no check has run in the last `stalledInterval`
//!   (the script's `stalled-check` key, set for that long): one check per
//!   interval across the workers, made by whichever worker's timer comes
//!   first after the key is gone;
//! - a check moves back the jobs the previous check marked whose lock is
//!   gone, to the head of the wait list (the next fetch takes them; a
//!   worker waiting for a job is woken at once), then marks every job
//!   active now; a lock renewal unmarks its job;
//! - the timer runs on the worker's event loop: a worker whose loop a
//!   CPU-bound run blocks (or that a pause stops) checks when the loop is
//!   free, if its timer fell due meanwhile, and `stalledInterval` after that.

use super::{Sim, State};
use crate::clock::Ev;

/// The checker's shared state: the `stalled-check` key and the jobs active
/// since the last check.
#[derive(Debug, Clone)]
pub(crate) struct Stall {
    pub period: u64,
    /// When the `stalled-check` key expires: no check runs before.
    pub key_until: u64,
    /// Invalidates a planned `StallCheck` the workers' state has overtaken.
    pub generation: u64,
    /// (message, receipt) handed out, not yet seen settled by a check.
    pub active: Vec<(u32, u32)>,
    /// During a check: the jobs it moved back, for the head of the queue.
    pub to_head: Option<Vec<u32>>,
}

impl Stall {
    /// Every worker checks at its start, before it fetches; the first to
    /// start takes the key, so the next check falls one interval later.
    pub(crate) fn new(period: u64) -> Self {
        Stall {
            period,
            key_until: period,
            generation: 0,
            active: Vec::new(),
            to_head: None,
        }
    }
}

/// A timer started at `phase`, firing every `period`: its first firing at
/// or after `t`.
fn first_at_or_after(phase: u64, t: u64, period: u64) -> u64 {
    if t <= phase {
        return phase;
    }
    let k = (t - phase).div_ceil(period);
    phase.saturating_add(k.saturating_mul(period))
}

impl Sim<'_> {
    /// A worker whose timer can fire: alive, not paused, its loop free.
    fn checks_now(&self, w: usize) -> bool {
        let wk = &self.workers[w];
        wk.alive && !wk.paused && wk.blocked_by.is_none()
    }

    /// Plan the next check: the first firing of any free worker's timer
    /// once the key is gone. Nothing is planned while no job is active
    /// (a check then would find nothing) nor while no worker is free.
    pub(crate) fn plan_stall_check(&mut self) {
        let now = self.now;
        let Some(st) = self.stall.as_mut() else {
            return;
        };
        st.generation += 1;
        if st.active.is_empty() {
            return;
        }
        let (from, period, generation) = (st.key_until.max(now), st.period, st.generation);
        let next = (0..self.workers.len())
            .filter(|&w| self.checks_now(w))
            .map(|w| first_at_or_after(self.workers[w].check_phase, from, period))
            .min();
        if let Some(t) = next {
            self.clock.schedule(t, Ev::StallCheck { generation });
        }
    }

    pub(crate) fn stall_check_due(&mut self, generation: u64) {
        if self
            .stall
            .as_ref()
            .is_some_and(|st| st.generation == generation)
        {
            self.run_stall_check();
            self.plan_stall_check();
        }
    }

    /// One check (`moveStalledJobsToWait`): the key is taken for an
    /// interval; each job the last check marked whose lock is gone goes
    /// back (or fails, past `maxStalledCount`); every job still active is
    /// marked.
    fn run_stall_check(&mut self) {
        let Some(st) = self.stall.as_mut() else {
            return;
        };
        st.key_until = self.now.saturating_add(st.period);
        st.to_head = Some(Vec::new());
        let active = std::mem::take(&mut st.active);
        let now = self.now;
        let mut still = Vec::with_capacity(active.len());
        for (id, receipt) in active {
            let m = &self.msgs[id as usize];
            if m.state != State::InFlight || m.receive_count != receipt {
                continue;
            }
            if m.stall_mark == receipt && m.expires_at <= now {
                self.take_back(id);
                continue;
            }
            still.push((id, receipt));
        }
        for &(id, receipt) in &still {
            self.msgs[id as usize].stall_mark = receipt;
        }
        if let Some(st) = self.stall.as_mut() {
            // Handed out during the check's take-backs: none, a take-back
            // only queues the job; kept in order all the same.
            still.append(&mut st.active);
            st.active = still;
            let head = st.to_head.take().unwrap_or_default();
            self.available.push_head(now, &head);
        }
    }

    /// A job handed out is active: the next check marks it.
    pub(crate) fn stall_track(&mut self, id: u32, receipt: u32) {
        let Some(st) = self.stall.as_mut() else {
            return;
        };
        let was_idle = st.active.is_empty();
        st.active.push((id, receipt));
        if was_idle {
            self.plan_stall_check();
        }
    }

    /// A worker's loop stops (a CPU-bound run, a pause): its timer waits.
    pub(crate) fn stall_worker_stops(&mut self, w: u32) {
        if self.stall.is_none() {
            return;
        }
        let wk = &mut self.workers[w as usize];
        if wk.check_stopped_at.is_none() {
            wk.check_stopped_at = Some(self.now);
        }
        self.plan_stall_check();
    }

    /// A worker's loop is free again: a timer that fell due meanwhile
    /// fires now, and the next one an interval later.
    pub(crate) fn stall_worker_runs(&mut self, w: u32) {
        let Some(period) = self.stall.as_ref().map(|st| st.period) else {
            return;
        };
        let now = self.now;
        let wk = &mut self.workers[w as usize];
        let Some(stopped) = wk.check_stopped_at.take() else {
            return;
        };
        if first_at_or_after(wk.check_phase, stopped, period) <= now {
            wk.check_phase = now;
            if self.stall.as_ref().is_some_and(|st| st.key_until <= now) {
                self.run_stall_check();
            }
        }
        self.plan_stall_check();
    }

    /// A worker process starts (a restart): it checks first, then fetches.
    pub(crate) fn stall_worker_starts(&mut self, w: u32) {
        if self.stall.is_none() {
            return;
        }
        let now = self.now;
        let wk = &mut self.workers[w as usize];
        wk.check_phase = now;
        wk.check_stopped_at = None;
        if self.stall.as_ref().is_some_and(|st| st.key_until <= now) {
            self.run_stall_check();
        }
        self.plan_stall_check();
    }

    /// A lock renewal that held: the job leaves the stalled set.
    pub(crate) fn stall_unmark(&mut self, id: u32) {
        if self.stall.is_some() {
            self.msgs[id as usize].stall_mark = 0;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::first_at_or_after;

    #[test]
    fn a_timer_fires_on_its_own_grid() {
        assert_eq!(first_at_or_after(0, 0, 1000), 0);
        assert_eq!(first_at_or_after(0, 1, 1000), 1000);
        assert_eq!(first_at_or_after(250, 1000, 1000), 1250);
        assert_eq!(first_at_or_after(4000, 1000, 1000), 4000);
        assert_eq!(first_at_or_after(4000, 5000, 1000), 5000);
    }
}
