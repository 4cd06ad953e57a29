//! The recorder: counters and series as the run goes, and the report and
//! per-message records at the end (docs/MODEL.md "What a run reports").

use std::collections::VecDeque;

use super::{Msg, Phase, Sim, State};
use crate::report::{AckLatency, ReceiveCounts, Report, Series, Totals};
use crate::run::{DeadLetterCause, Effect, Fate, LeaseEnd, MessageRecord, Outcome, Run, NONE};
use crate::scenario::PastLimit;

/// The state the gauges sample at each bucket's end. The state only changes
/// at events, but ages grow between them: they are kept as start times and
/// measured from the bucket's end when sampled.
#[derive(Debug, Clone, Copy, Default)]
pub(crate) struct Gauges {
    pub queue_depth: u64,
    pub in_flight: u64,
    pub running: u64,
    pub oldest_lease_at: Option<u64>,
    pub oldest_message_at: Option<u64>,
}

#[derive(Debug, Default)]
pub(crate) struct Recorder {
    pub bucket: u64,
    pub next_sample: u64,
    pub t: Totals,
    pub ack_latencies: Vec<u64>,
    /// Each accepted ack's latency over the lease it had then, as the bits of
    /// the f64: for values at or above zero the bits order as the numbers,
    /// so the latencies are ordered as u64s.
    pub ack_lease_shares: Vec<u64>,
    pub s: Series,
    /// Leases in the order they began (the clock never goes back, so this
    /// is time order), for the oldest in-flight age; stale entries are
    /// dropped when they reach the front.
    pub leases: VecDeque<(u64, u32, u32)>,
    /// First message id that may still be open (ids are in arrival order).
    pub oldest_open: usize,
}

fn bump(v: &mut [u64], i: usize) {
    if let Some(x) = v.get_mut(i) {
        *x += 1;
    }
}

impl Recorder {
    pub fn new(bucket: u64, end: u64) -> Self {
        let n = end.div_ceil(bucket) as usize;
        let z = vec![0u64; n];
        Recorder {
            bucket,
            next_sample: bucket,
            s: Series {
                bucket_ms: bucket,
                arrivals: z.clone(),
                acks: z.clone(),
                redeliveries: z.clone(),
                expiries: z.clone(),
                dead_letter_expired: z.clone(),
                dead_letter_failed: z.clone(),
                dropped: z.clone(),
                stayed: z.clone(),
                extensions_ok: z.clone(),
                extensions_rejected: z.clone(),
                completions_per_min: vec![0.0; n],
                useful_completions_per_min: vec![0.0; n],
                duplicate_completions_per_min: vec![0.0; n],
                queue_depth: Vec::with_capacity(n),
                in_flight: Vec::with_capacity(n),
                running_handlers: Vec::with_capacity(n),
                oldest_in_flight_age_ms: Vec::with_capacity(n),
                oldest_message_age_ms: Vec::with_capacity(n),
            },
            ..Recorder::default()
        }
    }

    fn ix(&self, t: u64) -> usize {
        (t / self.bucket) as usize
    }

    pub fn arrival(&mut self, t: u64) {
        self.t.arrived += 1;
        let i = self.ix(t);
        bump(&mut self.s.arrivals, i);
    }
    pub fn delivery(&mut self, t: u64, redelivery: bool) {
        self.t.deliveries += 1;
        if redelivery {
            self.t.redeliveries += 1;
            let i = self.ix(t);
            bump(&mut self.s.redeliveries, i);
        }
    }
    pub fn lease_started(&mut self, t: u64, id: u32, receipt: u32) {
        self.leases.push_back((t, id, receipt));
    }
    pub fn expiry(&mut self, t: u64) {
        self.t.expiries += 1;
        let i = self.ix(t);
        bump(&mut self.s.expiries, i);
    }
    pub fn past_limit(&mut self, t: u64, past: PastLimit, cause: DeadLetterCause) {
        let i = self.ix(t);
        match (past, cause) {
            // Gone or left in the stream: no dead-letter arrival, charted
            // under its own fate.
            (PastLimit::Drop, _) => {
                self.t.dropped += 1;
                bump(&mut self.s.dropped, i);
            }
            (PastLimit::Stay, _) => {
                self.t.stayed += 1;
                bump(&mut self.s.stayed, i);
            }
            (PastLimit::DeadLetter, DeadLetterCause::Expired) => {
                self.t.dead_lettered_expired += 1;
                bump(&mut self.s.dead_letter_expired, i);
            }
            (PastLimit::DeadLetter, DeadLetterCause::Failed) => {
                self.t.dead_lettered_failed += 1;
                bump(&mut self.s.dead_letter_failed, i);
            }
        }
    }
    pub fn extension(&mut self, t: u64, ok: bool) {
        let i = self.ix(t);
        if ok {
            self.t.extensions_ok += 1;
            bump(&mut self.s.extensions_ok, i);
        } else {
            self.t.extensions_rejected += 1;
            bump(&mut self.s.extensions_rejected, i);
        }
    }
    /// An ack judged at `t`, `latency` after its delivery, against a lease
    /// of `lease` from that delivery to its deadline at `t`.
    pub fn ack(&mut self, t: u64, ok: bool, latency: u64, lease: u64) {
        if ok {
            self.t.acks_ok += 1;
            self.t.deleted += 1;
            self.ack_latencies.push(latency);
            let share = latency as f64 / lease.max(1) as f64;
            self.ack_lease_shares.push(share.to_bits());
            let i = self.ix(t);
            bump(&mut self.s.acks, i);
        } else {
            self.t.acks_rejected += 1;
        }
    }
    /// An ack of a message already deleted, answered as a success that
    /// does nothing: neither a deletion nor a rejection.
    pub fn ack_no_op(&mut self) {
        self.t.acks_no_op += 1;
    }
    pub fn release(&mut self, ok: bool) {
        if ok {
            self.t.releases += 1;
        } else {
            self.t.releases_rejected += 1;
        }
    }
    pub fn commit(&mut self, t: u64, effect: Effect) {
        let i = self.ix(t);
        let per_min = 60_000.0 / self.bucket as f64;
        match effect {
            Effect::Applied => {
                self.t.effects += 1;
                if let Some(x) = self.s.useful_completions_per_min.get_mut(i) {
                    *x += per_min;
                }
            }
            Effect::Duplicate | Effect::LostUpdate => {
                self.t.effects += 1;
                self.t.duplicate_effects += 1;
                if effect == Effect::LostUpdate {
                    self.t.lost_updates += 1;
                }
                if let Some(x) = self.s.duplicate_completions_per_min.get_mut(i) {
                    *x += per_min;
                }
            }
            Effect::FenceRejected => self.t.fence_rejections += 1,
            Effect::NoCommit => {}
        }
    }
    pub fn overlap(&mut self) {
        self.t.overlapping_runs += 1;
    }
    pub fn sequential_duplicate(&mut self) {
        self.t.sequential_duplicate_runs += 1;
    }
    pub fn error(&mut self) {
        self.t.errors += 1;
    }
    pub fn hang(&mut self) {
        self.t.hangs += 1;
    }

    /// Sample the gauges for every bucket that ends at or before `t`
    /// (the state before the events at `t` run).
    pub fn due(&self, t: u64) -> bool {
        t >= self.next_sample && self.s.queue_depth.len() < self.s.arrivals.len()
    }

    pub fn sample_until(&mut self, t: u64, g: Gauges) {
        while self.next_sample <= t && self.s.queue_depth.len() < self.s.arrivals.len() {
            self.push(g, self.next_sample);
            self.next_sample += self.bucket;
        }
    }

    /// One sample of `g`, taken at time `at`.
    fn push(&mut self, g: Gauges, at: u64) {
        let age = |since: Option<u64>| since.map_or(0, |s| at.saturating_sub(s));
        self.s.queue_depth.push(g.queue_depth);
        self.s.in_flight.push(g.in_flight);
        self.s.running_handlers.push(g.running);
        self.s.oldest_in_flight_age_ms.push(age(g.oldest_lease_at));
        self.s.oldest_message_age_ms.push(age(g.oldest_message_at));
    }

    /// The last (partial) bucket's gauges, sampled at the end of the run.
    pub fn close(&mut self, end: u64, g: Gauges) {
        let n = end.div_ceil(self.bucket) as usize;
        for v in [
            &mut self.s.arrivals,
            &mut self.s.acks,
            &mut self.s.redeliveries,
            &mut self.s.expiries,
            &mut self.s.dead_letter_expired,
            &mut self.s.dead_letter_failed,
            &mut self.s.dropped,
            &mut self.s.stayed,
            &mut self.s.extensions_ok,
            &mut self.s.extensions_rejected,
        ] {
            v.truncate(n);
        }
        for v in [
            &mut self.s.useful_completions_per_min,
            &mut self.s.duplicate_completions_per_min,
        ] {
            v.truncate(n);
        }
        while self.s.queue_depth.len() < n {
            self.push(g, end);
        }
        self.s.queue_depth.truncate(n);
        self.s.in_flight.truncate(n);
        self.s.running_handlers.truncate(n);
        self.s.oldest_in_flight_age_ms.truncate(n);
        self.s.oldest_message_age_ms.truncate(n);
        // Per minute over the bucket's real width (the last may be partial).
        let bucket = self.bucket;
        self.s.completions_per_min = self
            .s
            .acks
            .iter()
            .enumerate()
            .map(|(i, &a)| {
                let from = i as u64 * bucket;
                let width = (end.min(from + bucket) - from).max(1);
                a as f64 * 60_000.0 / width as f64
            })
            .collect();
        for v in [
            &mut self.s.useful_completions_per_min,
            &mut self.s.duplicate_completions_per_min,
        ] {
            for (i, x) in v.iter_mut().enumerate() {
                let from = i as u64 * bucket;
                let width = (end.min(from + bucket) - from).max(1);
                *x *= bucket as f64 / width as f64;
            }
        }
    }
}

impl Sim<'_> {
    pub(crate) fn gauges(&mut self) -> Gauges {
        {
            let msgs = &self.msgs;
            let rec = &mut self.rec;
            while let Some(&(_, id, receipt)) = rec.leases.front() {
                let m = &msgs[id as usize];
                if m.state == State::InFlight && m.receive_count == receipt {
                    break;
                }
                rec.leases.pop_front();
            }
            while rec.oldest_open < msgs.len()
                && matches!(
                    msgs[rec.oldest_open].state,
                    State::Deleted | State::PastLimit
                )
            {
                rec.oldest_open += 1;
            }
            Gauges {
                queue_depth: self.available_count,
                in_flight: self.in_flight_count,
                running: u64::from(self.pool.running()),
                oldest_lease_at: rec.leases.front().map(|&(t, _, _)| t),
                oldest_message_at: msgs.get(rec.oldest_open).map(|m| m.arrived_at),
            }
        }
    }
}

/// Index of the nearest-rank percentile `p` among `n` values, `n > 0`.
fn rank_index(n: usize, p: f64) -> usize {
    let rank = (p * n as f64).ceil().max(1.0) as usize;
    rank.min(n) - 1
}

/// Nearest-rank p50 and p99 of unsorted values (they get sorted).
fn p50_p99(v: &mut [u64]) -> (Option<u64>, Option<u64>) {
    if v.is_empty() {
        return (None, None);
    }
    v.sort_unstable();
    (
        Some(v[rank_index(v.len(), 0.50)]),
        Some(v[rank_index(v.len(), 0.99)]),
    )
}

/// How many messages were received how many times, keyed by the count as
/// text. Counted over the sorted counts.
fn receive_counts(msgs: &[Msg]) -> ReceiveCounts {
    let mut counts: Vec<u64> = msgs.iter().map(|m| u64::from(m.receive_count)).collect();
    counts.sort_unstable();
    let mut by_count = ReceiveCounts::new();
    for same in counts.chunk_by(|a, b| a == b) {
        by_count.insert(same[0].to_string(), same.len() as u64);
    }
    by_count
}

pub(crate) fn finish(mut sim: Sim<'_>) -> Run {
    let end = sim.end;
    // Work of runs still going when the run stopped.
    for d in 0..sim.deliveries.len() {
        let phase = sim.live[d].phase;
        match phase {
            Phase::Running | Phase::Paused => {
                sim.now = end;
                sim.stop_work(d as u32);
                sim.deliveries[d].outcome = Outcome::Unfinished;
            }
            Phase::Settling => sim.deliveries[d].outcome = Outcome::Unfinished,
            Phase::InTransit | Phase::Buffered => sim.deliveries[d].outcome = Outcome::NeverStarted,
            Phase::Hung | Phase::Done => {}
        }
        let del = &mut sim.deliveries[d];
        if del.lease_end == LeaseEnd::Open {
            del.lease_ended_at = end;
        }
    }

    let mut totals = sim.rec.t.clone();
    let mut messages = Vec::with_capacity(sim.msgs.len());
    for m in &sim.msgs {
        let fate = match m.state {
            State::Deleted => Fate::Deleted { at: m.ended_at },
            State::PastLimit => {
                let (at, cause) = (m.ended_at, m.cause.unwrap_or(DeadLetterCause::Expired));
                match sim.cfg.past_limit {
                    PastLimit::DeadLetter => Fate::DeadLettered { at, cause },
                    PastLimit::Drop => Fate::Dropped { at, cause },
                    PastLimit::Stay => Fate::Stayed { at, cause },
                }
            }
            State::Available => Fate::Available,
            State::InFlight => Fate::InFlight,
        };
        match fate {
            Fate::Available => totals.still_available += 1,
            Fate::InFlight => totals.still_in_flight += 1,
            _ => {}
        }
        messages.push(MessageRecord {
            arrived_at: m.arrived_at,
            work_ms: m.work_ms,
            receive_count: m.receive_count,
            deliveries: {
                let mut v = Vec::with_capacity(m.receive_count as usize);
                let mut d = m.current;
                while d != NONE {
                    v.push(d);
                    d = sim.live[d as usize].prev;
                }
                v.reverse();
                v
            },
            effects: m.store.applied,
            fate,
        });
    }
    // Useful work: the intrinsic work of the run that gave a message its
    // first effect; every other run's work done is wasted. Runs still going
    // at the end are neither.
    for d in &sim.deliveries {
        if d.effect == Effect::Applied {
            totals.useful_work_ms += sim.msgs[d.message as usize].work_ms;
        } else if d.outcome != Outcome::Unfinished {
            totals.wasted_work_ms += d.work_done_ms;
        }
    }
    totals.events = sim.logged;
    totals.end_ms = end;

    let mut lat = std::mem::take(&mut sim.rec.ack_latencies);
    let (p50, p99) = p50_p99(&mut lat);
    let mut shares = std::mem::take(&mut sim.rec.ack_lease_shares);
    let (_, share_p99) = p50_p99(&mut shares);
    let timeout = sim.cfg.visibility_timeout_ms;
    let report = Report {
        name: sim.scenario.name.clone(),
        seed: sim.seed,
        totals,
        ack_latency_ms: AckLatency {
            p50,
            p99,
            p99_over_timeout: p99.map(|p| p as f64 / timeout as f64),
            p99_of_lease: share_p99.map(f64::from_bits),
        },
        receive_counts: receive_counts(&sim.msgs),
        series: std::mem::take(&mut sim.rec.s),
        stopped: sim.stopped.take(),
    };
    Run {
        scenario: sim.scenario.clone(),
        visibility_timeout_ms: timeout,
        worker_count: sim.cfg.workers,
        concurrency: sim.cfg.concurrency,
        end_ms: end,
        events: sim.events,
        deliveries: sim.deliveries,
        marks: sim.marks,
        worker_marks: sim.worker_marks,
        messages,
        report,
        summarised: None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn p50_and_p99_are_nearest_rank_of_the_values() {
        for n in 1..200u64 {
            let mut v: Vec<u64> = (0..n).map(|i| (i * 7919) % 211).collect();
            let mut sorted = v.clone();
            sorted.sort_unstable();
            let want = (
                Some(sorted[rank_index(sorted.len(), 0.5)]),
                Some(sorted[rank_index(sorted.len(), 0.99)]),
            );
            assert_eq!(p50_p99(&mut v), want, "n = {n}");
        }
        assert_eq!(p50_p99(&mut []), (None, None));
        // Ten values: p50 is the 5th, p99 the 10th.
        let mut v: Vec<u64> = (1..=10).rev().collect();
        assert_eq!(p50_p99(&mut v), (Some(5), Some(10)));
    }
}
