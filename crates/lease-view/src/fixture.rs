//! Hand-built runs for the tests, shaped like the shipped scenarios' stories.

use lease_sim::run::*;
use lease_sim::{EventLog, Report, Scenario};

pub fn run(workers: u32, concurrency: u32, end_ms: u64) -> Run {
    Run {
        scenario: Scenario::default(),
        visibility_timeout_ms: 60_000,
        worker_count: workers,
        concurrency,
        end_ms,
        events: EventLog::new(),
        deliveries: Vec::new(),
        marks: Vec::new(),
        worker_marks: Vec::new(),
        messages: Vec::new(),
        report: Report::default(),
        summarised: None,
    }
}

pub fn delivery(message: u32, receipt: u32, worker: u32, received_at: u64) -> Delivery {
    Delivery {
        message,
        receipt,
        worker,
        slot: Some(0),
        received_at,
        started_at: Some(received_at),
        ended_at: None,
        lease_ended_at: received_at,
        deadline: None,
        lease_end: LeaseEnd::Open,
        outcome: Outcome::Unfinished,
        effect: Effect::NoCommit,
        committed_at: None,
        work_done_ms: 0,
        work_needed_ms: 0,
        overlaps: None,
        extensions_ok: 0,
        extensions_rejected: 0,
    }
}

pub fn message(arrived_at: u64, work_ms: u64, deliveries: Vec<u32>, fate: Fate) -> MessageRecord {
    MessageRecord {
        arrived_at,
        work_ms,
        receive_count: deliveries.len() as u32,
        deliveries,
        effects: 0,
        fate,
    }
}

fn mark(t: u64, delivery: u32, kind: MarkKind) -> Mark {
    Mark { t, delivery, kind }
}

/// The 90-second message against a 60-second timeout, two workers,
/// no heartbeat. Worker 1 starts at 60 s while worker 0 still runs; worker 0
/// commits at 90 s and its ack is rejected; worker 1 commits a duplicate.
pub fn ninety_second_message() -> Run {
    let mut r = run(2, 1, 150_000);
    let mut d0 = delivery(0, 1, 0, 0);
    d0.ended_at = Some(90_000);
    d0.lease_ended_at = 60_000;
    d0.lease_end = LeaseEnd::Expired;
    d0.outcome = Outcome::AckRejected;
    d0.effect = Effect::Applied;
    d0.committed_at = Some(90_000);
    d0.work_done_ms = 90_000;
    d0.work_needed_ms = 90_000;
    let mut d1 = delivery(0, 2, 1, 60_000);
    d1.ended_at = Some(150_000);
    d1.lease_ended_at = 150_000;
    d1.lease_end = LeaseEnd::Acked;
    d1.outcome = Outcome::Acked;
    d1.effect = Effect::Duplicate;
    d1.committed_at = Some(150_000);
    d1.work_done_ms = 90_000;
    d1.work_needed_ms = 90_000;
    d1.overlaps = Some(0);
    r.deliveries = vec![d0, d1];
    r.marks = vec![
        mark(90_000, 0, MarkKind::Commit),
        mark(90_000, 0, MarkKind::AckRejected),
        mark(150_000, 1, MarkKind::Commit),
        mark(150_000, 1, MarkKind::AckOk),
    ];
    let mut m = message(0, 90_000, vec![0, 1], Fate::Deleted { at: 150_000 });
    m.effects = 2;
    r.messages = vec![m];
    r
}

/// `n` one-second runs every two seconds on worker 0, then one hung run on
/// worker 1 from 1000 s to the end (2000 s).
pub fn many_short_runs_and_one_hung(n: u32) -> Run {
    let mut r = run(2, 1, 2_000_000);
    for i in 0..n {
        let t = i as u64 * 2000;
        let mut d = delivery(i, 1, 0, t);
        d.ended_at = Some(t + 1000);
        d.lease_ended_at = t + 1000;
        d.lease_end = LeaseEnd::Acked;
        d.outcome = Outcome::Acked;
        d.effect = Effect::Applied;
        r.deliveries.push(d);
        r.messages
            .push(message(t, 1000, vec![i], Fate::Deleted { at: t + 1000 }));
    }
    let mut hung = delivery(n, 1, 1, 1_000_000);
    hung.outcome = Outcome::Hung;
    hung.lease_ended_at = 2_000_000;
    r.deliveries.push(hung);
    r.messages
        .push(message(1_000_000, 5000, vec![n], Fate::InFlight));
    r
}

/// The invisible backlog and starved heartbeat in miniature: worker 0
/// holds message 0 and prefetches message 1. A pause from 5 s to 38 s
/// starves the heartbeat, both leases run out at 30 s, the heartbeat at
/// 38 s is rejected, and worker 0 crashes at 40 s. Message 1 is redelivered,
/// fails and is dead-lettered.
pub fn buffered_and_expired() -> Run {
    let mut r = run(1, 1, 100_000);
    r.visibility_timeout_ms = 30_000;
    let mut d0 = delivery(0, 1, 0, 0);
    d0.ended_at = Some(40_000);
    d0.lease_ended_at = 30_000;
    d0.lease_end = LeaseEnd::Expired;
    d0.outcome = Outcome::Crashed;
    d0.work_done_ms = 40_000;
    d0.work_needed_ms = 50_000;
    d0.extensions_rejected = 1;
    let mut d1 = delivery(1, 1, 0, 0);
    d1.slot = None;
    d1.started_at = None;
    d1.lease_ended_at = 30_000;
    d1.lease_end = LeaseEnd::Expired;
    d1.outcome = Outcome::NeverStarted;
    let mut d2 = delivery(1, 2, 0, 50_000);
    d2.ended_at = Some(60_000);
    d2.lease_ended_at = 60_000;
    d2.lease_end = LeaseEnd::Released;
    d2.outcome = Outcome::Error;
    d2.work_done_ms = 10_000;
    d2.work_needed_ms = 10_000;
    r.deliveries = vec![d0, d1, d2];
    r.marks = vec![
        mark(38_000, 0, MarkKind::ExtendRejected),
        mark(60_000, 2, MarkKind::Release),
    ];
    r.worker_marks = vec![
        WorkerMark {
            t: 5_000,
            worker: 0,
            kind: WorkerMarkKind::Pause,
        },
        WorkerMark {
            t: 38_000,
            worker: 0,
            kind: WorkerMarkKind::Resume,
        },
        WorkerMark {
            t: 40_000,
            worker: 0,
            kind: WorkerMarkKind::Crash,
        },
        WorkerMark {
            t: 50_000,
            worker: 0,
            kind: WorkerMarkKind::Restart,
        },
    ];
    r.messages = vec![
        message(0, 50_000, vec![0], Fate::Available),
        message(
            0,
            10_000,
            vec![1, 2],
            Fate::DeadLettered {
                at: 60_000,
                cause: DeadLetterCause::Failed,
            },
        ),
    ];
    r
}
