//! The story of a message for the hover card: plain sentences derived from
//! its deliveries, marks and fate, told only up to the playhead.

use lease_sim::run::{
    DeadLetterCause, Delivery, Effect, EventKind, Fate, LeaseEnd, MarkKind, MessageRecord, Outcome,
    Run,
};

use lease_sim::scenario::{ExpiryTakes, Preset};

use crate::format::clock;
use crate::index::RunIndex;
use crate::lanes::lag_of;
use lease_format::display::{duration, duration_about};

/// The message's deliveries received by `upto` (in the run's time), in order:
/// what the hover card and the details panel show at the playhead.
pub fn received_by(run: &Run, msg: &MessageRecord, upto: u64) -> Vec<u32> {
    msg.deliveries
        .iter()
        .copied()
        .filter(|ix| {
            run.deliveries
                .get(*ix as usize)
                .is_some_and(|d| d.received_at <= upto)
        })
        .collect()
}

/// One line for the message, one per delivery received by `upto_ms`, and one
/// for its fate once it is known.
pub fn message_story(run: &Run, index: &RunIndex, m: u32, upto_ms: u64) -> Vec<String> {
    let Some(msg) = run.messages.get(m as usize) else {
        return Vec::new();
    };
    let upto = upto_ms.min(run.end_ms);
    let shown = received_by(run, msg, upto);
    let mut lines = vec![format!(
        "Message {m} arrived at {} and needs {} of work; {}.",
        clock(msg.arrived_at),
        duration(msg.work_ms),
        plural(shown.len(), "delivery", "deliveries"),
    )];
    for ix in shown {
        lines.push(delivery_story(run, index, ix, upto));
    }
    match msg.fate {
        Fate::Deleted { at } if at <= upto => lines.push(format!("Deleted at {}.", clock(at))),
        Fate::DeadLettered { at, cause }
        | Fate::Dropped { at, cause }
        | Fate::Stayed { at, cause }
            if at <= upto =>
        {
            let why = match cause {
                DeadLetterCause::Expired => {
                    "its receive count ran out by lease expiry alone, though it never failed"
                }
                DeadLetterCause::Failed => "its receive count ran out after a handler failure",
            };
            let (when, c) = (clock(at), cause_word(cause));
            lines.push(match msg.fate {
                Fate::Dropped { .. } => format!(
                    "Dropped at {when} ({c}): {why}, and no dead-letter queue holds it."
                ),
                Fate::Stayed { .. } => format!(
                    "Past the delivery limit at {when} ({c}): {why}. It stays in the stream, delivered no more, and an advisory was published."
                ),
                _ => format!("Dead-lettered at {when} ({c}): {why}."),
            })
        }
        Fate::Available if upto >= run.end_ms => {
            lines.push("Still waiting in the queue when the run stopped.".into())
        }
        Fate::InFlight if upto >= run.end_ms => {
            lines.push("Still in flight when the run stopped.".into())
        }
        _ => {}
    }
    lines
}

/// What notices an expired lease under the run's broker, when it is a
/// periodic check rather than a timer at the deadline.
pub fn check_words(run: &Run) -> &'static str {
    let b = &run.scenario.broker;
    match (b.preset, b.expiry_takes) {
        (Preset::Bullmq, _) => "the stalled-job check",
        (Preset::CeleryRedis, _) => "the restore sweep",
        (Preset::Rabbitmq42, _) | (_, Some(ExpiryTakes::Channel)) => "the channel's check",
        (Preset::RedisStreams, _) | (_, Some(ExpiryTakes::Claim)) => "the claimer's sweep",
        _ => "the broker's periodic check",
    }
}

pub fn cause_word(cause: DeadLetterCause) -> &'static str {
    match cause {
        DeadLetterCause::Expired => "expired",
        DeadLetterCause::Failed => "failed",
    }
}

/// "Delivery 2 to worker 1 at 1:00, while delivery 1 on worker 0 still ran
/// (overlapping runs): finished at 2:30, committed a duplicate effect and
/// acked at 2:30."
pub fn delivery_story(run: &Run, index: &RunIndex, ix: u32, upto: u64) -> String {
    let Some(d) = run.deliveries.get(ix as usize) else {
        return String::new();
    };
    let rpc = run.scenario.broker.rpc_latency_ms.unwrap_or(0);
    let w = d.worker;
    let mut head = format!(
        "Delivery {} to worker {w} at {}",
        d.receipt,
        clock(d.received_at)
    );
    if let Some(twin) = d.overlaps.and_then(|t| run.deliveries.get(t as usize)) {
        head.push_str(&format!(
            ", while delivery {} on worker {} still ran (overlapping runs)",
            twin.receipt, twin.worker
        ));
    }
    let mut parts: Vec<String> = Vec::new();
    if let Some(s) = d.started_at.filter(|s| *s <= upto) {
        if s > d.received_at + rpc {
            parts.push(format!(
                "waited {} in the buffer, started at {}",
                duration(s - d.received_at),
                clock(s)
            ));
        }
    }

    let marks: Vec<_> = index
        .marks_of(ix)
        .iter()
        .filter_map(|m| run.marks.get(*m as usize))
        .filter(|m| m.t <= upto)
        .collect();
    let first = |k: MarkKind| marks.iter().find(|m| m.kind == k).map(|m| m.t);

    // The lease first: when it ran out under a live worker, that is the story.
    if d.lease_end == LeaseEnd::Expired && d.lease_ended_at <= upto {
        let t = d.lease_ended_at;
        let still_running = d.started_at.is_some_and(|s| s <= t)
            && d.ended_at.is_none_or(|e| e > t)
            && d.outcome != Outcome::NeverStarted;
        // Noticed on a periodic check: the deadline, then the check.
        let said = match lag_of(d, upto) {
            Some((deadline, _)) => format!(
                "lease deadline {}; taken back on {} at {}, {} later,",
                clock(deadline),
                check_words(run),
                clock(t),
                duration_about((t - deadline) as f64)
            ),
            None => format!("lease expired at {}", clock(t)),
        };
        parts.push(if d.started_at.is_none() {
            format!("{said} in worker {w}'s buffer")
        } else if still_running {
            format!("{said} while worker {w} still ran")
        } else {
            said.trim_end_matches(',').to_string()
        });
    }
    let ext_ok = marks
        .iter()
        .filter(|m| m.kind == MarkKind::ExtendOk)
        .count();
    let ext_rej = marks
        .iter()
        .filter(|m| m.kind == MarkKind::ExtendRejected)
        .count();
    if ext_ok + ext_rej > 0 {
        let mut s = format!("{} accepted", plural(ext_ok, "extension", "extensions"));
        if let Some(t) = first(MarkKind::ExtendRejected) {
            s.push_str(&format!(", {ext_rej} rejected (first at {})", clock(t)));
        }
        parts.push(s);
    }

    let ended = d.ended_at.filter(|e| *e <= upto);
    match (d.outcome, ended) {
        (Outcome::Acked | Outcome::AckRejected | Outcome::AckNoOp, Some(e)) => {
            let mut s = format!("finished at {}", clock(e));
            if d.committed_at.is_some_and(|c| c <= upto) {
                s.push_str(&format!(", {}", effect_words(d.effect)));
            }
            if let Some(t) = first(MarkKind::AckOk) {
                let late = if d.lease_end == LeaseEnd::AckedLate {
                    " late (nobody else held it)"
                } else {
                    ""
                };
                s.push_str(&format!(" and acked{late} at {}", clock(t)));
            }
            parts.push(s);
            if let Some(t) = first(MarkKind::AckRejected) {
                parts.push(if ack_unsent_at(run, d, t) {
                    format!(
                        "ack not sent at {}: the broker had closed the channel it came on",
                        clock(t)
                    )
                } else {
                    format!("ack rejected at {}", clock(t))
                });
            }
            if let Some(t) = first(MarkKind::AckNoOp) {
                parts.push(format!(
                    "acked at {}, already deleted: accepted, nothing to settle",
                    clock(t)
                ));
            }
        }
        (Outcome::Error, Some(e)) => {
            let mut s = format!("handler failed at {}", clock(e));
            if let Some(t) = first(MarkKind::Release) {
                s.push_str(&format!(" and released it at {}", clock(t)));
            }
            parts.push(s);
            if let Some(t) = first(MarkKind::ReleaseRejected) {
                parts.push(format!("release rejected at {}", clock(t)));
            }
        }
        (Outcome::Aborted, Some(e)) => parts.push(format!(
            "aborted at {} after a rejected extension",
            clock(e)
        )),
        (Outcome::Skipped, Some(e)) => parts.push(format!(
            "skipped at {}: the store had already processed it",
            clock(e)
        )),
        (Outcome::Crashed, Some(e)) => {
            parts.push(format!("worker {w} crashed at {} holding it", clock(e)))
        }
        (Outcome::Crashed, None) if upto >= run.end_ms || d.started_at.is_none() => {
            parts.push(format!("lost when worker {w} crashed"))
        }
        (Outcome::NeverStarted, _) if d.lease_ended_at <= upto => {
            parts.push("never started".into())
        }
        (Outcome::Hung, _) if upto >= run.end_ms => {
            parts.push("the handler hung, still heartbeating".into())
        }
        (_, None) if d.started_at.is_some_and(|s| s <= upto) => {
            parts.push(format!("still running at {}", clock(upto)))
        }
        (_, None) => parts.push(format!("waiting in worker {w}'s buffer")),
        (_, Some(e)) => parts.push(format!("stopped at {}", clock(e))),
    }
    if d.lease_end == LeaseEnd::Released
        && d.lease_ended_at <= upto
        && first(MarkKind::Release).is_none()
    {
        parts.push(format!("released at {}", clock(d.lease_ended_at)));
    }
    format!("{head}: {}.", parts.join("; "))
}

/// Whether the delivery's rejected ack at `t` is one the client could not
/// send (`AckUnsent`: the broker had closed its channel) rather than one the
/// broker answered with a refusal; both leave the same mark.
fn ack_unsent_at(run: &Run, d: &Delivery, t: u64) -> bool {
    let from = run.events.partition_point_t(|e| e < t);
    (from..run.events.len())
        .map_while(|i| run.events.get(i).filter(|e| e.t == t))
        .any(|e| e.kind == EventKind::AckUnsent && e.message == d.message && e.receipt == d.receipt)
}

pub fn effect_words(e: Effect) -> &'static str {
    match e {
        Effect::NoCommit => "no commit",
        Effect::Applied => "committed the first effect",
        Effect::Duplicate => "committed a duplicate effect",
        Effect::LostUpdate => "committed over a newer write (a lost update)",
        Effect::FenceRejected => "its commit was rejected by the fence",
    }
}

pub fn outcome_word(d: &Delivery) -> &'static str {
    match d.outcome {
        Outcome::Acked => "acked",
        Outcome::AckRejected => "ack rejected",
        Outcome::Error => "error",
        Outcome::Hung => "hung",
        Outcome::Aborted => "aborted",
        Outcome::Skipped => "skipped",
        Outcome::Crashed => "crashed",
        Outcome::NeverStarted => "never started",
        Outcome::Unfinished => "unfinished",
        Outcome::AckNoOp => "acked, nothing to settle",
    }
}

/// The outcome's word with the run at hand: a rejected ack that the client
/// could not send (the broker had closed its channel, `AckUnsent` at the
/// handler's end) is "ack not sent"; every other outcome as `outcome_word`.
pub fn outcome_word_in(run: &Run, d: &Delivery) -> &'static str {
    match (d.outcome, d.ended_at) {
        (Outcome::AckRejected, Some(e)) if ack_unsent_at(run, d, e) => "ack not sent",
        _ => outcome_word(d),
    }
}

pub fn lease_word(l: LeaseEnd) -> &'static str {
    match l {
        LeaseEnd::Acked => "acked",
        LeaseEnd::AckedLate => "acked late",
        LeaseEnd::Released => "released",
        LeaseEnd::Expired => "expired",
        LeaseEnd::Open => "held",
    }
}

pub fn effect_word(e: Effect) -> &'static str {
    match e {
        Effect::NoCommit => "none",
        Effect::Applied => "applied",
        Effect::Duplicate => "duplicate",
        Effect::LostUpdate => "lost update",
        Effect::FenceRejected => "fenced",
    }
}

fn plural(n: usize, one: &str, many: &str) -> String {
    if n == 1 {
        format!("1 {one}")
    } else {
        format!("{n} {many}")
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::fixture;

    #[test]
    fn the_ninety_second_message_tells_of_two_workers_and_a_rejected_ack() {
        let run = fixture::ninety_second_message();
        let index = RunIndex::new(&run);
        assert_eq!(
            message_story(&run, &index, 0, u64::MAX),
            vec![
                "Message 0 arrived at 0:00 and needs 90 s of work; 2 deliveries.",
                "Delivery 1 to worker 0 at 0:00: lease expired at 1:00 while worker 0 still ran; \
                 finished at 1:30, committed the first effect; ack rejected at 1:30.",
                "Delivery 2 to worker 1 at 1:00, while delivery 1 on worker 0 still ran \
                 (overlapping runs): finished at 2:30, committed a duplicate effect and acked at 2:30.",
                "Deleted at 2:30.",
            ]
        );
    }

    #[test]
    fn the_story_stops_at_the_playhead() {
        let run = fixture::ninety_second_message();
        let index = RunIndex::new(&run);
        assert_eq!(
            message_story(&run, &index, 0, 45_000),
            vec![
                "Message 0 arrived at 0:00 and needs 90 s of work; 1 delivery.",
                "Delivery 1 to worker 0 at 0:00: still running at 0:45.",
            ]
        );
    }

    #[test]
    fn a_starved_heartbeat_a_crash_and_a_failed_message() {
        let run = fixture::buffered_and_expired();
        let index = RunIndex::new(&run);
        assert_eq!(
            message_story(&run, &index, 0, u64::MAX),
            vec![
                "Message 0 arrived at 0:00 and needs 50 s of work; 1 delivery.",
                "Delivery 1 to worker 0 at 0:00: lease expired at 0:30 while worker 0 still ran; \
                 0 extensions accepted, 1 rejected (first at 0:38); worker 0 crashed at 0:40 holding it.",
                "Still waiting in the queue when the run stopped.",
            ]
        );
        assert_eq!(
            message_story(&run, &index, 1, u64::MAX),
            vec![
                "Message 1 arrived at 0:00 and needs 10 s of work; 2 deliveries.",
                "Delivery 1 to worker 0 at 0:00: lease expired at 0:30 in worker 0's buffer; never started.",
                "Delivery 2 to worker 0 at 0:50: handler failed at 1:00 and released it at 1:00.",
                "Dead-lettered at 1:00 (failed): its receive count ran out after a handler failure.",
            ]
        );
    }

    /// RabbitMQ's consumer timeout of 1 s closes the channel at 1 s; the
    /// copy on the new channel runs 1-1.5 s and is acked; the first run ends
    /// at 3 s and its ack cannot go out on the closed channel.
    fn closed_channel_run() -> Run {
        rabbitmq_late_ack_run(serde_json::Value::Null)
    }

    /// The run above with the broker's `late_ack` reading set (`null`: the
    /// preset's own).
    fn rabbitmq_late_ack_run(late_ack: serde_json::Value) -> Run {
        let mut scenario = serde_json::json!({
            "name": "ack-on-a-closed-channel",
            "seed": 1,
            "duration_ms": 6000,
            "broker": {"preset": "rabbitmq_4_2", "visibility_timeout_ms": 1000,
                       "expiry_check_ms": null, "max_receive_count": null},
            "workers": {"count": 1, "concurrency": 2, "prefetch": 2},
            "work": {"dist": "constant", "ms": 3000},
            "arrivals": {"backlog": 1, "rate_per_s": 0.0},
            "faults": [{"kind": "run", "message": 0, "receipt": 2, "work_ms": 500}]
        });
        if !late_ack.is_null() {
            scenario["broker"]["late_ack"] = late_ack;
        }
        let s = lease_sim::parse::parse_scenario(&scenario.to_string()).unwrap();
        lease_sim::simulate(&s, &lease_sim::Options::default()).unwrap()
    }

    #[test]
    fn the_story_says_an_ack_on_a_channel_the_broker_closed_was_not_sent() {
        let run = closed_channel_run();
        let index = RunIndex::new(&run);
        let story = message_story(&run, &index, 0, u64::MAX);
        assert_eq!(
            story[1],
            "Delivery 1 to worker 0 at 0:00: lease expired at 0:01 while worker 0 still ran; \
             finished at 0:03, committed over a newer write (a lost update); \
             ack not sent at 0:03: the broker had closed the channel it came on."
        );
        assert!(
            story.iter().all(|l| !l.contains("ack rejected")),
            "{story:?}"
        );
    }

    /// RabbitMQ 4.2 with a 10 s consumer timeout and the channel's tick
    /// every 6 s: the 30 s run passes its deadline at 10 s and is taken
    /// back on the tick at 12 s.
    fn channel_tick_run() -> Run {
        let scenario = serde_json::json!({
            "name": "channel-tick",
            "seed": 1,
            "duration_ms": 20000,
            "broker": {"preset": "rabbitmq_4_2", "visibility_timeout_ms": 10000,
                       "expiry_check_ms": 6000, "max_receive_count": null},
            "workers": {"count": 1, "concurrency": 1},
            "work": {"dist": "constant", "ms": 30000},
            "arrivals": {"backlog": 1, "rate_per_s": 0.0}
        });
        let s = lease_sim::parse::parse_scenario(&scenario.to_string()).unwrap();
        lease_sim::simulate(&s, &lease_sim::Options::default()).unwrap()
    }

    #[test]
    fn the_story_tells_the_deadline_and_the_check_that_took_the_lease_back() {
        let run = channel_tick_run();
        let index = RunIndex::new(&run);
        let story = message_story(&run, &index, 0, u64::MAX);
        assert!(
            story[1].starts_with(
                "Delivery 1 to worker 0 at 0:00: lease deadline 0:10; taken back on the \
                 channel's check at 0:12, 2 s later, while worker 0 still ran; "
            ),
            "{story:?}"
        );
        // Between the deadline and the check the lease still holds: no
        // expiry is told yet.
        let story = message_story(&run, &index, 0, 11_000);
        assert_eq!(
            story[1],
            "Delivery 1 to worker 0 at 0:00: still running at 0:11."
        );
    }

    #[test]
    fn the_lag_runs_from_the_deadline_to_the_check_and_grows_with_the_playhead() {
        let run = channel_tick_run();
        let d = &run.deliveries[0];
        assert_eq!((d.deadline, d.lease_ended_at), (Some(10_000), 12_000));
        assert_eq!(lag_of(d, u64::MAX), Some((10_000, 12_000)));
        assert_eq!(lag_of(d, 11_000), Some((10_000, 11_000)));
        assert_eq!(lag_of(d, 9_999), None);
        // Taken back at its deadline (no check): no lag, the story as before.
        let run = fixture::ninety_second_message();
        assert!(run.deliveries.iter().all(|d| lag_of(d, u64::MAX).is_none()));
    }

    #[test]
    fn the_outcome_of_an_ack_on_a_channel_the_broker_closed_reads_ack_not_sent() {
        let run = closed_channel_run();
        assert_eq!(run.deliveries[0].outcome, Outcome::AckRejected);
        assert_eq!(outcome_word_in(&run, &run.deliveries[0]), "ack not sent");
        assert_eq!(outcome_word_in(&run, &run.deliveries[1]), "acked");
    }

    #[test]
    fn the_story_still_says_ack_rejected_for_an_ack_the_broker_refused() {
        // The same run under `late_ack: channel_error`: the client reopens the
        // channel and sends the old tag, which the broker refuses.
        let run = rabbitmq_late_ack_run("channel_error".into());
        let index = RunIndex::new(&run);
        let story = message_story(&run, &index, 0, u64::MAX);
        assert!(story[1].ends_with("ack rejected at 0:03."), "{story:?}");
        assert_eq!(outcome_word_in(&run, &run.deliveries[0]), "ack rejected");
    }
}
