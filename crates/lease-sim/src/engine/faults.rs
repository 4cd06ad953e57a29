//! Faults (docs/MODEL.md "Faults"): crashes with restart, rolling
//! deploys, stop-the-world pauses.

use super::{Phase, Sim, Worker};
use crate::clock::Ev;
use crate::run::{EventKind, Outcome, WorkerMark, WorkerMarkKind, NONE};
use crate::scenario::{Fault, RunOutcome};

impl Sim<'_> {
    pub(crate) fn schedule_faults(&mut self) {
        let n = self.cfg.workers;
        for f in &self.scenario.faults {
            match *f {
                Fault::Crash {
                    worker,
                    at_ms,
                    restart_after_ms,
                } => {
                    if worker < n {
                        self.clock.schedule(
                            at_ms,
                            Ev::Crash {
                                worker,
                                restart_after: restart_after_ms,
                            },
                        );
                    }
                }
                Fault::RollingDeploy {
                    at_ms,
                    downtime_ms,
                    gap_ms,
                } => {
                    for i in 0..n {
                        let at = at_ms.saturating_add(
                            u64::from(i).saturating_mul(downtime_ms.saturating_add(gap_ms)),
                        );
                        self.clock.schedule(
                            at,
                            Ev::Crash {
                                worker: i,
                                restart_after: Some(downtime_ms),
                            },
                        );
                    }
                }
                Fault::Pause {
                    worker,
                    at_ms,
                    duration_ms,
                } => {
                    if worker < n {
                        self.clock.schedule(
                            at_ms,
                            Ev::Pause {
                                worker,
                                duration: duration_ms,
                            },
                        );
                    }
                }
                // Read at the run's finish (`run_override`).
                Fault::Run { .. } => {}
            }
        }
    }

    /// What the scenario says run (message, receipt) does at its finish, if
    /// it says anything; the last override of a run that gives one wins.
    pub(crate) fn run_override(&self, message: u32, receipt: u32) -> Option<RunOutcome> {
        self.last_override(message, receipt, |outcome, _| outcome)
    }

    /// The work a run takes when an override fixes it (the last override of
    /// the run that gives `work_ms` wins).
    pub(crate) fn work_override(&self, message: u32, receipt: u32) -> Option<u64> {
        self.last_override(message, receipt, |_, work_ms| work_ms)
    }

    /// `pick(outcome, work_ms)` of the last override of the run that gives it.
    fn last_override<T>(
        &self,
        message: u32,
        receipt: u32,
        pick: impl Fn(Option<RunOutcome>, Option<u64>) -> Option<T>,
    ) -> Option<T> {
        self.scenario.faults.iter().rev().find_map(|f| match *f {
            Fault::Run {
                message: m,
                receipt: r,
                outcome,
                work_ms,
            } if m == message && r == receipt => pick(outcome, work_ms),
            _ => None,
        })
    }

    fn worker_mark(&mut self, worker: u32, kind: WorkerMarkKind) {
        self.worker_marks.push(WorkerMark {
            t: self.now,
            worker,
            kind,
        });
    }

    /// Everything the worker holds vanishes: no ack, no release. The leases
    /// stay until they expire; calls in transit are lost (the epoch changes).
    pub(crate) fn crash(&mut self, w: u32, restart_after: Option<u64>) {
        if !self.workers[w as usize].alive {
            return;
        }
        let held: Vec<u32> = {
            let wk = &self.workers[w as usize];
            wk.slots
                .iter()
                .flatten()
                .copied()
                .chain(wk.buffer.iter().copied())
                .chain(wk.eta_held.iter().copied())
                .collect()
        };
        for d in held {
            let phase = self.live[d as usize].phase;
            self.stop_work(d);
            let del = &mut self.deliveries[d as usize];
            if matches!(phase, Phase::Running | Phase::Paused) {
                del.ended_at = Some(self.now);
            }
            del.outcome = Outcome::Crashed;
            self.live[d as usize].phase = Phase::Done;
            self.handlers_alive -= 1;
            self.orphaned(d);
        }
        let epoch = self.workers[w as usize].epoch + 1;
        let mut dead = Worker::fresh(self.cfg.concurrency, epoch);
        dead.alive = false;
        self.workers[w as usize] = dead;
        self.worker_mark(w, WorkerMarkKind::Crash);
        self.log(EventKind::Crash, NONE, w, NONE);
        // Its stalled checker is gone with it.
        self.plan_stall_check();
        if let Some(after) = restart_after {
            self.clock
                .schedule(self.now.saturating_add(after), Ev::Restart { worker: w });
        }
    }

    pub(crate) fn restart(&mut self, w: u32) {
        let wk = &mut self.workers[w as usize];
        if wk.alive {
            return;
        }
        wk.alive = true;
        wk.channel_opened_at = self.now;
        self.worker_mark(w, WorkerMarkKind::Restart);
        self.log(EventKind::Restart, NONE, w, NONE);
        self.orphan_check();
        self.stall_worker_starts(w);
        self.worker_try(w);
    }

    /// Stop-the-world: no work, no heartbeats, no replies handled.
    pub(crate) fn pause(&mut self, w: u32, duration: u64) {
        let wk = &self.workers[w as usize];
        if !wk.alive || wk.paused {
            return;
        }
        let running: Vec<u32> = wk.slots.iter().flatten().copied().collect();
        for d in running {
            if self.live[d as usize].phase == Phase::Running {
                self.stop_work(d);
                self.live[d as usize].phase = Phase::Paused;
            }
        }
        self.workers[w as usize].paused = true;
        self.stall_worker_stops(w);
        self.worker_mark(w, WorkerMarkKind::Pause);
        self.log(EventKind::Pause, NONE, w, NONE);
        self.clock
            .schedule(self.now.saturating_add(duration), Ev::Resume { worker: w });
    }

    pub(crate) fn resume(&mut self, w: u32) {
        let wk = &mut self.workers[w as usize];
        if !wk.alive || !wk.paused {
            return;
        }
        wk.paused = false;
        self.worker_mark(w, WorkerMarkKind::Resume);
        self.log(EventKind::Resume, NONE, w, NONE);
        self.wake(w);
    }

    /// A CPU-bound run blocks its worker's event loop: the worker's other
    /// running handlers stop where they are, and nothing else of the
    /// worker happens until the run ends (docs/MODEL.md "Job frameworks").
    pub(crate) fn block_loop(&mut self, w: u32, d: u32) {
        let others: Vec<u32> = self.workers[w as usize]
            .slots
            .iter()
            .flatten()
            .copied()
            .filter(|&o| o != d)
            .collect();
        for o in others {
            if self.live[o as usize].phase == Phase::Running {
                self.stop_work(o);
                self.live[o as usize].phase = Phase::Paused;
            }
        }
        self.workers[w as usize].blocked_by = Some(d);
        self.stall_worker_stops(w);
    }

    /// The blocking run has ended: the event loop runs again, unless a
    /// pause still holds the whole worker.
    pub(crate) fn unblock_loop(&mut self, w: u32, d: u32) {
        let wk = &mut self.workers[w as usize];
        if wk.blocked_by != Some(d) {
            return;
        }
        wk.blocked_by = None;
        if wk.alive && !wk.paused {
            self.wake(w);
        }
    }

    /// The worker runs again after a pause or a blocked event loop: its
    /// stopped handlers go on (only the blocking run, while the loop is
    /// still blocked), missed heartbeats collapse into one now, and the
    /// replies that waited are handled.
    fn wake(&mut self, w: u32) {
        if self.workers[w as usize].blocked_by.is_none() {
            self.stall_worker_runs(w);
        }
        let wk = &mut self.workers[w as usize];
        let blocker = wk.blocked_by;
        let inbox = if blocker.is_none() {
            std::mem::take(&mut wk.inbox)
        } else {
            Vec::new()
        };
        let slots: Vec<u32> = wk.slots.iter().flatten().copied().collect();
        let now = self.now;
        for d in slots {
            if blocker.is_some_and(|b| b != d) {
                continue;
            }
            let l = &mut self.live[d as usize];
            if l.phase == Phase::Paused {
                l.phase = Phase::Running;
                l.generation += 1;
                self.pool.advance(now);
                l.target = self.pool.add(d, l.generation, l.left);
                self.pool_dirty = true;
            }
            let l = &mut self.live[d as usize];
            if l.tick_missed && blocker.is_none() {
                l.tick_missed = false;
                if !matches!(l.phase, Phase::Running | Phase::Hung) {
                    // Its work ended meanwhile: nothing to renew.
                } else if self.cfg.client != crate::resolve::ClientPolicy::None {
                    // The library's missed step happens now.
                    self.client_tick(d);
                } else if let Some(h) = self.cfg.heartbeat.clone() {
                    // Missed ticks collapse into one now; then the grid goes on.
                    self.send_heartbeat(d, h.max_extensions);
                    self.schedule_next_tick(d, h.interval_ms);
                }
            }
        }
        for reply in inbox {
            if self.workers[w as usize].alive {
                self.worker_reply(w, reply);
            }
        }
        self.worker_try(w);
    }
}
