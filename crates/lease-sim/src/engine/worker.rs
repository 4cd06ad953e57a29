//! The workers (docs/MODEL.md "Workers"). A worker
//! knows only what the broker's replies told it: it never reads broker state.

use super::{is_current, Phase, Sim};
use crate::clock::{AckAnswer, Call, Ev, Reply};
use crate::resolve::{
    pubsub_extension_ms, service_bus_renew_before_ms, ClientPolicy, PUBSUB_MAX_EXTENSION_MS,
};
use crate::run::{Effect, EventKind, MarkKind, Outcome};
use crate::scenario::{AckAt, ExpiryTakes, Fence, LateAck, OnError, OnReject, Renewal, RunOutcome};
use crate::work::finish_draw;

impl Sim<'_> {
    /// Start what the free slots allow, then ask for more if there is room.
    pub(crate) fn worker_try(&mut self, w: u32) {
        let wk = &self.workers[w as usize];
        if !wk.alive || wk.paused || wk.blocked_by.is_some() {
            return;
        }
        loop {
            let wk = &mut self.workers[w as usize];
            let Some(slot) = wk.slots.iter().position(Option::is_none) else {
                break;
            };
            let Some(d) = wk.buffer.pop_front() else {
                break;
            };
            wk.slots[slot] = Some(d);
            self.start(w, slot as u32, d);
            // A CPU-bound run on an event loop: nothing else starts.
            if self.workers[w as usize].blocked_by.is_some() {
                return;
            }
        }
        let wk = &mut self.workers[w as usize];
        if !wk.polling && wk.alive && !wk.paused && wk.held < self.cfg.prefetch {
            let want = self.cfg.receive_batch.min(self.cfg.prefetch - wk.held);
            wk.polling = true;
            self.send_call(w, Call::Receive { want });
        }
    }

    /// A handler starts, whatever its lease state: the worker cannot know.
    fn start(&mut self, w: u32, slot: u32, d: u32) {
        let now = self.now;
        let del = &mut self.deliveries[d as usize];
        del.slot = Some(slot);
        del.started_at = Some(now);
        let (id, receipt) = (del.message, del.receipt);
        self.log(EventKind::Start, id, w, receipt);
        let m = &self.msgs[id as usize];
        if self.cfg.fence == Fence::CheckThenWrite && m.store.processed() {
            // The processed-ids check finds it: no work, ack at once.
            let del = &mut self.deliveries[d as usize];
            del.outcome = Outcome::Skipped;
            del.ended_at = Some(now);
            self.live[d as usize].phase = Phase::Settling;
            self.log(EventKind::Skip, id, w, receipt);
            self.note_ack_delay(w, d);
            self.send_call(w, Call::Ack { delivery: d });
            return;
        }
        // Another run of the same message executing now (paused counts, hung does not).
        let twin = self.chain(id).find(|&o| {
            o != d && matches!(self.live[o as usize].phase, Phase::Running | Phase::Paused)
        });
        let started_before = m.started_once;
        let read = m.store.applied;
        self.msgs[id as usize].started_once = true;
        match twin {
            Some(o) => {
                self.deliveries[d as usize].overlaps = Some(o);
                self.rec.overlap();
            }
            None if started_before => self.rec.sequential_duplicate(),
            None => {}
        }
        let l = &mut self.live[d as usize];
        l.phase = Phase::Running;
        l.read = read;
        l.generation += 1;
        self.pool.advance(now);
        l.target = self.pool.add(d, l.generation, l.left);
        self.pool_dirty = true;
        if self.cfg.client != ClientPolicy::None {
            self.client_start(d);
        } else if let Some(h) = &self.cfg.heartbeat {
            if h.max_extensions != Some(0) {
                l.tick_pending = true;
                self.clock
                    .schedule(now + h.interval_ms, Ev::Tick { delivery: d });
            }
        }
        if self.cfg.ack_at == AckAt::BeforeWork {
            // Celery's `acks_late=False`: acked as the task starts.
            self.live[d as usize].acked_at_start = true;
            self.note_ack_delay(w, d);
            self.send_call(w, Call::Ack { delivery: d });
        }
        if self.cfg.cpu_bound && self.cfg.renewal == Renewal::EventLoop {
            self.block_loop(w, d);
        }
    }

    /// True while a CPU-bound run blocks the worker's event loop: its
    /// renewals wait.
    fn loop_blocked(&self, d: u32) -> bool {
        self.workers[self.live[d as usize].worker as usize]
            .blocked_by
            .is_some()
    }

    /// A held message's ETA has come: it joins the worker's buffer.
    fn eta_due(&mut self, d: u32) {
        let l = &mut self.live[d as usize];
        l.eta_wait = false;
        if l.phase != Phase::Buffered {
            return;
        }
        let w = l.worker;
        let wk = &mut self.workers[w as usize];
        wk.eta_held.retain(|&x| x != d);
        wk.held += 1;
        wk.buffer.push_back(d);
        self.worker_try(w);
    }

    /// A heartbeat is due on the grid `start + k * interval`.
    pub(crate) fn tick(&mut self, d: u32) {
        if self.live[d as usize].eta_wait {
            self.eta_due(d);
            return;
        }
        if self.cfg.client != ClientPolicy::None {
            self.client_tick(d);
            return;
        }
        let Some(h) = self.cfg.heartbeat.clone() else {
            return;
        };
        let blocked = self.loop_blocked(d);
        let l = &mut self.live[d as usize];
        l.tick_pending = false;
        match l.phase {
            Phase::Running | Phase::Hung if !blocked => {}
            Phase::Running | Phase::Hung | Phase::Paused => {
                // Collapses into one at resume (or when the loop is free).
                l.tick_missed = true;
                return;
            }
            _ => return,
        }
        self.send_heartbeat(d, h.max_extensions);
        self.schedule_next_tick(d, h.interval_ms);
    }

    pub(crate) fn send_heartbeat(&mut self, d: u32, cap: Option<u32>) {
        let l = &mut self.live[d as usize];
        // The cap counts requests sent, rejected ones included.
        if cap.is_some_and(|c| l.extensions_sent >= c) {
            return;
        }
        l.extensions_sent += 1;
        let w = l.worker;
        let by_ms = self
            .cfg
            .heartbeat
            .as_ref()
            .map_or(self.cfg.visibility_timeout_ms, |h| h.extend_by_ms);
        self.send_call(w, Call::Extend { delivery: d, by_ms });
    }

    /// A handler starts under a client library: plan its first step
    /// (docs/MODEL.md "Client libraries").
    fn client_start(&mut self, d: u32) {
        let now = self.now;
        let at = match self.cfg.client {
            ClientPolicy::None => return,
            // The lease manager extends at once, by what it expects the handler to need.
            ClientPolicy::Pubsub { .. } => now,
            ClientPolicy::ServiceBus { .. } => {
                let until =
                    self.deliveries[d as usize].received_at + self.cfg.visibility_timeout_ms;
                let left = until.saturating_sub(now);
                now + left - service_bus_renew_before_ms(left)
            }
            ClientPolicy::SqsLambda {
                function_timeout_ms,
            } => now + function_timeout_ms,
        };
        self.live[d as usize].tick_pending = true;
        self.clock.schedule(at, Ev::Tick { delivery: d });
    }

    /// A client library's step for one handler: extend, renew, or kill.
    pub(crate) fn client_tick(&mut self, d: u32) {
        let blocked = self.loop_blocked(d);
        let l = &mut self.live[d as usize];
        l.tick_pending = false;
        let lambda = matches!(self.cfg.client, ClientPolicy::SqsLambda { .. });
        match l.phase {
            // Lambda's timer runs outside the handler's process.
            Phase::Running | Phase::Hung | Phase::Paused if lambda => {}
            Phase::Running | Phase::Hung if !blocked => {}
            Phase::Running | Phase::Hung | Phase::Paused => {
                l.tick_missed = true;
                return;
            }
            _ => return,
        }
        let w = l.worker;
        let since_receive = self.now - self.deliveries[d as usize].received_at;
        let (by_ms, next) = match self.cfg.client {
            ClientPolicy::None => return,
            ClientPolicy::SqsLambda { .. } => {
                self.abort(w, d);
                return;
            }
            ClientPolicy::Pubsub { max_lease_ms } => {
                if since_receive >= max_lease_ms {
                    return;
                }
                let by = pubsub_extension_ms(
                    &self.workers[w as usize].ack_seconds,
                    self.cfg.visibility_timeout_ms,
                );
                // Again before nine tenths of the extension have passed.
                (by, by * 9 / 10)
            }
            ClientPolicy::ServiceBus { max_renewal_ms } => {
                if since_receive >= max_renewal_ms {
                    return;
                }
                let lock = self.cfg.visibility_timeout_ms;
                (lock, lock - service_bus_renew_before_ms(lock))
            }
        };
        let l = &mut self.live[d as usize];
        l.extensions_sent += 1;
        l.tick_pending = true;
        self.send_call(w, Call::Extend { delivery: d, by_ms });
        self.clock
            .schedule(self.now + next.max(1), Ev::Tick { delivery: d });
    }

    /// Pub/Sub's client keeps the delay from receive to ack, in whole
    /// seconds rounded up, within the bounds of an extension.
    fn note_ack_delay(&mut self, w: u32, d: u32) {
        if !matches!(self.cfg.client, ClientPolicy::Pubsub { .. }) {
            return;
        }
        let delay = self.now - self.deliveries[d as usize].received_at;
        let top = (PUBSUB_MAX_EXTENSION_MS / 1_000) as usize;
        let s = (delay.div_ceil(1_000) as usize).min(top);
        let h = &mut self.workers[w as usize].ack_seconds;
        if h.is_empty() {
            h.resize(top + 1, 0);
        }
        h[s] += 1;
    }

    pub(crate) fn schedule_next_tick(&mut self, d: u32, interval: u64) {
        // Past `max_extensions` a tick sends nothing and logs nothing: do not
        // schedule it. Otherwise a capped heartbeat every millisecond on a
        // twelve-hour handler takes 43 million silent steps, which
        // the event estimate cannot see. Dropping no-op events changes no
        // order: the clock pops by (time, kind, schedule sequence).
        let cap = self.cfg.heartbeat.as_ref().and_then(|h| h.max_extensions);
        if cap.is_some_and(|c| self.live[d as usize].extensions_sent >= c) {
            return;
        }
        let start = self.deliveries[d as usize].started_at.unwrap_or(self.now);
        let k = (self.now - start) / interval + 1;
        let l = &mut self.live[d as usize];
        l.tick_pending = true;
        self.clock
            .schedule(start + k * interval, Ev::Tick { delivery: d });
    }

    /// Handlers whose work is done at this instant.
    pub(crate) fn finish_due(&mut self) {
        self.pool.advance(self.now);
        loop {
            let live = &self.live;
            let Some(d) = self.pool.pop_done(|x, g| is_current(live, x, g)) else {
                break;
            };
            self.pool_dirty = true;
            self.finish(d);
        }
        // Even if nothing finished (rounding), the next finish must be planned again.
        self.pool_dirty = true;
    }

    fn finish(&mut self, d: u32) {
        let w = self.deliveries[d as usize].worker;
        self.finish_run(d);
        // The event loop is free again, unless the run hangs on it.
        if self.live[d as usize].phase != Phase::Hung {
            self.unblock_loop(w, d);
        }
    }

    fn finish_run(&mut self, d: u32) {
        let now = self.now;
        let del = &mut self.deliveries[d as usize];
        let (id, receipt, w) = (del.message, del.receipt, del.worker);
        del.work_done_ms = del.work_needed_ms;
        self.log(EventKind::Finish, id, w, receipt);
        // The draw has a stream of its own (message, receipt), so skipping
        // it when nothing can fail changes no other draw.
        let u = if self.cfg.error_rate + self.cfg.hang_rate > 0.0 {
            finish_draw(self.seed, id, receipt)
        } else {
            1.0
        };
        // An override replaces what the draw decided; the draw is keyed by
        // (message, receipt), so no other run's draw moves.
        let forced = self.run_override(id, receipt);
        let (fail, hang) = match forced {
            Some(RunOutcome::Fail) => (true, false),
            Some(RunOutcome::Hang) => (false, true),
            Some(RunOutcome::LoseAck) => (false, false),
            None => (
                u < self.cfg.error_rate,
                u < self.cfg.error_rate + self.cfg.hang_rate,
            ),
        };
        if fail {
            let del = &mut self.deliveries[d as usize];
            del.outcome = Outcome::Error;
            del.ended_at = Some(now);
            self.rec.error();
            self.log(EventKind::Error, id, w, receipt);
            if self.live[d as usize].acked_at_start {
                // Acked before the work: the broker has nothing to release.
                self.handler_done(w, d);
                return;
            }
            match self.cfg.on_error {
                OnError::Release => {
                    self.live[d as usize].phase = Phase::Settling;
                    self.send_call(w, Call::Release { delivery: d });
                }
                // The broker never learns of the error: the lease runs out.
                OnError::Expire => self.handler_done(w, d),
            }
            return;
        }
        if hang {
            let del = &mut self.deliveries[d as usize];
            del.outcome = Outcome::Hung;
            self.live[d as usize].phase = Phase::Hung;
            self.rec.hang();
            self.log(EventKind::Hang, id, w, receipt);
            return;
        }
        let read = self.live[d as usize].read;
        let effect = self.msgs[id as usize]
            .store
            .commit(self.cfg.fence, receipt, read);
        let del = &mut self.deliveries[d as usize];
        del.ended_at = Some(now);
        del.effect = effect;
        del.committed_at = Some(now);
        let kind = match effect {
            Effect::Applied => EventKind::CommitApplied,
            Effect::Duplicate => EventKind::CommitDuplicate,
            Effect::LostUpdate => EventKind::CommitLostUpdate,
            Effect::FenceRejected | Effect::NoCommit => EventKind::CommitFenceRejected,
        };
        self.rec.commit(now, effect);
        self.mark(d, MarkKind::Commit);
        self.log(kind, id, w, receipt);
        if self.live[d as usize].acked_at_start {
            // The ack went as the run started.
            self.handler_done(w, d);
            return;
        }
        if forced == Some(RunOutcome::LoseAck) {
            // The delete is lost on its way: the broker hears nothing, the
            // lease runs out; the client gives up on the call and frees the slot.
            self.deliveries[d as usize].outcome = Outcome::AckRejected;
            self.handler_done(w, d);
            return;
        }
        if self.channel_closed_since_receive(w, d) {
            // AMQP 0-9-1: a channel the broker closed carries no more
            // frames, and a delivery tag names a delivery on its own
            // channel only: the client cannot send the ack (pika raises
            // ChannelWrongStateError, nothing is sent). A rejected ack that
            // never reaches the broker, and closes nothing.
            self.deliveries[d as usize].outcome = Outcome::AckRejected;
            self.rec.ack(now, false, 0, 0);
            self.mark(d, MarkKind::AckRejected);
            self.log(EventKind::AckUnsent, id, w, receipt);
            self.handler_done(w, d);
            return;
        }
        // Even after a fence rejection the worker acks: someone else committed.
        self.live[d as usize].phase = Phase::Settling;
        self.note_ack_delay(w, d);
        self.send_call(w, Call::Ack { delivery: d });
    }

    /// The broker closed the channel the delivery came on (a consumer
    /// timeout, `expiry_takes: channel`) since it was received. Under
    /// `late_ack: channel_error` the client reopens the channel under its
    /// number and sends the old tag on it, so the ack is sent.
    fn channel_closed_since_receive(&self, w: u32, d: u32) -> bool {
        self.cfg.expiry_takes == ExpiryTakes::Channel
            && self.cfg.late_ack != LateAck::ChannelError
            && self.workers[w as usize].channel_opened_at > self.deliveries[d as usize].received_at
    }

    /// The handler gives its slot back.
    pub(crate) fn handler_done(&mut self, w: u32, d: u32) {
        self.live[d as usize].phase = Phase::Done;
        self.handlers_alive -= 1;
        let wk = &mut self.workers[w as usize];
        wk.held -= 1;
        if let Some(s) = wk.slots.iter_mut().find(|s| **s == Some(d)) {
            *s = None;
        }
        self.worker_try(w);
    }

    pub(crate) fn worker_reply(&mut self, w: u32, reply: Reply) {
        match reply {
            Reply::Received { first, count } => {
                self.workers[w as usize].polling = false;
                for d in first..first + count {
                    self.live[d as usize].phase = Phase::Buffered;
                    let arrived =
                        self.msgs[self.deliveries[d as usize].message as usize].arrived_at;
                    let due = arrived.saturating_add(self.cfg.eta_ms);
                    let wk = &mut self.workers[w as usize];
                    if self.cfg.eta_ms > 0 && due > self.now {
                        // Celery holds an ETA task in memory, outside its
                        // prefetch, and keeps fetching; its lease runs on.
                        wk.eta_held.push(d);
                        self.live[d as usize].eta_wait = true;
                        self.clock.schedule(due, Ev::Tick { delivery: d });
                    } else {
                        wk.held += 1;
                        wk.buffer.push_back(d);
                    }
                }
                self.worker_try(w);
            }
            Reply::Extended { delivery, ok } => {
                // A client library carries on, as `on_reject: continue`.
                let on_reject = self.cfg.heartbeat.as_ref().map(|h| h.on_reject);
                if !ok && on_reject == Some(OnReject::Abort) {
                    self.abort(w, delivery);
                }
            }
            Reply::Acked { delivery, answer } => {
                let del = &mut self.deliveries[delivery as usize];
                if del.outcome != Outcome::Skipped {
                    del.outcome = match answer {
                        AckAnswer::Accepted => Outcome::Acked,
                        AckAnswer::Rejected => Outcome::AckRejected,
                        AckAnswer::NoOp => Outcome::AckNoOp,
                    };
                }
                // An ack sent as the run started leaves the run going.
                if self.live[delivery as usize].phase == Phase::Settling {
                    self.handler_done(w, delivery);
                }
            }
            Reply::Released { delivery } => self.handler_done(w, delivery),
        }
    }

    /// `on_reject: abort`: stop without commit, ack or release.
    fn abort(&mut self, w: u32, d: u32) {
        let phase = self.live[d as usize].phase;
        if !matches!(phase, Phase::Running | Phase::Paused | Phase::Hung) {
            return;
        }
        self.stop_work(d);
        let del = &mut self.deliveries[d as usize];
        del.outcome = Outcome::Aborted;
        del.ended_at = Some(self.now);
        let (id, receipt) = (del.message, del.receipt);
        self.log(EventKind::Abort, id, w, receipt);
        self.handler_done(w, d);
        self.unblock_loop(w, d);
    }

    /// Take a running or paused handler out of the pool, recording its work done.
    pub(crate) fn stop_work(&mut self, d: u32) {
        let l = &mut self.live[d as usize];
        let left = match l.phase {
            Phase::Running => {
                self.pool.advance(self.now);
                self.pool.remove();
                self.pool_dirty = true;
                self.pool.left(l.target)
            }
            Phase::Paused => l.left,
            _ => return,
        };
        l.left = left;
        let del = &mut self.deliveries[d as usize];
        let done = (del.work_needed_ms as f64 - left).max(0.0);
        del.work_done_ms = (done.round() as u64).min(del.work_needed_ms);
    }

    /// A reply that reached a crashed worker: the messages in it stay leased
    /// until they expire; nobody will run them.
    pub(crate) fn lost_reply(&mut self, reply: Reply) {
        if let Reply::Received { first, count } = reply {
            for d in first..first + count {
                self.deliveries[d as usize].outcome = Outcome::Crashed;
                self.live[d as usize].phase = Phase::Done;
                self.handlers_alive -= 1;
                self.orphaned(d);
            }
        }
    }
}
