//! The invariants of docs/MODEL.md, checked after every event when a test asks
//! for it (`Options::check_invariants`). Each recounts from the messages
//! themselves rather than trusting the counters the engine keeps.

use super::{Sim, State};
use crate::run::{EventKind, LeaseEnd};
use crate::scenario::{DeletedAck, Fence, LateAck, PastLimit, StaleDelete};
use crate::SimError;

impl Sim<'_> {
    fn broken(&self, what: String) -> Result<(), SimError> {
        Err(SimError::Invariant { t: self.now, what })
    }

    pub(crate) fn check_invariants(&self) -> Result<(), SimError> {
        let (mut avail, mut flight, mut deleted, mut dead) = (0u64, 0u64, 0u64, 0u64);
        for (id, m) in self.msgs.iter().enumerate() {
            match m.state {
                State::Available => avail += 1,
                State::InFlight => flight += 1,
                State::Deleted => deleted += 1,
                State::PastLimit => dead += 1,
            }
            let mut chain: Vec<u32> = self.chain(id as u32).collect();
            chain.reverse();
            if m.receive_count as usize != chain.len() {
                return self.broken(format!(
                    "message {id}: receive_count {} but {} deliveries",
                    m.receive_count,
                    chain.len()
                ));
            }
            // No delivery while a valid lease on the same message is held:
            // every delivery's lease ended before the next one was handed out.
            for pair in chain.windows(2) {
                let (a, b) = (
                    &self.deliveries[pair[0] as usize],
                    &self.deliveries[pair[1] as usize],
                );
                if a.lease_end == LeaseEnd::Open || a.lease_ended_at > b.received_at {
                    return self.broken(format!(
                        "message {id}: receipt {} handed out at {} while receipt {} was leased until {}",
                        b.receipt, b.received_at, a.receipt, a.lease_ended_at
                    ));
                }
            }
            if self.cfg.fence == Fence::UniqueConstraint && m.store.applied > 1 {
                return self.broken(format!(
                    "message {id}: {} effects under unique_constraint",
                    m.store.applied
                ));
            }
        }
        let arrived = self.msgs.len() as u64;
        if arrived != avail + flight + deleted + dead {
            return self.broken(format!(
                "conservation: arrived {arrived} != available {avail} + in flight {flight} + deleted {deleted} + dead-lettered {dead}"
            ));
        }
        if (avail, flight, deleted, dead)
            != (
                self.available_count,
                self.in_flight_count,
                self.deleted_count,
                self.dead_count,
            )
        {
            return self.broken(format!(
                "counters ({}, {}, {}, {}) disagree with the messages ({avail}, {flight}, {deleted}, {dead})",
                self.available_count, self.in_flight_count, self.deleted_count, self.dead_count
            ));
        }
        // Every deletion matches an accepted ack carrying the current receipt.
        // `last_event`, not the stored log: the log may be capped (`keep_events`).
        if let Some(e) = self.last_event {
            if e.kind == EventKind::AckOk {
                let m = &self.msgs[e.message as usize];
                // `stale_delete: permissive` and `late_ack: accepted_always`
                // delete with an older receipt too.
                let stale_ok = self.cfg.stale_delete == StaleDelete::Permissive
                    || self.cfg.late_ack == LateAck::AcceptedAlways;
                if m.state != State::Deleted || (m.receive_count != e.receipt && !stale_ok) {
                    return self.broken(format!(
                        "message {}: ack with receipt {} accepted but current receipt is {}",
                        e.message, e.receipt, m.receive_count
                    ));
                }
            }
        }
        // An ack answered as a success that does nothing finds its message
        // already deleted, and only under `deleted_ack: no_op`.
        if let Some(e) = self.last_event {
            let settled = |state| {
                state == State::Deleted
                    || (state == State::PastLimit && self.cfg.past_limit == PastLimit::Stay)
            };
            if e.kind == EventKind::AckNoOp
                && (!settled(self.msgs[e.message as usize].state)
                    || self.cfg.deleted_ack != DeletedAck::NoOp)
            {
                return self.broken(format!(
                    "message {}: ack with receipt {} answered as nothing to settle, but the message is neither deleted nor left in the stream, or the broker rejects such acks",
                    e.message, e.receipt
                ));
            }
        }
        if deleted != self.rec.t.acks_ok {
            return self.broken(format!(
                "{deleted} deleted but {} acks accepted",
                self.rec.t.acks_ok
            ));
        }
        Ok(())
    }
}
