//! The rules the brokers one runs need (RabbitMQ, NATS JetStream), one test
//! per rule of docs/MODEL.md, and each preset's documented behaviour from the
//! documentation's own examples. Expected times are worked out by hand from
//! the rules (comments show the arithmetic); every run also checks every
//! invariant after every event.

mod common;

use common::{of, run, run_checked, times};
use lease_sim::run::{DeadLetterCause, EventKind as K, Fate, LeaseEnd};
use lease_sim::{parse_scenario, Scenario};
use serde_json::{json, Value};

/// A scenario from JSON alone, without the rule tests' base: a preset's
/// own defaults apply to whatever it leaves out.
fn preset_scenario(v: Value) -> Scenario {
    parse_scenario(&v.to_string()).unwrap_or_else(|e| panic!("bad test scenario: {e}"))
}

// ---- Expiry noticed on a periodic check -----------------------------------

/// Two workers, 5 s handlers, a 1 s lease taken back on checks every 600 ms.
fn checked_every_600_ms() -> Value {
    json!({
        "broker": {"visibility_timeout_ms": 1000, "expiry_check_ms": 600},
        "workers": {"count": 2},
        "work": {"dist": "constant", "ms": 5000}, "duration_ms": 3000
    })
}

#[test]
fn expiry_is_noticed_on_the_next_periodic_check() {
    // Deadline 1000, checks at 600, 1200, ...: taken back at 1200, and the
    // second worker's waiting receive gets it then.
    let r = run(checked_every_600_ms());
    // Receipt 2's deadline, 2200, is noticed at 2400 in turn.
    assert_eq!(of(&r, K::Expire), vec![(1200, 0, 0, 1), (2400, 0, 1, 2)]);
    assert_eq!(of(&r, K::Receive)[1], (1200, 0, 1, 2));
    assert_eq!(r.deliveries[0].lease_ended_at, 1200);
}

#[test]
fn an_expiry_noticed_on_a_check_records_the_deadline_it_passed() {
    // Deadline 1000 (received at 0 + timeout 1000), checks every 600: the
    // lease ends on the check at 1200 and keeps 1000 as its deadline, so the
    // timeline can draw the 200 ms between them.
    let r = run(checked_every_600_ms());
    let d = &r.deliveries;
    assert_eq!((d[0].deadline, d[0].lease_ended_at), (Some(1000), 1200));
    // Receipt 2: received at 1200, deadline 2200, noticed at 2400.
    assert_eq!((d[1].deadline, d[1].lease_ended_at), (Some(2200), 2400));
    // After an extension the deadline is the extension's: timeout 2500,
    // extended at 2000 by 1000 to 3000, checks at 700, 1400, 2100, 2800,
    // 3500: taken back at 3500.
    let r = run(json!({
        "broker": {"visibility_timeout_ms": 2500, "expiry_check_ms": 700},
        "workers": {"heartbeat": {"interval_ms": 2000, "extend_by_ms": 1000}},
        "work": {"dist": "constant", "ms": 5000}, "duration_ms": 5000
    }));
    assert_eq!(times(&r, K::ExtendOk), vec![2000]);
    let d = &r.deliveries[0];
    assert_eq!((d.deadline, d.lease_ended_at), (Some(3000), 3500));
    // At the instant (no check) the deadline and the end are one time.
    let r = run(json!({
        "broker": {"visibility_timeout_ms": 1000},
        "work": {"dist": "constant", "ms": 5000}, "duration_ms": 2000
    }));
    let d = &r.deliveries[0];
    assert_eq!((d.deadline, d.lease_ended_at), (Some(1000), 1000));
    // An acked lease passed no deadline.
    let r = run(json!({
        "broker": {"visibility_timeout_ms": 1000, "expiry_check_ms": 600},
        "work": {"dist": "constant", "ms": 500}
    }));
    assert_eq!(r.deliveries[0].lease_end, LeaseEnd::Acked);
    assert_eq!(r.deliveries[0].deadline, None);
    // A delivery taken with its channel inside its own lease passed none:
    // m0's deadline is 1500; m1, leased until 2500, went with the channel.
    let r = channel_run("channel");
    assert_eq!(r.deliveries[0].deadline, Some(1500));
    assert_eq!(r.deliveries[1].lease_end, LeaseEnd::Expired);
    assert_eq!(r.deliveries[1].deadline, None);
}

#[test]
fn a_lease_past_its_deadline_still_holds_until_the_check() {
    // Work 1100 ends past the 1000 deadline but before the check at 1200:
    // the ack is in time.
    let r = run(json!({
        "broker": {"visibility_timeout_ms": 1000, "expiry_check_ms": 600},
        "work": {"dist": "constant", "ms": 1100}
    }));
    assert_eq!(of(&r, K::AckOk), vec![(1100, 0, 0, 1)]);
    assert!(of(&r, K::Expire).is_empty());
    // At the instant (no check) the same ack is late.
    let r = run(json!({
        "broker": {"visibility_timeout_ms": 1000},
        "work": {"dist": "constant", "ms": 1100}, "duration_ms": 2000
    }));
    assert_eq!(of(&r, K::AckRejected), vec![(1100, 0, 0, 1)]);
}

#[test]
fn a_channel_s_checks_run_from_its_opening() {
    // Checks every 700 ms. Worker 0's first channel opens at 0: receipt 1
    // (deadline 1000) goes at 1400. Worker 1's receipt 2 (1400 + 1000) goes
    // at 2800. Worker 0's late ack at 5000 closes its channel, which opens
    // again at 5000: receipt 3, received then, has its deadline at 6000 and
    // goes at 5000 + 2 x 700 = 6400 (on a grid from t = 0 it would be 6300).
    let r = run(json!({
        "broker": {"visibility_timeout_ms": 1000, "expiry_check_ms": 700,
                   "expiry_takes": "channel", "late_ack": "channel_error"},
        "workers": {"count": 2},
        "work": {"dist": "constant", "ms": 5000}, "duration_ms": 7000
    }));
    assert_eq!(
        of(&r, K::Expire),
        vec![(1400, 0, 0, 1), (2800, 0, 1, 2), (6400, 0, 0, 3)]
    );
    assert_eq!(of(&r, K::AckRejected)[0], (5000, 0, 0, 1));
    assert_eq!(of(&r, K::Receive)[2], (5000, 0, 0, 3));
}

// ---- What expiry takes back -----------------------------------------------

/// One worker, prefetch 2, 1.5 s leases, 4 s of work: m0 at 0 runs, m1
/// (arriving at 1000) waits in the buffer; run until 2600.
fn channel_run(takes: &str) -> lease_sim::Run {
    run(json!({
        "broker": {"visibility_timeout_ms": 1500, "expiry_takes": takes},
        "workers": {"prefetch": 2},
        "work": {"dist": "constant", "ms": 4000},
        "arrivals": {"backlog": 1, "rate_per_s": 1.0, "process": "fixed"},
        "duration_ms": 2600
    }))
}

#[test]
fn channel_expiry_requeues_everything_the_worker_holds() {
    // m0's lease ends at 1500; the channel goes with it, and m1, received at
    // 1000 and leased until 2500, is requeued at 1500 too, from the buffer.
    let r = channel_run("channel");
    assert_eq!(of(&r, K::Expire), vec![(1500, 0, 0, 1), (1500, 1, 0, 1)]);
    assert_eq!(r.deliveries[1].lease_end, LeaseEnd::Expired);
    assert_eq!(r.deliveries[1].lease_ended_at, 1500);
    // The worker keeps running m0: nobody stops it.
    assert!(of(&r, K::Abort).is_empty());
}

#[test]
fn expiry_that_takes_nothing_leaves_a_delivery_pending_until_its_ack() {
    // No broker timer: the 4 s run holds its message past every lease.
    let r = channel_run("nothing");
    assert!(of(&r, K::Expire).is_empty());
    assert_eq!(of(&r, K::Receive).len(), 2);
}

#[test]
fn delivery_expiry_takes_back_the_expired_delivery_alone() {
    let r = channel_run("delivery");
    // m1 keeps its lease until 2500.
    assert_eq!(of(&r, K::Expire), vec![(1500, 0, 0, 1), (2500, 1, 0, 1)]);
}

// ---- Late acks --------------------------------------------------------------

/// One worker, two handlers, 1 s leases, 1.2 s of work: m0 at 0, m1 at 500
/// (fixed arrivals every 500 ms), m2 at 1000; run until 1300.
fn channel_error_run(late_ack: &str) -> lease_sim::Run {
    run(json!({
        "broker": {"visibility_timeout_ms": 1000, "late_ack": late_ack},
        "workers": {"concurrency": 2},
        "work": {"dist": "constant", "ms": 1200},
        "arrivals": {"backlog": 1, "rate_per_s": 2.0, "process": "fixed"},
        "duration_ms": 1300
    }))
}

#[test]
fn a_late_ack_under_channel_error_closes_the_channel_and_requeues_what_it_holds() {
    // m0 expires at 1000; its ack at 1200 names a tag the broker no longer
    // knows: rejected, and the channel closes, taking m1 (leased until 1500)
    // back at 1200. The free handler then receives m0 again (available since
    // 1000, before m1).
    let r = channel_error_run("channel_error");
    assert_eq!(of(&r, K::AckRejected), vec![(1200, 0, 0, 1)]);
    assert_eq!(of(&r, K::Expire), vec![(1000, 0, 0, 1), (1200, 1, 0, 1)]);
    assert_eq!(of(&r, K::Receive)[2], (1200, 0, 0, 2));
    // m1's handler goes on: its run is not stopped.
    assert_eq!(r.deliveries[1].started_at, Some(500));
    assert_eq!(r.deliveries[1].ended_at, None);
}

#[test]
fn a_rejected_late_ack_leaves_the_worker_s_other_leases_alone() {
    let r = channel_error_run("rejected");
    assert_eq!(of(&r, K::AckRejected), vec![(1200, 0, 0, 1)]);
    assert_eq!(of(&r, K::Expire), vec![(1000, 0, 0, 1)]);
}

#[test]
fn a_late_ack_accepted_always_settles_the_copy_another_worker_runs() {
    // Worker 0 pauses from 100 to 600 while it holds receipt 1 (lease until
    // 1000); worker 1 takes receipt 2 at 1000 and would finish at 1800;
    // worker 0's ack with receipt 1 reaches the broker at 1300.
    let r = run(json!({
        "broker": {"visibility_timeout_ms": 1000, "late_ack": "accepted_always"},
        "workers": {"count": 2},
        "work": {"dist": "constant", "ms": 800},
        "faults": [{"kind": "pause", "worker": 0, "at_ms": 100, "duration_ms": 500}]
    }));
    assert_eq!(of(&r, K::AckOk), vec![(1300, 0, 0, 1)]);
    assert_eq!(r.messages[0].fate, Fate::Deleted { at: 1300 });
    assert_eq!(r.deliveries[1].lease_ended_at, 1300);
    // Worker 1 still runs its copy to the end; its own ack finds nothing.
    assert_eq!(of(&r, K::Finish)[1], (1800, 0, 1, 2));
    assert_eq!(of(&r, K::AckRejected), vec![(1800, 0, 1, 2)]);
}

// ---- Does expiry count toward the limit ------------------------------------

#[test]
fn an_uncounted_expiry_never_dead_letters_a_message_that_keeps_timing_out() {
    // Leases 0..1000 and 5000..6000 both expire; counted, the second
    // exhausts a limit of 2 at 6000; uncounted, nothing is dead-lettered.
    for count_at in ["receive", "expiry_or_abandon"] {
        let with = |counts: bool| {
            run(json!({
                "broker": {"visibility_timeout_ms": 1000, "max_receive_count": 2,
                           "count_at": count_at, "expiry_counts": counts},
                "work": {"dist": "constant", "ms": 5000}, "duration_ms": 20000
            }))
        };
        assert_eq!(
            times(&with(true), K::DeadLetterExpired),
            vec![6000],
            "{count_at}"
        );
        let r = with(false);
        assert!(of(&r, K::DeadLetterExpired).is_empty(), "{count_at}");
        // Received at 0, 5000, 10000, 15000: four deliveries, past the limit.
        assert_eq!(times(&r, K::Receive), vec![0, 5000, 10000, 15000]);
    }
}

#[test]
fn an_uncounted_expiry_still_counts_a_failure() {
    // Every run fails and releases at 1000 and 2000: the second release
    // exhausts the limit of 2.
    let r = run(json!({
        "broker": {"max_receive_count": 2, "count_at": "expiry_or_abandon",
                   "expiry_counts": false},
        "workers": {"error_rate": 1.0}
    }));
    assert_eq!(times(&r, K::DeadLetterFailed), vec![2000]);
}

// ---- A list of leases (JetStream BackOff) -----------------------------------

#[test]
fn lease_steps_replace_the_timeout_the_last_repeating() {
    // Leases 1000, then 2000 for every later delivery: receives at 0, 1000,
    // 3000, 5000 (four workers, each kept busy by its run).
    let r = run(json!({
        "broker": {"visibility_timeout_ms": 30000, "lease_steps_ms": [1000, 2000]},
        "workers": {"count": 4},
        "work": {"dist": "constant", "ms": 100000}, "duration_ms": 6000
    }));
    assert_eq!(times(&r, K::Receive), vec![0, 1000, 3000, 5000]);
}

#[test]
fn lease_steps_longer_than_the_delivery_limit_are_refused() {
    let e = parse_scenario(
        &json!({"broker": {"max_receive_count": 2, "lease_steps_ms": [1000, 2000, 3000]}})
            .to_string(),
    )
    .unwrap_err();
    assert_eq!(e.field(), Some("broker.lease_steps_ms"));
    assert!(e.to_string().contains("MaxDeliver >= len(BackOff)"), "{e}");
    let e = parse_scenario(&json!({"broker": {"lease_steps_ms": []}}).to_string()).unwrap_err();
    assert_eq!(e.field(), Some("broker.lease_steps_ms"));
    let e =
        parse_scenario(&json!({"broker": {"lease_steps_ms": [1000, 0]}}).to_string()).unwrap_err();
    assert_eq!(e.field(), Some("broker.lease_steps_ms[1]"));
    let e = parse_scenario(&json!({"broker": {"expiry_check_ms": 0}}).to_string()).unwrap_err();
    assert_eq!(e.field(), Some("broker.expiry_check_ms"));
}

// ---- The presets, from each system's documentation -------------------------

#[test]
fn each_broker_preset_sets_its_documented_defaults() {
    use lease_sim::resolve::resolve;
    use lease_sim::scenario::{CountAt as C, ExpiryTakes as T, LateAck as L, PastLimit, Preset};
    // (preset, timeout, check, takes, late ack, count at, expiry counts, limit)
    type Row = (Preset, u64, Option<u64>, T, L, C, bool, Option<u32>);
    let table: [Row; 4] = [
        // consumer_timeout 30 min, channel tick 60 s, x-delivery-limit 20;
        // the late ack fails in the client (observed on 3.10 with pika).
        (
            Preset::Rabbitmq42,
            1_800_000,
            Some(60_000),
            T::Channel,
            L::Rejected,
            C::ExpiryOrAbandon,
            true,
            Some(20),
        ),
        (
            Preset::Rabbitmq43,
            1_800_000,
            None,
            T::Delivery,
            L::Rejected,
            C::ExpiryOrAbandon,
            false,
            Some(20),
        ),
        // AckWait 30 s, MaxDeliver -1.
        (
            Preset::NatsJetstream,
            30_000,
            None,
            T::Delivery,
            L::AcceptedAlways,
            C::Receive,
            true,
            None,
        ),
        // No broker timer; XACK names no consumer; no redrive.
        (
            Preset::RedisStreams,
            30_000,
            None,
            T::Nothing,
            L::AcceptedAlways,
            C::Receive,
            true,
            None,
        ),
    ];
    for (p, timeout, check, takes, late, count_at, counts, limit) in table {
        let mut s = Scenario::default();
        s.broker.preset = p;
        let c = resolve(&s);
        assert_eq!(
            (
                c.visibility_timeout_ms,
                c.expiry_check_ms,
                c.expiry_takes,
                c.late_ack
            ),
            (timeout, check, takes, late),
            "{p:?}"
        );
        assert_eq!(
            (c.count_at, c.expiry_counts, c.max_receive_count),
            (count_at, counts, limit),
            "{p:?}"
        );
        // Past the limit: a quorum queue without a dead-letter exchange
        // drops, JetStream leaves the message in the stream, a Redis
        // stream has no limit of its own.
        let past = match p {
            Preset::Rabbitmq42 | Preset::Rabbitmq43 => PastLimit::Drop,
            Preset::NatsJetstream => PastLimit::Stay,
            _ => PastLimit::DeadLetter,
        };
        assert_eq!(c.past_limit, past, "{p:?}");
        // A field given in the file wins over the preset.
        s.broker.past_limit = Some(PastLimit::DeadLetter);
        assert_eq!(resolve(&s).past_limit, PastLimit::DeadLetter, "{p:?}");
        s.broker.expiry_takes = Some(T::Delivery);
        s.broker.expiry_check_ms = Some(None);
        s.broker.expiry_counts = Some(true);
        let c = resolve(&s);
        assert_eq!(
            (c.expiry_takes, c.expiry_check_ms, c.expiry_counts),
            (T::Delivery, None, true),
            "{p:?}"
        );
    }
}

/// Two workers, one message, calls and replies 10 s each way: the receive
/// reaches the broker at 10 s, so the 30-minute deadline falls at 1,810 s,
/// between two channel ticks.
fn rabbitmq_run(preset: &str, work_ms: u64) -> lease_sim::Run {
    run_checked(&preset_scenario(json!({
        "broker": {"preset": preset, "rpc_latency_ms": 10000},
        "workers": {"count": 2},
        "work": {"dist": "constant", "ms": work_ms},
        "arrivals": {"backlog": 1, "rate_per_s": 0.0},
        "duration_ms": 3_000_000
    })))
}

#[test]
fn rabbitmq_4_2_takes_a_timed_out_delivery_back_on_the_channel_tick_after_it() {
    // RabbitMQ's docs: the timeout is checked about once a minute, so a
    // delivery is taken back between T and T + 60 s. Deadline 10 s + 30 min
    // = 1,810,000; the tick after it is at 1,860,000.
    let r = rabbitmq_run("rabbitmq_4_2", 2_400_000);
    assert_eq!(of(&r, K::Expire), vec![(1_860_000, 0, 0, 1)]);
    // The other worker's waiting receive gets it at once, `redelivered`.
    assert_eq!(of(&r, K::Receive)[1], (1_860_000, 0, 1, 2));
    // The first worker keeps running: its work starts when the reply lands
    // at 20 s and ends 40 min later at 2,420,000; the broker closed the
    // channel the delivery came on, so its ack cannot be sent.
    assert_eq!(of(&r, K::Finish)[0], (2_420_000, 0, 0, 1));
    assert_eq!(of(&r, K::AckUnsent), vec![(2_420_000, 0, 0, 1)]);
    assert!(of(&r, K::AckRejected).is_empty());
    assert_eq!(
        r.deliveries[0].outcome,
        lease_sim::run::Outcome::AckRejected
    );
}

#[test]
fn rabbitmq_4_2_runs_a_job_shorter_than_the_consumer_timeout_once() {
    // A 29-minute job: acked in time, never redelivered.
    let r = rabbitmq_run("rabbitmq_4_2", 1_740_000);
    assert!(of(&r, K::Expire).is_empty());
    assert_eq!(r.report.totals.acks_ok, 1);
}

/// One worker, 1 s consumer timeout, 1.5 s of work, a minute: every
/// delivery times out, and the worker takes it again after its late ack.
fn keeps_timing_out(preset: &str) -> lease_sim::Run {
    run_checked(&preset_scenario(json!({
        "broker": {"preset": preset, "visibility_timeout_ms": 1000, "expiry_check_ms": null},
        "workers": {"count": 1},
        "work": {"dist": "constant", "ms": 1500},
        "arrivals": {"backlog": 1, "rate_per_s": 0.0},
        "duration_ms": 60_000
    })))
}

#[test]
fn rabbitmq_4_2_drops_a_message_after_twenty_timeouts_or_dead_letters_it_with_a_dead_letter_exchange(
) {
    // Delivery n at (n - 1) x 1500, taken back 1000 later; every return
    // counts toward x-delivery-limit 20: the 20th, at 19 x 1500 + 1000 =
    // 29,500, is past the limit. With no dead-letter exchange (the
    // default) the quorum queue drops it.
    let r = keeps_timing_out("rabbitmq_4_2");
    assert_eq!(times(&r, K::Dropped), vec![29_500]);
    assert!(of(&r, K::DeadLetterExpired).is_empty());
    assert_eq!(r.messages[0].receive_count, 20);
    assert_eq!(
        r.messages[0].fate,
        Fate::Dropped {
            at: 29_500,
            cause: DeadLetterCause::Expired
        }
    );
    assert_eq!(r.report.totals.dropped, 1);
    assert_eq!(r.report.totals.dead_lettered_expired, 0);
    // With a dead-letter exchange the same message is dead-lettered then.
    let r = run_checked(&preset_scenario(json!({
        "broker": {"preset": "rabbitmq_4_2", "visibility_timeout_ms": 1000,
                   "expiry_check_ms": null, "past_limit": "dead_letter"},
        "workers": {"count": 1},
        "work": {"dist": "constant", "ms": 1500},
        "arrivals": {"backlog": 1, "rate_per_s": 0.0},
        "duration_ms": 60_000
    })));
    assert_eq!(times(&r, K::DeadLetterExpired), vec![29_500]);
    assert!(of(&r, K::Dropped).is_empty());
    assert_eq!(r.report.totals.dead_lettered_expired, 1);
    assert_eq!(r.report.totals.dropped, 0);
}

#[test]
fn rabbitmq_4_3_never_dead_letters_a_message_that_keeps_timing_out() {
    // The same message on a 4.3 quorum queue: a consumer timeout does not
    // raise the delivery count, so it goes round all minute: 40 deliveries
    // (every 1500 ms), none dead-lettered.
    let r = keeps_timing_out("rabbitmq_4_3");
    assert!(of(&r, K::DeadLetterExpired).is_empty());
    assert!(of(&r, K::Dropped).is_empty());
    assert_eq!(r.messages[0].receive_count, 40);
    assert_eq!(r.report.totals.expiries, 40);
}

#[test]
fn jetstream_backoff_example_redelivers_at_its_listed_waits() {
    // NATS docs: MaxDeliver=5, BackOff=[5s,30s,300s,3600s,84000s]. A message
    // never acked is delivered at 0, then 5 s, 35 s, 335 s and 3,935 s
    // later; the fifth delivery's 84,000 s wait runs past the day.
    let r = run_checked(&preset_scenario(json!({
        "broker": {"preset": "nats_jetstream", "max_receive_count": 5,
                   "lease_steps_ms": [5000, 30000, 300000, 3600000, 84000000]},
        "workers": {"count": 5},
        "work": {"dist": "constant", "ms": 86_400_000},
        "arrivals": {"backlog": 1, "rate_per_s": 0.0},
        "duration_ms": 86_400_000
    })));
    assert_eq!(
        times(&r, K::Receive),
        vec![0, 5_000, 35_000, 335_000, 3_935_000]
    );
}

#[test]
fn jetstream_leaves_a_message_past_max_deliver_in_the_stream_and_publishes_an_advisory() {
    // MaxDeliver 3, AckWait 2 s, a job of 10 s on three workers: delivered
    // at 0, 2 s and 4 s; the third delivery's AckWait ends at 6 s with the
    // count spent, and the server publishes the MAX_DELIVERIES advisory
    // then (nats-server `hasMaxDeliveries`). The message stays in the
    // stream, no dead-letter queue, and nothing delivers it again.
    let r = run_checked(&preset_scenario(json!({
        "broker": {"preset": "nats_jetstream", "visibility_timeout_ms": 2000,
                   "max_receive_count": 3},
        "workers": {"count": 3},
        "work": {"dist": "constant", "ms": 10_000},
        "arrivals": {"backlog": 1, "rate_per_s": 0.0},
        "duration_ms": 60_000
    })));
    assert_eq!(times(&r, K::Receive), vec![0, 2_000, 4_000]);
    assert_eq!(times(&r, K::MaxDeliveries), vec![6_000]);
    assert!(of(&r, K::DeadLetterExpired).is_empty());
    assert!(of(&r, K::Dropped).is_empty());
    assert_eq!(
        r.messages[0].fate,
        Fate::Stayed {
            at: 6_000,
            cause: DeadLetterCause::Expired
        }
    );
    assert_eq!(r.report.totals.stayed, 1);
    assert_eq!(r.report.totals.dead_lettered_expired, 0);
}

#[test]
fn jetstream_answers_a_late_ack_of_a_message_left_past_max_deliver_and_does_nothing() {
    // The same three deliveries; the message stays in the stream at 6 s.
    // The three runs end at 10, 12 and 14 s and ack: nats-server's
    // `processAckMsgLocked` finds no pending entry for the sequence (the
    // MaxDeliver check removed it), skips it and answers the ack, and a
    // stream under the default limits retention keeps the message
    // (`stream.go`, `ackMsg`). Neither rejected nor a deletion.
    let r = run_checked(&preset_scenario(json!({
        "broker": {"preset": "nats_jetstream", "visibility_timeout_ms": 2000,
                   "max_receive_count": 3},
        "workers": {"count": 3},
        "work": {"dist": "constant", "ms": 10_000},
        "arrivals": {"backlog": 1, "rate_per_s": 0.0},
        "duration_ms": 60_000
    })));
    assert_eq!(times(&r, K::AckNoOp), vec![10_000, 12_000, 14_000]);
    assert!(of(&r, K::AckRejected).is_empty());
    assert!(of(&r, K::AckOk).is_empty());
    assert_eq!(
        r.messages[0].fate,
        Fate::Stayed {
            at: 6_000,
            cause: DeadLetterCause::Expired
        }
    );
    assert_eq!(r.report.totals.stayed, 1);
    assert_eq!(r.report.totals.acks_rejected, 0);
    // Under a fate that keeps the message somewhere the consumer does
    // not read, the same ack is still judged as late.
    let r = run_checked(&preset_scenario(json!({
        "broker": {"preset": "nats_jetstream", "visibility_timeout_ms": 2000,
                   "max_receive_count": 3, "past_limit": "dead_letter"},
        "workers": {"count": 3},
        "work": {"dist": "constant", "ms": 10_000},
        "arrivals": {"backlog": 1, "rate_per_s": 0.0},
        "duration_ms": 60_000
    })));
    assert_eq!(times(&r, K::AckRejected), vec![10_000, 12_000, 14_000]);
    assert!(of(&r, K::AckNoOp).is_empty());
}

#[test]
fn jetstream_an_in_progress_ack_from_an_earlier_delivery_restarts_the_current_deliverys_ack_wait() {
    // nats-server `progressUpdate` finds the message's pending entry by its
    // stream sequence and resets its timestamp, whichever delivery's reply
    // subject carried the `+WPI`; `checkPending` then measures AckWait from
    // there. AckWait 2 s, in-progress every 3 s, two workers. Worker 0's
    // run (10 s) loses its delivery at 2 s; worker 1 gets the message at
    // 2 s and runs 2.5 s. Worker 0's in-progress at 3 s restarts the timer
    // of worker 1's delivery (to 5 s), so it does not expire at 4 s, and
    // worker 1's ack at 4.5 s is in time. Worker 0's next one, at 6 s,
    // finds the message acked; its ack at 10 s settles nothing.
    let r = run_checked(&preset_scenario(json!({
        "broker": {"preset": "nats_jetstream", "visibility_timeout_ms": 2000,
                   "max_receive_count": null},
        "workers": {"count": 2,
                    "heartbeat": {"interval_ms": 3000, "extend_by_ms": 2000}},
        "work": {"dist": "constant", "ms": 10_000},
        "arrivals": {"backlog": 1, "rate_per_s": 0.0},
        "faults": [{"kind": "run", "message": 0, "receipt": 2, "work_ms": 2500}],
        "duration_ms": 30_000
    })));
    assert_eq!(times(&r, K::Receive), vec![0, 2_000]);
    assert_eq!(times(&r, K::Expire), vec![2_000]);
    assert_eq!(of(&r, K::ExtendOk), vec![(3_000, 0, 0, 1)]);
    assert_eq!(of(&r, K::AckOk), vec![(4_500, 0, 1, 2)]);
    assert_eq!(r.deliveries[1].lease_end, LeaseEnd::Acked);
    assert_eq!(times(&r, K::ExtendRejected), vec![6_000, 9_000]);
    assert_eq!(of(&r, K::AckNoOp), vec![(10_000, 0, 0, 1)]);
    assert_eq!(r.report.totals.redeliveries, 1);
}

#[test]
fn jetstream_an_in_progress_ack_restarts_the_timer_by_the_deliverys_backoff_step() {
    // `+WPI` carries no duration: the reset timestamp is measured against
    // the delivery's BackOff step (`checkPending`: `deadline =
    // BackOff[dc]`), not against anything the worker asks for. BackOff
    // [2 s, 9 s], in-progress every 1.5 s asking for 0.5 s, one 5 s run:
    // each call moves the deadline to 2 s after it (3.5, 5 then 6.5 s), so
    // the run keeps its delivery and acks at 5 s. Extending by the 0.5 s
    // asked would have lost it at 2 s.
    let r = run_checked(&preset_scenario(json!({
        "broker": {"preset": "nats_jetstream", "visibility_timeout_ms": 2000,
                   "max_receive_count": 5, "lease_steps_ms": [2000, 9000]},
        "workers": {"count": 1,
                    "heartbeat": {"interval_ms": 1500, "extend_by_ms": 500}},
        "work": {"dist": "constant", "ms": 5_000},
        "arrivals": {"backlog": 1, "rate_per_s": 0.0},
        "duration_ms": 30_000
    })));
    assert_eq!(times(&r, K::ExtendOk), vec![1_500, 3_000, 4_500]);
    assert!(of(&r, K::Expire).is_empty());
    assert_eq!(of(&r, K::AckOk), vec![(5_000, 0, 0, 1)]);
}

#[test]
fn jetstream_ack_wait_defaults_to_thirty_seconds_and_redelivers_without_limit() {
    // AckWait 30 s, MaxDeliver -1: a 100 s job on one worker is taken back
    // at 30 s and, after the late ack at 100 s settles it, never again.
    let r = run_checked(&preset_scenario(json!({
        "broker": {"preset": "nats_jetstream"},
        "workers": {"count": 1},
        "work": {"dist": "constant", "ms": 100_000},
        "arrivals": {"backlog": 1, "rate_per_s": 0.0},
        "duration_ms": 300_000
    })));
    assert_eq!(of(&r, K::Expire), vec![(30_000, 0, 0, 1)]);
    // The late ack at 100 s is accepted: the message sat in the stream.
    assert_eq!(of(&r, K::AckOk), vec![(100_000, 0, 0, 1)]);
    assert_eq!(r.messages[0].fate, Fate::Deleted { at: 100_000 });
}

#[test]
fn redis_streams_without_a_claimer_never_takes_an_entry_back() {
    // Two consumers, one 100 s run: delivered once, acked at 100 s.
    let r = run_checked(&preset_scenario(json!({
        "broker": {"preset": "redis_streams"},
        "workers": {"count": 2},
        "work": {"dist": "constant", "ms": 100_000},
        "arrivals": {"backlog": 1, "rate_per_s": 0.0},
        "duration_ms": 300_000
    })));
    assert_eq!(of(&r, K::Receive), vec![(0, 0, 0, 1)]);
    assert!(of(&r, K::Expire).is_empty());
    assert_eq!(of(&r, K::AckOk), vec![(100_000, 0, 0, 1)]);
}

#[test]
fn a_redis_claimer_takes_an_entry_on_its_first_sweep_past_min_idle_and_the_first_xack_removes_it() {
    // Observed on Redis 7.0 (XAUTOCLAIM every 500 ms from the start,
    // min-idle-time 2000): an entry delivered at 6 ms was claimed by the
    // sweep at 2500, not the one at 2000; the first consumer's XACK after
    // the claim removed it, and the claimer's XACK removed nothing. Here:
    // calls take 6 ms, so the entry is delivered at 6 (idle past 2000 at
    // 2006), claimed at 2500 by the other consumer; the first run starts at
    // 12, ends at 3012, and its XACK reaches Redis at 3018.
    let r = run_checked(&preset_scenario(json!({
        "broker": {"preset": "redis_streams", "expiry_takes": "claim",
                   "visibility_timeout_ms": 2000, "expiry_check_ms": 500,
                   "rpc_latency_ms": 6},
        "workers": {"count": 2},
        "work": {"dist": "constant", "ms": 3000},
        "arrivals": {"backlog": 1, "rate_per_s": 0.0},
        "duration_ms": 10_000
    })));
    assert_eq!(of(&r, K::Expire), vec![(2500, 0, 0, 1)]);
    assert_eq!(of(&r, K::Receive)[1], (2500, 0, 1, 2));
    assert_eq!(of(&r, K::AckOk), vec![(3018, 0, 0, 1)]);
    // The claimer's copy runs from 2506 to 5506; its XACK at 5512 finds
    // nothing pending and answers 0: nothing to settle.
    assert_eq!(of(&r, K::AckNoOp), vec![(5512, 0, 1, 2)]);
    assert!(of(&r, K::AckRejected).is_empty());
}

#[test]
fn redis_xautoclaim_example_claims_an_entry_idle_an_hour_and_the_claim_restarts_its_idle_time() {
    // XAUTOCLAIM's own example (redis/docs content/commands/xautoclaim.md):
    // `XAUTOCLAIM mystream mygroup Alice 3600000 0-0 COUNT 25` claims the
    // entries "idle ... for at least one hour"; "claiming a message resets
    // its idle time" and "increments the attempted deliveries count". Here
    // the claimer calls it every 10 min from the start, and each run hangs
    // for 3 h on three consumers. Read at 0, the entry is claimed at 60 min
    // (attempt 2); the claim restarts its idle time, so the sweeps at 70 to
    // 110 min pass it by and the one at 120 min claims it again (attempt 3).
    let r = run_checked(&preset_scenario(json!({
        "broker": {"preset": "redis_streams", "expiry_takes": "claim",
                   "visibility_timeout_ms": 3_600_000, "expiry_check_ms": 600_000},
        "workers": {"count": 3},
        "work": {"dist": "constant", "ms": 10_800_000},
        "arrivals": {"backlog": 1, "rate_per_s": 0.0},
        "duration_ms": 8_000_000
    })));
    assert_eq!(
        of(&r, K::Expire),
        vec![(3_600_000, 0, 0, 1), (7_200_000, 0, 1, 2)]
    );
    assert_eq!(
        of(&r, K::Receive),
        vec![(0, 0, 0, 1), (3_600_000, 0, 1, 2), (7_200_000, 0, 2, 3)]
    );
    assert_eq!(r.messages[0].receive_count, 3);
}

/// Thirty entries read at 0 by thirty consumers whose runs hang for 3 h,
/// thirty more consumers free, and a claimer with an hour's
/// `min-idle-time` sweeping every 10 min from the start.
fn thirty_idle_entries(claim_count: Option<u32>) -> lease_sim::Run {
    let mut broker = json!({"preset": "redis_streams", "expiry_takes": "claim",
                            "visibility_timeout_ms": 3_600_000, "expiry_check_ms": 600_000});
    if let Some(n) = claim_count {
        broker["claim_count"] = json!(n);
    }
    run_checked(&preset_scenario(json!({
        "broker": broker,
        "workers": {"count": 60},
        "work": {"dist": "constant", "ms": 10_800_000},
        "arrivals": {"backlog": 30, "rate_per_s": 0.0},
        "duration_ms": 4_500_000
    })))
}

#[test]
fn a_redis_claimer_sweep_claims_at_most_count_entries_the_oldest_first_and_the_rest_on_the_next_sweep(
) {
    // XAUTOCLAIM's own example (redis/docs content/commands/xautoclaim.md):
    // `XAUTOCLAIM mystream mygroup Alice 3600000 0-0 COUNT 25` claims "the
    // next 25 entries that are pending and idle ... for at least one hour,
    // starting at the stream's beginning"; entries are scanned in ID order
    // (t_stream.c, `xautoclaimCommand`). Thirty entries idle an hour at the
    // sweep at 60 min: entries 0-24 are claimed then; 25-29 stay pending
    // with their first consumers until the sweep at 70 min, whose scan from
    // 0-0 passes the 25 just claimed (their idle time restarted).
    let r = thirty_idle_entries(Some(25));
    let back: Vec<(u64, u32)> = of(&r, K::Expire).iter().map(|e| (e.0, e.1)).collect();
    let mut want: Vec<(u64, u32)> = (0..25).map(|m| (3_600_000, m)).collect();
    want.extend((25..30).map(|m| (4_200_000, m)));
    assert_eq!(back, want);
    // Each claimed entry is a second delivery, to a free consumer.
    let second: Vec<(u64, u32)> = of(&r, K::Receive)
        .iter()
        .filter(|e| e.3 == 2)
        .map(|e| (e.0, e.1))
        .collect();
    assert_eq!(second, want);
    // Redis's default COUNT, 100, claims all thirty on the first sweep.
    let r = thirty_idle_entries(None);
    assert_eq!(
        of(&r, K::Expire)
            .iter()
            .map(|e| (e.0, e.1))
            .collect::<Vec<_>>(),
        (0..30).map(|m| (3_600_000, m)).collect::<Vec<_>>()
    );
}

#[test]
fn a_redis_claimer_count_of_zero_is_refused() {
    // Redis answers `COUNT must be > 0`.
    let text = json!({
        "broker": {"preset": "redis_streams", "expiry_takes": "claim", "claim_count": 0}
    });
    let e = parse_scenario(&text.to_string())
        .expect_err("a COUNT of 0 is refused")
        .to_string();
    assert!(e.contains("broker.claim_count = 0: must be from 1"), "{e}");
}

#[test]
fn a_redis_claim_is_a_delivery_that_the_first_worker_s_late_xack_cannot_call_back() {
    // Observed on Redis 7.0 (`redis-prefetched-behind-slow`): one consumer
    // reads two entries at once and runs one at a time; message 0 takes
    // 3 s. The sweep at 2000 claims both (idle 2 s); message 0's first run
    // XACKs at 3000 (1: it removed the entry), yet the claimed copy is
    // still handed on and run, and its own XACK returns 0. Here: both
    // claimed at 2000, and neither received again while the worker's two
    // slots are held. At 3000 the first run's late ack settles message 0;
    // the freed slot receives its claimed copy all the same (receipt 2).
    // Message 1's buffered first run acks at 3500 and the next receive
    // gets its claimed copy; the copies run 3500-4000 and 4000-4500 and
    // their acks find nothing.
    let s = preset_scenario(json!({
        "broker": {"preset": "redis_streams", "expiry_takes": "claim",
                   "visibility_timeout_ms": 2000, "expiry_check_ms": 500,
                   "receive_batch": 2},
        "workers": {"count": 1, "prefetch": 2},
        "work": {"dist": "constant", "ms": 500},
        "arrivals": {"backlog": 2, "rate_per_s": 0.0},
        "faults": [{"kind": "run", "message": 0, "receipt": 1, "work_ms": 3000}],
        "duration_ms": 8000
    }));
    let r = run_checked(&s);
    assert_eq!(of(&r, K::Expire), vec![(2000, 0, 0, 1), (2000, 1, 0, 1)]);
    assert_eq!(
        of(&r, K::Receive),
        vec![(0, 0, 0, 1), (0, 1, 0, 1), (3000, 0, 0, 2), (3500, 1, 0, 2)]
    );
    assert_eq!(of(&r, K::AckOk), vec![(3000, 0, 0, 1), (3500, 1, 0, 1)]);
    assert_eq!(of(&r, K::AckNoOp), vec![(4000, 0, 0, 2), (4500, 1, 0, 2)]);
    assert!(of(&r, K::AckRejected).is_empty());
    assert_eq!(r.messages[0].fate, Fate::Deleted { at: 3000 });
    // Under `expiry_takes: delivery` the expired entry goes back to the
    // queue, where the late ack deletes it before anyone receives it again.
    let mut v: Value = serde_json::to_value(&s).unwrap();
    v["broker"]["expiry_takes"] = json!("delivery");
    let r = run_checked(&preset_scenario(v));
    assert_eq!(
        of(&r, K::Receive),
        vec![(0, 0, 0, 1), (0, 1, 0, 1), (3000, 1, 0, 2)]
    );
}

#[test]
fn a_redis_claimed_entry_goes_to_the_next_receive_ahead_of_the_stream_s_new_entries() {
    // XAUTOCLAIM returns the entries it claims to the claimer: they are its
    // deliveries, not entries back in the stream for `XREADGROUP >`. One
    // consumer, one at a time, four entries of 1 s: message 0's first run
    // fails at 100 without an XACK; messages 1 and 2 run 100-1100 and
    // 1100-2100. The sweep at 2000 claims message 0 (idle since 0), and the
    // receive at 2100 gets the claimed copy before message 3.
    let s = preset_scenario(json!({
        "broker": {"preset": "redis_streams", "expiry_takes": "claim",
                   "visibility_timeout_ms": 2000, "expiry_check_ms": 500},
        "workers": {"count": 1, "on_error": "expire"},
        "work": {"dist": "constant", "ms": 1000},
        "arrivals": {"backlog": 4, "rate_per_s": 0.0},
        "faults": [{"kind": "run", "message": 0, "receipt": 1, "outcome": "fail", "work_ms": 100}],
        "duration_ms": 8000
    }));
    let r = run_checked(&s);
    assert_eq!(of(&r, K::Expire), vec![(2000, 0, 0, 1)]);
    assert_eq!(of(&r, K::Receive)[3..], [(2100, 0, 0, 2), (3100, 3, 0, 1)]);
    // Under `expiry_takes: delivery` it goes back to the queue behind
    // message 3, which has waited there since 0.
    let mut v: Value = serde_json::to_value(&s).unwrap();
    v["broker"]["expiry_takes"] = json!("delivery");
    let r = run_checked(&preset_scenario(v));
    assert_eq!(of(&r, K::Receive)[3..], [(2100, 3, 0, 1), (3100, 0, 0, 2)]);
}

#[test]
fn jetstream_a_fetched_message_waiting_behind_a_slow_one_uses_its_ack_wait() {
    // A fetch of two, one handler, AckWait 2 s, 2.5 s of work: both leases
    // start at 0, and the second message's runs out at 2000 while it waits
    // in the buffer (observed on NATS 2.9: the next fetch got it again).
    // The first run's ack at 2500 is accepted; the worker then starts the
    // buffered copy and fetches the message again (receipt 2).
    let r = run_checked(&preset_scenario(json!({
        "broker": {"preset": "nats_jetstream", "visibility_timeout_ms": 2000,
                   "receive_batch": 2},
        "workers": {"count": 1, "prefetch": 2},
        "work": {"dist": "constant", "ms": 2500},
        "arrivals": {"backlog": 2, "rate_per_s": 0.0},
        "duration_ms": 6000
    })));
    assert_eq!(of(&r, K::Expire)[..2], [(2000, 0, 0, 1), (2000, 1, 0, 1)]);
    assert_eq!(r.deliveries[1].started_at, Some(2500));
    assert_eq!(of(&r, K::AckOk)[0], (2500, 0, 0, 1));
    assert_eq!(of(&r, K::Receive)[2], (2500, 1, 0, 2));
}

/// One worker, RabbitMQ's channel-wide consumer timeout of 1 s checked at
/// the deadline: the 3 s run's channel is closed at 1000, the message goes
/// back and the same worker's new channel receives it again at once.
fn closed_channel_run(late_ack: Option<&str>) -> lease_sim::Run {
    let mut broker = json!({"preset": "rabbitmq_4_2", "visibility_timeout_ms": 1000,
                            "expiry_check_ms": null, "max_receive_count": null});
    if let Some(l) = late_ack {
        broker["late_ack"] = json!(l);
    }
    run_checked(&preset_scenario(json!({
        "broker": broker,
        "workers": {"count": 1, "concurrency": 2, "prefetch": 2},
        "work": {"dist": "constant", "ms": 3000},
        "arrivals": {"backlog": 1, "rate_per_s": 0.0},
        "faults": [{"kind": "run", "message": 0, "receipt": 2, "work_ms": 500}],
        "duration_ms": 6000
    })))
}

#[test]
fn an_amqp_client_cannot_send_an_ack_on_a_channel_the_broker_closed() {
    // RabbitMQ 3.10 `rabbit_channel.erl`: the channel's tick finds the
    // oldest unacked delivery past `consumer_timeout` and raises a
    // PRECONDITION_FAILED channel error, which closes the channel; a closed
    // channel carries no more frames (pika: ChannelWrongStateError, nothing
    // sent). The copy on the new channel runs 1000-1500 and is acked; the
    // first run ends at 3000 and its ack is never sent.
    let r = closed_channel_run(None);
    assert_eq!(of(&r, K::Expire), vec![(1000, 0, 0, 1)]);
    assert_eq!(of(&r, K::AckOk), vec![(1500, 0, 0, 2)]);
    assert_eq!(of(&r, K::AckUnsent), vec![(3000, 0, 0, 1)]);
    assert!(of(&r, K::AckRejected).is_empty());
    assert_eq!(
        r.deliveries[0].outcome,
        lease_sim::run::Outcome::AckRejected
    );
    assert_eq!(r.report.totals.acks_rejected, 1);
}

#[test]
fn a_client_that_reopens_the_channel_sends_the_old_tag_and_the_broker_rejects_it() {
    // `late_ack: channel_error`: the ack goes out on the reopened channel
    // and the broker answers it with an unknown delivery tag.
    let r = closed_channel_run(Some("channel_error"));
    assert!(of(&r, K::AckUnsent).is_empty());
    assert_eq!(of(&r, K::AckRejected), vec![(3000, 0, 0, 1)]);
}
