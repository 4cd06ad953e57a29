//! The broker's rules (docs/MODEL.md "Messages and the broker", "Broker presets").
//! The broker judges each call at the instant it arrives and never asks a
//! worker anything.

use super::{new_delivery, Live, Phase, Poll, Sim, State};
use crate::clock::{AckAnswer, Call, Ev, Reply};
use crate::run::{DeadLetterCause, EventKind, LeaseEnd, MarkKind, NONE};
use crate::scenario::{
    CountAt, DeletedAck, DlqTiming, ExpiryTakes, LateAck, PastLimit, RetryOn, StaleDelete,
};
use crate::work::attempt_need;

impl Sim<'_> {
    pub(crate) fn make_available(&mut self, id: u32) {
        self.msgs[id as usize].state = State::Available;
        self.available_count += 1;
        // Moved back by BullMQ's stalled checker: queued at the head once
        // the check is over (`stalled.rs`).
        if let Some(head) = self.stall.as_mut().and_then(|st| st.to_head.as_mut()) {
            head.push(id);
            return;
        }
        self.available.push(self.now, id);
    }

    /// `expiry_takes: claim`: the claimer takes the message and hands it to
    /// the next receive, ahead of the queue. It counts as waiting in the
    /// queue until a worker receives it.
    fn make_claimed(&mut self, id: u32) {
        self.msgs[id as usize].state = State::Available;
        self.claimed.push_back(id);
        self.available_count += 1;
    }

    /// A delay before redelivery (docs/MODEL.md "A delay before
    /// redelivery"): the message is in the queue, counted in its depth, but
    /// no receive hands it out until the delay is over.
    fn make_available_after(&mut self, id: u32, delay: u64) {
        self.msgs[id as usize].state = State::Available;
        self.available_count += 1;
        self.clock
            .schedule(self.now.saturating_add(delay), Ev::Ready { message: id });
    }

    /// The delay is over: the message joins the queue, unless a late ack
    /// deleted it meanwhile.
    pub(crate) fn ready(&mut self, id: u32) {
        if self.msgs[id as usize].state == State::Available {
            self.available.push(self.now, id);
        }
    }

    /// A process starts (a restart): under `expiry_takes: orphans`, if the
    /// orphan check is due (`expiry_check_ms` since the last one), it takes
    /// back every delivery a crashed process held whose heartbeat has
    /// expired (the timeout since the crash). Sidekiq Pro's `super_fetch`.
    pub(crate) fn orphan_check(&mut self) {
        if self.cfg.expiry_takes != ExpiryTakes::Orphans {
            return;
        }
        let due = self
            .cfg
            .expiry_check_ms
            .is_none_or(|p| self.now >= self.last_orphan_check.saturating_add(p));
        if !due {
            return;
        }
        self.last_orphan_check = self.now;
        let expiry = self.cfg.visibility_timeout_ms;
        let now = self.now;
        let (ripe, left): (Vec<_>, Vec<_>) = std::mem::take(&mut self.orphans)
            .into_iter()
            .partition(|o| o.since.saturating_add(expiry) <= now);
        self.orphans = left;
        for o in ripe {
            let m = &self.msgs[o.message as usize];
            if m.state == State::InFlight && m.receive_count == o.receipt {
                self.take_back(o.message);
            }
        }
    }

    /// A crashed process's delivery waits for an orphan check.
    pub(crate) fn orphaned(&mut self, d: u32) {
        if self.cfg.expiry_takes != ExpiryTakes::Orphans {
            return;
        }
        let del = &self.deliveries[d as usize];
        self.orphans.push(super::Orphan {
            since: self.now,
            message: del.message,
            receipt: del.receipt,
        });
    }

    /// The message is past its delivery limit: dead-lettered, dropped or
    /// left in the stream with an advisory, as `past_limit` says.
    fn dead_letter(&mut self, id: u32, cause: DeadLetterCause) {
        let m = &mut self.msgs[id as usize];
        m.state = State::PastLimit;
        m.cause = Some(cause);
        m.ended_at = self.now;
        self.dead_count += 1;
        let kind = match (self.cfg.past_limit, cause) {
            (PastLimit::DeadLetter, DeadLetterCause::Expired) => EventKind::DeadLetterExpired,
            (PastLimit::DeadLetter, DeadLetterCause::Failed) => EventKind::DeadLetterFailed,
            (PastLimit::Drop, _) => EventKind::Dropped,
            (PastLimit::Stay, _) => EventKind::MaxDeliveries,
        };
        self.rec.past_limit(self.now, self.cfg.past_limit, cause);
        self.log(kind, id, NONE, NONE);
    }

    /// A lease ended without an ack (expiry) or by a release: back to the
    /// queue, or to the dead-letter queue if the count is exhausted.
    fn lease_over(&mut self, id: u32, cause: DeadLetterCause) {
        self.in_flight_count -= 1;
        let max = self.cfg.max_receive_count;
        let m = &mut self.msgs[id as usize];
        // RabbitMQ 4.3: a consumer timeout is no failure; the limit never sees it.
        let uncounted = cause == DeadLetterCause::Expired && !self.cfg.expiry_counts;
        match self.cfg.count_at {
            CountAt::ExpiryOrAbandon if !uncounted => m.dlq_count += 1,
            // Counted at the receive: that receive no longer counts.
            CountAt::Receive if uncounted => m.dlq_count = m.dlq_count.saturating_sub(1),
            _ => {}
        }
        // BullMQ: past `maxStalledCount` stalls the job fails at once,
        // skipping its retries (`attempts`).
        let stalled_out = cause == DeadLetterCause::Expired
            && self.cfg.max_expiries.is_some_and(|n| m.expiries > n);
        if stalled_out {
            self.dead_letter(id, cause);
            return;
        }
        let exhausted = max.is_some_and(|n| m.dlq_count >= n);
        if !exhausted
            && cause == DeadLetterCause::Expired
            && self.cfg.expiry_takes == ExpiryTakes::Claim
        {
            self.make_claimed(id);
            return;
        }
        if !exhausted {
            // The retry index: 0 after the first delivery.
            let k = m.receive_count.saturating_sub(1);
            // BullMQ: a stalled job goes back to wait at once, whatever its backoff.
            let delayed = cause == DeadLetterCause::Failed || self.cfg.retry_on == RetryOn::Every;
            match self.cfg.retry.filter(|_| delayed).map(|r| r.delay_ms(k)) {
                Some(delay) if delay > 0 => self.make_available_after(id, delay),
                _ => self.make_available(id),
            }
            return;
        }
        match self.cfg.dlq_timing {
            DlqTiming::OnExpiry => self.dead_letter(id, cause),
            DlqTiming::OnNextReceive => {
                self.msgs[id as usize].exhausted = Some(cause);
                self.make_available(id);
            }
        }
    }

    /// Hand out the oldest available message, if the queue allows one now:
    /// a claimed one first, even one a late ack has deleted since its claim
    /// (its copy is already on its way to a worker).
    fn take_available(&mut self) -> Option<u32> {
        if !(self.cfg.single_group_fifo && self.in_flight_count > 0) {
            while let Some(id) = self.claimed.pop_front() {
                match self.msgs[id as usize].state {
                    State::Available => {
                        self.available_count -= 1;
                        return Some(id);
                    }
                    State::Deleted => return Some(id),
                    State::InFlight | State::PastLimit => {}
                }
            }
        }
        loop {
            if self.cfg.single_group_fifo && self.in_flight_count > 0 {
                return None;
            }
            let id = self.available.pop()?;
            let m = &self.msgs[id as usize];
            // A message is queued once per time it becomes available; an
            // entry whose message was deleted or dead-lettered since is stale.
            if m.state != State::Available {
                continue;
            }
            self.available_count -= 1;
            if let Some(cause) = m.exhausted {
                // SQS: the receive after the count is exceeded moves it.
                self.dead_letter(id, cause);
                continue;
            }
            return Some(id);
        }
    }

    /// Answer a receive with up to `want` messages; `false` when none was available.
    fn answer_receive(&mut self, worker: u32, epoch: u32, want: u32) -> bool {
        let first = self.deliveries.len() as u32;
        let mut count = 0;
        while count < want {
            let Some(id) = self.take_available() else {
                break;
            };
            self.hand_out(id, worker);
            count += 1;
        }
        if count == 0 {
            return false;
        }
        self.send_reply(worker, epoch, Reply::Received { first, count });
        true
    }

    fn hand_out(&mut self, id: u32, worker: u32) {
        let now = self.now;
        let ix = self.deliveries.len() as u32;
        let m = &mut self.msgs[id as usize];
        // A claimed copy of an entry a late ack settled after the claim
        // (`expiry_takes: claim`): delivered and run, holding no lease.
        let settled = m.state == State::Deleted;
        let mut timeout = self.cfg.lease_ms(m.receive_count + 1);
        // Temporal: with a HeartbeatTimeout the first heartbeat is due
        // within it, so the attempt's first lease is the shorter of the two.
        if let (true, Some(h)) = (self.cfg.attempt_cap, &self.cfg.heartbeat) {
            timeout = timeout.min(h.extend_by_ms);
        }
        m.receive_count += 1;
        if self.cfg.count_at == CountAt::Receive {
            m.dlq_count += 1;
        }
        let receipt = m.receive_count;
        if !settled {
            m.state = State::InFlight;
            m.expires_at = now + timeout;
            m.lease_set_at = now;
            m.claim_deferred_to = 0;
        }
        let prev = m.current;
        m.current = ix;
        let need = attempt_need(
            self.seed,
            self.scenario.work.attempt_jitter,
            id,
            receipt,
            m.work_ms,
        );
        // The draw is still made, so no other run's work moves.
        let need = self.work_override(id, receipt).unwrap_or(need);
        let mut delivery = new_delivery(id, receipt, worker, now, need);
        if settled {
            // Nothing is pending for it: its lease is over as it begins,
            // as for a holder whose message a late ack deleted.
            delivery.lease_end = LeaseEnd::Expired;
        } else {
            self.in_flight_count += 1;
        }
        self.deliveries.push(delivery);
        self.live.push(Live {
            prev,
            phase: Phase::InTransit,
            worker,
            target: 0.0,
            left: need as f64,
            generation: 0,
            read: 0,
            extensions_sent: 0,
            tick_pending: false,
            tick_missed: false,
            checks_from: if self.cfg.expiry_takes == ExpiryTakes::Channel {
                self.workers[worker as usize].channel_opened_at
            } else {
                0
            },
            eta_wait: false,
            acked_at_start: false,
        });
        self.handlers_alive += 1;
        self.rec.delivery(now, receipt > 1);
        self.log(EventKind::Receive, id, worker, receipt);
        if !settled {
            self.rec.lease_started(now, id, receipt);
            self.schedule_expiry(ix, id, receipt, now + timeout);
            self.stall_track(id, receipt);
        }
    }

    /// When the broker takes a lease back (docs/MODEL.md "Expiry noticed
    /// on a periodic check"); `u64::MAX`: never.
    fn taken_back_at(&self, d: u32, deadline: u64) -> u64 {
        // BullMQ's checker runs in the workers (`stalled.rs`): no timer here.
        if self.stall.is_some() {
            return u64::MAX;
        }
        let m = &self.msgs[self.deliveries[d as usize].message as usize];
        self.cfg
            .taken_back_at(self.live[d as usize].checks_from, deadline, m.lease_set_at)
            .max(m.claim_deferred_to)
    }

    fn schedule_expiry(&mut self, d: u32, message: u32, receipt: u32, deadline: u64) {
        let at = self.taken_back_at(d, deadline);
        if at != u64::MAX {
            self.clock.schedule(at, Ev::Expiry { message, receipt });
        }
    }

    /// Waiting long polls, first come first served.
    pub(crate) fn serve_polls(&mut self) {
        while self.available_count > 0 || !self.claimed.is_empty() {
            let Some(p) = self.polls.front().copied() else {
                return;
            };
            if self.workers[p.worker as usize].epoch != p.epoch {
                self.polls.pop_front();
                continue;
            }
            if !self.answer_receive(p.worker, p.epoch, p.want) {
                return;
            }
            self.polls.pop_front();
        }
    }

    pub(crate) fn expire(&mut self, id: u32, receipt: u32) {
        let m = &self.msgs[id as usize];
        if m.state != State::InFlight
            || m.receive_count != receipt
            || self.taken_back_at(m.current, m.expires_at) != self.now
        {
            return;
        }
        if self.cfg.expiry_takes == ExpiryTakes::Claim {
            if let (Some(period), Some(count)) = (
                self.cfg.expiry_check_ms.filter(|&p| p > 0),
                self.cfg.claim_count,
            ) {
                self.claim_sweep(period, count);
                return;
            }
        }
        let worker = self.deliveries[m.current as usize].worker;
        self.take_back(id);
        if self.cfg.expiry_takes == ExpiryTakes::Channel {
            self.close_channel(worker);
        }
    }

    /// A claimer's sweep (XAUTOCLAIM from `0-0`): of the pending entries
    /// idle past `min-idle-time`, it claims at most `COUNT`, in ID order
    /// (the oldest message first); the others stay pending with their
    /// holders until the next sweep, one period later.
    fn claim_sweep(&mut self, period: u64, count: u32) {
        if self.claim_swept_at == Some(self.now) {
            return;
        }
        self.claim_swept_at = Some(self.now);
        // Sorted as u64, as the run's figures are (docs/ARCHITECTURE.md, size rules).
        let mut due: Vec<u64> = self
            .rec
            .leases
            .iter()
            .filter(|&&(_, id, receipt)| {
                let m = &self.msgs[id as usize];
                self.is_current(id, receipt)
                    && self.taken_back_at(m.current, m.expires_at) == self.now
            })
            .map(|&(_, id, _)| u64::from(id))
            .collect();
        due.sort_unstable();
        due.dedup();
        let count = count as usize;
        let next = self.now.saturating_add(period);
        for (i, id) in due.into_iter().enumerate() {
            let id = id as u32;
            if i < count {
                self.take_back(id);
            } else {
                let m = &mut self.msgs[id as usize];
                m.claim_deferred_to = next;
                let receipt = m.receive_count;
                self.clock.schedule(
                    next,
                    Ev::Expiry {
                        message: id,
                        receipt,
                    },
                );
            }
        }
    }

    /// The broker ends the message's current lease without an ack: back to
    /// the queue (`redelivered`), or to the dead-letter queue.
    pub(crate) fn take_back(&mut self, id: u32) {
        let m = &mut self.msgs[id as usize];
        m.expiries += 1;
        let receipt = m.receive_count;
        // The deadline it passed, if it did: a channel closed by another
        // delivery's timeout takes this one inside its own lease, and an
        // orphan's clock runs from its process's crash, not its receive.
        let passed = m.expires_at <= self.now && self.cfg.expiry_takes != ExpiryTakes::Orphans;
        let deadline = passed.then_some(m.expires_at);
        let del = &mut self.deliveries[m.current as usize];
        del.lease_end = LeaseEnd::Expired;
        del.lease_ended_at = self.now;
        del.deadline = deadline;
        let worker = del.worker;
        self.rec.expiry(self.now);
        self.log(EventKind::Expire, id, worker, receipt);
        self.lease_over(id, DeadLetterCause::Expired);
    }

    /// RabbitMQ closes a worker's channel (a consumer timeout up to 4.2, or
    /// an ack with a delivery tag it no longer knows): every delivery the
    /// worker holds unacked, running or prefetched, goes back to the queue,
    /// oldest lease first. The worker opens a new channel at once and
    /// keeps running what it has.
    fn close_channel(&mut self, worker: u32) {
        let held: Vec<u32> = self
            .rec
            .leases
            .iter()
            .filter(|&&(_, id, receipt)| {
                let m = &self.msgs[id as usize];
                self.is_current(id, receipt) && self.deliveries[m.current as usize].worker == worker
            })
            .map(|&(_, id, _)| id)
            .collect();
        for id in held {
            self.take_back(id);
        }
        self.workers[worker as usize].channel_opened_at = self.now;
    }

    pub(crate) fn broker_call(&mut self, worker: u32, epoch: u32, call: Call) {
        match call {
            Call::Receive { want } => {
                if !self.polls.is_empty() || !self.answer_receive(worker, epoch, want) {
                    self.polls.push_back(Poll {
                        worker,
                        epoch,
                        want,
                    });
                }
            }
            Call::Extend { delivery, by_ms } => {
                let ok = self.judge_extend(delivery, by_ms);
                self.send_reply(worker, epoch, Reply::Extended { delivery, ok });
            }
            Call::Ack { delivery } => {
                let answer = self.judge_ack(delivery);
                self.send_reply(worker, epoch, Reply::Acked { delivery, answer });
            }
            Call::Release { delivery } => {
                self.judge_release(delivery);
                self.send_reply(worker, epoch, Reply::Released { delivery });
            }
        }
    }

    /// Whether a lease record (message `id`, its `receipt`) is the message's
    /// lease now: in flight, and not since received again.
    fn is_current(&self, id: u32, receipt: u32) -> bool {
        let m = &self.msgs[id as usize];
        m.state == State::InFlight && m.receive_count == receipt
    }

    /// Holds the current receipt of a valid lease.
    fn holds_lease(&self, delivery: u32) -> bool {
        let d = &self.deliveries[delivery as usize];
        let m = &self.msgs[d.message as usize];
        // Until the broker takes it back: on a periodic check, a lease past
        // its deadline still holds until the check.
        m.state == State::InFlight
            && m.receive_count == d.receipt
            && self.cfg.lease_holds_at(
                self.now,
                self.taken_back_at(delivery, m.expires_at),
                m.expires_at,
            )
    }

    fn judge_extend(&mut self, delivery: u32, extend_by: u64) -> bool {
        let d = &self.deliveries[delivery as usize];
        let (id, receipt, worker) = (d.message, d.receipt, d.worker);
        let m = &self.msgs[id as usize];
        // JetStream's `progressUpdate` looks the stream sequence up in the
        // consumer's pending set and resets that entry's timestamp: any
        // delivery's `+WPI` restarts the timer of the one the server now
        // holds, by its own AckWait (or BackOff step), whatever the call
        // asked for.
        let by_message = self.cfg.progress_by_message && m.state == State::InFlight;
        let (held, held_receipt, extend_by) = if by_message {
            (
                m.current,
                m.receive_count,
                self.cfg.lease_ms(m.receive_count),
            )
        } else {
            (delivery, receipt, extend_by)
        };
        // Never clamped: past the lifetime cap the whole request is refused.
        let within_cap = self
            .cfg
            .max_lease_lifetime_ms
            .is_none_or(|cap| self.now + extend_by <= d.received_at + cap);
        let ok = (by_message || self.holds_lease(delivery)) && within_cap;
        let d = &mut self.deliveries[delivery as usize];
        if ok {
            d.extensions_ok += 1;
            // A reset from now, as SQS does, not an addition; under
            // Temporal never past the attempt's StartToClose.
            let mut until = self.now + extend_by;
            if self.cfg.attempt_cap {
                until = until.min(d.received_at + self.cfg.lease_ms(receipt));
            }
            let m = &mut self.msgs[id as usize];
            m.expires_at = until;
            m.lease_set_at = self.now;
            m.claim_deferred_to = 0;
            self.schedule_expiry(held, id, held_receipt, until);
            self.stall_unmark(id);
            self.rec.extension(self.now, true);
            self.mark(delivery, MarkKind::ExtendOk);
            self.log(EventKind::ExtendOk, id, worker, receipt);
        } else {
            d.extensions_rejected += 1;
            self.rec.extension(self.now, false);
            self.mark(delivery, MarkKind::ExtendRejected);
            self.log(EventKind::ExtendRejected, id, worker, receipt);
        }
        ok
    }

    fn judge_ack(&mut self, delivery: u32) -> AckAnswer {
        let d = &self.deliveries[delivery as usize];
        let (id, receipt, worker) = (d.message, d.receipt, d.worker);
        let m = &self.msgs[id as usize];
        let valid = self.holds_lease(delivery);
        // SQS standard, Pub/Sub: a late delete with the latest receipt still
        // works while nobody else holds the message.
        let late = !valid
            && self.cfg.late_ack == LateAck::AcceptedIfNotRedelivered
            && m.state == State::Available
            && m.receive_count == receipt;
        // `stale_delete: permissive`, `late_ack: accepted_always`: any
        // receipt of a message still in the queue deletes it, even one a
        // later receive has replaced.
        let stale = !valid
            && !late
            && (self.cfg.stale_delete == StaleDelete::Permissive
                || self.cfg.late_ack == LateAck::AcceptedAlways)
            && matches!(m.state, State::Available | State::InFlight);
        // A message left in the stream past its limit is out of the
        // consumer's pending set, as an acked one is: nats-server's
        // `processAckMsgLocked` finds no pending entry and skips it.
        let settled = m.state == State::Deleted
            || (m.state == State::PastLimit && self.cfg.past_limit == PastLimit::Stay);
        if !(valid || late || stale) && settled && self.cfg.deleted_ack == DeletedAck::NoOp {
            // SQS standard, JetStream, Redis `XACK`, kombu's Redis ack: an
            // ack of a message already deleted (or, under JetStream, left
            // in the stream past `MaxDeliver`) is answered as a success
            // and changes nothing (docs/MODEL.md "An ack of a message
            // already deleted").
            self.rec.ack_no_op();
            self.mark(delivery, MarkKind::AckNoOp);
            self.log(EventKind::AckNoOp, id, worker, receipt);
            return AckAnswer::NoOp;
        }
        if !(valid || late || stale) {
            self.rec.ack(self.now, false, 0, 0);
            self.mark(delivery, MarkKind::AckRejected);
            self.log(EventKind::AckRejected, id, worker, receipt);
            if self.cfg.late_ack == LateAck::ChannelError {
                self.close_channel(worker);
            }
            return AckAnswer::Rejected;
        }
        if valid {
            self.in_flight_count -= 1;
            let d = &mut self.deliveries[delivery as usize];
            d.lease_end = LeaseEnd::Acked;
            d.lease_ended_at = self.now;
        } else if m.state == State::InFlight {
            // Deleted from under the worker holding the latest receipt: its
            // lease ends here, and its own ack will find nothing.
            self.in_flight_count -= 1;
            let holder = &mut self.deliveries[m.current as usize];
            holder.lease_end = LeaseEnd::Expired;
            holder.lease_ended_at = self.now;
            self.deliveries[delivery as usize].lease_end = LeaseEnd::AckedLate;
        } else {
            // It sat in the queue; its entry there goes stale.
            self.available_count -= 1;
            self.deliveries[delivery as usize].lease_end = LeaseEnd::AckedLate;
        }
        let received_at = self.deliveries[delivery as usize].received_at;
        let m = &mut self.msgs[id as usize];
        // The deadline the lease had at the ack: the timeout, or the last
        // extension's reset; a late ack is past it.
        let lease = m.expires_at.saturating_sub(received_at);
        m.state = State::Deleted;
        m.exhausted = None;
        m.ended_at = self.now;
        self.deleted_count += 1;
        self.rec.ack(self.now, true, self.now - received_at, lease);
        self.mark(delivery, MarkKind::AckOk);
        self.log(EventKind::AckOk, id, worker, receipt);
        AckAnswer::Accepted
    }

    fn judge_release(&mut self, delivery: u32) {
        let d = &self.deliveries[delivery as usize];
        let (id, receipt, worker) = (d.message, d.receipt, d.worker);
        if !self.holds_lease(delivery) {
            self.rec.release(false);
            self.mark(delivery, MarkKind::ReleaseRejected);
            self.log(EventKind::ReleaseRejected, id, worker, receipt);
            return;
        }
        let d = &mut self.deliveries[delivery as usize];
        d.lease_end = LeaseEnd::Released;
        d.lease_ended_at = self.now;
        self.rec.release(true);
        self.mark(delivery, MarkKind::Release);
        self.log(EventKind::Release, id, worker, receipt);
        self.lease_over(id, DeadLetterCause::Failed);
    }
}
