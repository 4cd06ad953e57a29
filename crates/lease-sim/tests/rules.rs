//! One test per rule of docs/MODEL.md, named after the rule. Expected times are
//! worked out by hand from the rules (comments show the arithmetic); every
//! run also checks every invariant after every event.

mod common;

use common::{of, run, run_checked, scenario, times};
use lease_sim::run::{EventKind as K, Fate, LeaseEnd, Outcome, WorkerMarkKind};
use lease_sim::{shipped, simulate, Options};
use serde_json::json;

fn shipped_run(name: &str) -> lease_sim::Run {
    run_checked(&shipped::find(name).expect("shipped").scenario)
}

fn shipped_with(name: &str, f: impl FnOnce(&mut lease_sim::Scenario)) -> lease_sim::Run {
    let mut s = shipped::find(name).expect("shipped").scenario;
    f(&mut s);
    run_checked(&s)
}

// ---- The 90-second message, by hand --------------------------------------

#[test]
fn second_worker_starts_at_sixty_seconds() {
    // One 90 s message, 60 s timeout, two workers, no heartbeat, no redrive.
    let r = shipped_run("ninety-second-message");
    // Who holds it when: w0 from 0, w1 from 60 s (lease 1 expired), w0 again
    // from 120 s (it was free since its rejected ack at 90 s), and so on.
    assert_eq!(
        of(&r, K::Receive),
        vec![
            (0, 0, 0, 1),
            (60_000, 0, 1, 2),
            (120_000, 0, 0, 3),
            (180_000, 0, 1, 4),
            (240_000, 0, 0, 5)
        ]
    );
    assert_eq!(
        times(&r, K::Start),
        vec![0, 60_000, 120_000, 180_000, 240_000]
    );
    // The first worker's ack at 90 s carries receipt 1, stale since 60 s.
    assert_eq!(of(&r, K::AckRejected)[0], (90_000, 0, 0, 1));
    assert_eq!(
        times(&r, K::AckRejected),
        vec![90_000, 150_000, 210_000, 270_000]
    );
    assert!(of(&r, K::AckOk).is_empty());
    // Where it ends: still circulating, delivered five times, never deleted.
    assert_eq!(r.messages[0].fate, Fate::InFlight);
    assert_eq!(r.messages[0].receive_count, 5);
    assert_eq!(r.report.totals.deleted, 0);
    assert_eq!(r.deliveries[1].overlaps, Some(0));
}

// ---- Time and order --------------------------------------------------------

#[test]
fn ack_arriving_at_expires_at_is_too_late() {
    // Work 1000 ms, timeout 1000 ms: the ack reaches the broker at 1000 = expires_at.
    let r = run(json!({"broker": {"visibility_timeout_ms": 1000}, "duration_ms": 5000}));
    assert_eq!(of(&r, K::Expire)[0], (1000, 0, 0, 1));
    assert_eq!(of(&r, K::AckRejected)[0], (1000, 0, 0, 1));
    // One millisecond more and it is in time.
    let r = run(json!({"broker": {"visibility_timeout_ms": 1001}}));
    assert_eq!(of(&r, K::AckOk), vec![(1000, 0, 0, 1)]);
}

#[test]
fn sampled_durations_round_half_up_never_below_one_ms() {
    use lease_sim::work::to_ms;
    assert_eq!(to_ms(0.4), 1);
    assert_eq!(to_ms(2.5), 3);
    assert_eq!(to_ms(2.49), 2);
    // Draws far below 1 ms still take 1 ms.
    let r = run(json!({"work": {"dist": "exponential", "mean_ms": 0.01}}));
    assert_eq!(times(&r, K::Finish), vec![1]);
}

#[test]
fn extension_arriving_at_expires_at_is_too_late() {
    // Timeout 1000, heartbeat every 1000: the first extension reaches the
    // broker at 1000 = expires_at, after the lease has ended.
    let r = run(json!({
        "broker": {"visibility_timeout_ms": 1000},
        "workers": {"heartbeat": {"interval_ms": 1000}},
        "work": {"dist": "constant", "ms": 1500}, "duration_ms": 1200
    }));
    assert_eq!(of(&r, K::Expire), vec![(1000, 0, 0, 1)]);
    assert_eq!(of(&r, K::ExtendRejected), vec![(1000, 0, 0, 1)]);
    assert!(of(&r, K::ExtendOk).is_empty());
}

// ---- The broker --------------------------------------------------------------

#[test]
fn receive_hands_out_oldest_first() {
    // m0 expires at 1500 (available since 1500), m1 waits since 0: at 2000
    // the worker gets m1 first, then m0 at 4000.
    let r = run(json!({
        "broker": {"visibility_timeout_ms": 1500},
        "work": {"dist": "constant", "ms": 2000},
        "arrivals": {"backlog": 2},
        "duration_ms": 4001
    }));
    let rx: Vec<_> = of(&r, K::Receive).iter().map(|e| (e.0, e.1, e.3)).collect();
    assert_eq!(rx, vec![(0, 0, 1), (2000, 1, 1), (4000, 0, 2)]);
}

#[test]
fn receipts_are_delivery_numbers() {
    let r = shipped_run("ninety-second-message");
    let receipts: Vec<u32> = r.deliveries.iter().map(|d| d.receipt).collect();
    assert_eq!(receipts, vec![1, 2, 3, 4, 5]);
    assert_eq!(
        r.messages[0].receive_count as usize,
        r.messages[0].deliveries.len()
    );
}

#[test]
fn expiry_makes_the_message_available_again_at_once() {
    let r = shipped_run("ninety-second-message");
    assert_eq!(of(&r, K::Expire)[0], (60_000, 0, 0, 1));
    assert_eq!(of(&r, K::Receive)[1].0, 60_000);
}

#[test]
fn expiry_with_count_exhausted_dead_letters_as_expired() {
    // r1 0..1000 lease, worker busy till 5000; r2 at 5000 expires at 6000 =
    // the 2nd receive: dead-lettered, cause expired. Run settles at 10000.
    let r = run(json!({
        "broker": {"visibility_timeout_ms": 1000, "max_receive_count": 2},
        "work": {"dist": "constant", "ms": 5000}
    }));
    assert_eq!(times(&r, K::DeadLetterExpired), vec![6000]);
    assert_eq!(r.report.totals.dead_lettered_expired, 1);
    assert_eq!(r.report.totals.dead_lettered_failed, 0);
    assert_eq!(r.end_ms, 10_000);
}

#[test]
fn ack_accepted_only_with_current_receipt_and_valid_lease() {
    let r = run(json!({}));
    assert_eq!(of(&r, K::AckOk), vec![(1000, 0, 0, 1)]);
    assert_eq!(r.messages[0].fate, Fate::Deleted { at: 1000 });
    assert_eq!(r.deliveries[0].lease_end, LeaseEnd::Acked);
}

#[test]
fn rejected_ack_never_undoes_the_committed_effect() {
    let r = run(json!({"broker": {"visibility_timeout_ms": 1000}, "duration_ms": 1500}));
    assert_eq!(times(&r, K::CommitApplied), vec![1000]);
    assert_eq!(times(&r, K::AckRejected), vec![1000]);
    assert_eq!(r.messages[0].effects, 1);
    assert_eq!(r.deliveries[0].outcome, Outcome::AckRejected);
}

#[test]
fn extension_resets_the_lease_from_now() {
    // Timeout 2500, heartbeat every 2000 extending by 1000: at 2000 the lease
    // becomes 3000 (reset from now), not 3500 (an addition), so it expires at 3000.
    let r = run(json!({
        "broker": {"visibility_timeout_ms": 2500},
        "workers": {"heartbeat": {"interval_ms": 2000, "extend_by_ms": 1000}},
        "work": {"dist": "constant", "ms": 5000}, "duration_ms": 5000
    }));
    assert_eq!(times(&r, K::ExtendOk), vec![2000]);
    assert_eq!(of(&r, K::Expire)[0].0, 3000);
    assert_eq!(times(&r, K::ExtendRejected), vec![4000]);
}

#[test]
fn shorter_extend_by_shortens_the_lease() {
    let r = run(json!({
        "broker": {"visibility_timeout_ms": 10000},
        "workers": {"heartbeat": {"interval_ms": 1000, "extend_by_ms": 500}},
        "work": {"dist": "constant", "ms": 5000}, "duration_ms": 5000
    }));
    assert_eq!(times(&r, K::ExtendOk), vec![1000]);
    assert_eq!(of(&r, K::Expire)[0].0, 1500);
}

#[test]
fn extension_rejected_after_the_lease_expired() {
    let r = run(json!({
        "broker": {"visibility_timeout_ms": 10000},
        "workers": {"heartbeat": {"interval_ms": 1000, "extend_by_ms": 500}},
        "work": {"dist": "constant", "ms": 5000}, "duration_ms": 5000
    }));
    // Expired at 1500; the tick at 2000 is refused.
    assert_eq!(of(&r, K::ExtendRejected)[0], (2000, 0, 0, 1));
}

#[test]
fn extension_with_a_stale_receipt_is_rejected() {
    // w0 holds receipt 1 until 1000; w1 gets receipt 2 at 1000 (lease until
    // 2000). w0's heartbeat at 1500 carries receipt 1: the lease on the
    // message is valid, but not w0's, so the extension is refused and the
    // lease of receipt 2 is untouched.
    let r = run(json!({
        "broker": {"visibility_timeout_ms": 1000},
        "workers": {"count": 2, "heartbeat": {"interval_ms": 1500}},
        "work": {"dist": "constant", "ms": 3000}, "duration_ms": 2100
    }));
    assert_eq!(of(&r, K::Receive)[1], (1000, 0, 1, 2));
    assert_eq!(of(&r, K::ExtendRejected)[0], (1500, 0, 0, 1));
    assert!(of(&r, K::ExtendOk).is_empty());
    assert_eq!(of(&r, K::Expire), vec![(1000, 0, 0, 1), (2000, 0, 1, 2)]);
}

#[test]
fn extension_rejected_past_max_lease_lifetime_equal_allowed() {
    // Cap 5000 from the receive at 0: ticks at 1000, 2000, 3000 ask for
    // 3000, 4000, 5000 (equal is allowed); at 4000 asking 6000 is refused,
    // never clamped, and the lease expires at 5000.
    let r = run(json!({
        "broker": {"visibility_timeout_ms": 2000, "max_lease_lifetime_ms": 5000},
        "workers": {"heartbeat": {"interval_ms": 1000, "extend_by_ms": 2000}},
        "work": {"dist": "constant", "ms": 10000}, "duration_ms": 4500
    }));
    assert_eq!(times(&r, K::ExtendOk), vec![1000, 2000, 3000]);
    assert_eq!(times(&r, K::ExtendRejected), vec![4000]);
    let r = run(json!({
        "broker": {"visibility_timeout_ms": 2000, "max_lease_lifetime_ms": 5000},
        "workers": {"heartbeat": {"interval_ms": 1000, "extend_by_ms": 2000}},
        "work": {"dist": "constant", "ms": 10000}, "duration_ms": 5001
    }));
    assert_eq!(of(&r, K::Expire)[0].0, 5000);
}

#[test]
fn release_makes_the_message_available_at_once() {
    let r = run(json!({"workers": {"error_rate": 1.0}, "duration_ms": 2500}));
    assert_eq!(times(&r, K::Error), vec![1000, 2000]);
    assert_eq!(times(&r, K::Release), vec![1000, 2000]);
    let rx: Vec<_> = of(&r, K::Receive).iter().map(|e| (e.0, e.3)).collect();
    assert_eq!(rx, vec![(0, 1), (1000, 2), (2000, 3)]);
}

#[test]
fn release_with_count_exhausted_dead_letters_as_failed() {
    let r = run(json!({"workers": {"error_rate": 1.0}, "broker": {"max_receive_count": 2}}));
    assert_eq!(times(&r, K::DeadLetterFailed), vec![2000]);
    assert_eq!(r.report.totals.dead_lettered_failed, 1);
    assert_eq!(r.end_ms, 2000);
}

#[test]
fn release_needs_the_current_receipt_and_a_valid_lease() {
    let r = run(json!({
        "workers": {"error_rate": 1.0},
        "broker": {"visibility_timeout_ms": 500}, "duration_ms": 1200
    }));
    assert_eq!(of(&r, K::ReleaseRejected)[0], (1000, 0, 0, 1));
    assert_eq!(r.report.totals.releases_rejected, 1);
}

#[test]
fn on_error_expire_lets_the_lease_run_out_and_dead_letters_as_expired() {
    let r = run(json!({
        "workers": {"error_rate": 1.0, "on_error": "expire"},
        "broker": {"visibility_timeout_ms": 3000, "max_receive_count": 1}
    }));
    assert!(of(&r, K::Release).is_empty());
    assert_eq!(times(&r, K::DeadLetterExpired), vec![3000]);
}

#[test]
fn max_receive_count_null_means_no_redrive_policy() {
    let r = shipped_run("ninety-second-message");
    assert_eq!(r.report.totals.dead_lettered_expired, 0);
    assert_eq!(r.report.totals.expiries, 4);
    assert_eq!(r.messages[0].fate, Fate::InFlight);
}

#[test]
fn rpc_latency_each_way_and_the_broker_judges_on_arrival() {
    // Receive call arrives at 100 (lease starts), the worker sees it at 200.
    // Heartbeats sent at 1200, 2200, 3200 are judged at 1300, 2300, 3300.
    // Work ends at 3700; the ack is accepted at 3800.
    let r = run(json!({
        "broker": {"rpc_latency_ms": 100},
        "workers": {"heartbeat": {"interval_ms": 1000}},
        "work": {"dist": "constant", "ms": 3500}
    }));
    assert_eq!(times(&r, K::Receive), vec![100]);
    assert_eq!(times(&r, K::Start), vec![200]);
    assert_eq!(times(&r, K::ExtendOk), vec![1300, 2300, 3300]);
    assert_eq!(times(&r, K::Finish), vec![3700]);
    assert_eq!(times(&r, K::AckOk), vec![3800]);
    assert_eq!(r.report.ack_latency_ms.p50, Some(3700));
}

// ---- Presets and switches ---------------------------------------------------

#[test]
fn preset_fills_only_the_fields_left_out() {
    use lease_sim::resolve::resolve;
    let mut s =
        scenario(json!({"broker": {"preset": "azure_service_bus", "visibility_timeout_ms": 5000}}));
    let c = resolve(&s);
    assert_eq!(c.visibility_timeout_ms, 5000); // given in the file: wins
    assert_eq!(c.max_receive_count, None); // explicit null in the file: wins
    s.broker.max_receive_count = None; // left out: the preset's 10
    assert_eq!(resolve(&s).max_receive_count, Some(10));
    s.broker.visibility_timeout_ms = None;
    assert_eq!(resolve(&s).visibility_timeout_ms, 60_000);
}

#[test]
fn dlq_timing_on_next_receive_moves_it_on_the_receive_after() {
    let p = |timing: &str| {
        run(json!({
            "broker": {"visibility_timeout_ms": 1000, "max_receive_count": 1, "dlq_timing": timing},
            "work": {"dist": "constant", "ms": 5000}
        }))
    };
    // Exhausted at 1000; the worker's next receive, at 5000, moves it.
    assert_eq!(
        times(&p("on_next_receive"), K::DeadLetterExpired),
        vec![5000]
    );
    assert_eq!(times(&p("on_expiry"), K::DeadLetterExpired), vec![1000]);
}

#[test]
fn late_ack_accepted_if_not_redelivered() {
    // Expired at 1000, nobody else to take it: the ack at 2000 still deletes.
    let r = run(json!({
        "broker": {"visibility_timeout_ms": 1000, "late_ack": "accepted_if_not_redelivered"},
        "work": {"dist": "constant", "ms": 2000}
    }));
    assert_eq!(times(&r, K::AckOk), vec![2000]);
    assert_eq!(r.deliveries[0].lease_end, LeaseEnd::AckedLate);
    assert_eq!(r.messages[0].fate, Fate::Deleted { at: 2000 });
}

#[test]
fn late_ack_rejected_once_redelivered() {
    // A second worker took it at 1000: the old receipt no longer counts.
    let r = run(json!({
        "broker": {"visibility_timeout_ms": 1000, "late_ack": "accepted_if_not_redelivered"},
        "workers": {"count": 2},
        "work": {"dist": "constant", "ms": 2000}, "duration_ms": 2500
    }));
    assert_eq!(of(&r, K::AckRejected)[0], (2000, 0, 0, 1));
}

#[test]
fn late_ack_switch_applies_to_acks_only() {
    // Under accepted_if_not_redelivered a late release and a late extension
    // are still refused: the lease ended at 1000.
    let r = run(json!({
        "broker": {"visibility_timeout_ms": 1000, "late_ack": "accepted_if_not_redelivered"},
        "workers": {"error_rate": 1.0, "heartbeat": {"interval_ms": 1500}},
        "work": {"dist": "constant", "ms": 2000}, "duration_ms": 2001
    }));
    assert_eq!(of(&r, K::ExtendRejected), vec![(1500, 0, 0, 1)]);
    assert_eq!(of(&r, K::ReleaseRejected), vec![(2000, 0, 0, 1)]);
    assert!(of(&r, K::Release).is_empty());
}

#[test]
fn on_next_receive_dead_letters_with_the_last_lease_s_cause_and_goes_on_to_the_next_message() {
    // m0 leased 0..1000 and exhausted by expiry at 1000; m1 arrives at 1000.
    // The worker's ack is rejected at 1500, its next receive meets m0 first:
    // m0 is dead-lettered (expired) and the same receive hands out m1.
    let r = run(json!({
        "broker": {"visibility_timeout_ms": 1000, "max_receive_count": 1,
                   "dlq_timing": "on_next_receive"},
        "work": {"dist": "constant", "ms": 1500},
        "arrivals": {"backlog": 1, "rate_per_s": 1.0, "process": "fixed"},
        "duration_ms": 1600
    }));
    assert_eq!(
        of(&r, K::DeadLetterExpired),
        vec![(1500, 0, u32::MAX, u32::MAX)]
    );
    assert_eq!(of(&r, K::Receive), vec![(0, 0, 0, 1), (1500, 1, 0, 1)]);
    // Exhausted by a release: the cause is `failed`, moved by the next receive.
    let r = run(json!({
        "broker": {"max_receive_count": 1, "dlq_timing": "on_next_receive"},
        "workers": {"error_rate": 1.0}
    }));
    assert_eq!(times(&r, K::DeadLetterFailed), vec![1000]);
    assert_eq!(r.report.totals.dead_lettered_failed, 1);
}

#[test]
fn count_at_expiry_or_abandon_counts_lease_ends() {
    for count_at in ["receive", "expiry_or_abandon"] {
        let r = run(json!({
            "broker": {"visibility_timeout_ms": 1000, "max_receive_count": 2, "count_at": count_at},
            "work": {"dist": "constant", "ms": 5000}
        }));
        // Two lease ends (1000 and 6000): the second exhausts the count.
        assert_eq!(times(&r, K::DeadLetterExpired), vec![6000], "{count_at}");
    }
}

#[test]
fn sqs_fifo_hands_out_nothing_while_any_message_is_in_flight() {
    let r = run(json!({
        "broker": {"preset": "sqs_fifo"},
        "workers": {"count": 2},
        "arrivals": {"backlog": 3}
    }));
    let rx: Vec<_> = of(&r, K::Receive).iter().map(|e| (e.0, e.1)).collect();
    assert_eq!(rx, vec![(0, 0), (1000, 1), (2000, 2)]);
}

#[test]
fn each_preset_sets_the_table_s_defaults() {
    use lease_sim::resolve::{resolve, SQS_MAX_LEASE_LIFETIME_MS};
    use lease_sim::scenario::{CountAt as C, DlqTiming as D, LateAck as L, Preset};
    type Row = (Preset, u64, Option<u64>, Option<u32>, D, L, C, bool);
    let table: [Row; 5] = [
        (
            Preset::Textbook,
            30_000,
            None,
            None,
            D::OnExpiry,
            L::Rejected,
            C::Receive,
            false,
        ),
        (
            Preset::SqsStandard,
            30_000,
            Some(SQS_MAX_LEASE_LIFETIME_MS),
            None,
            D::OnNextReceive,
            L::AcceptedIfNotRedelivered,
            C::Receive,
            false,
        ),
        (
            Preset::SqsFifo,
            30_000,
            Some(SQS_MAX_LEASE_LIFETIME_MS),
            None,
            D::OnNextReceive,
            L::Rejected,
            C::Receive,
            true,
        ),
        (
            Preset::AzureServiceBus,
            60_000,
            None,
            Some(10),
            D::OnExpiry,
            L::Rejected,
            C::ExpiryOrAbandon,
            false,
        ),
        (
            Preset::GooglePubsub,
            10_000,
            None,
            Some(5),
            D::OnExpiry,
            L::AcceptedIfNotRedelivered,
            C::ExpiryOrAbandon,
            false,
        ),
    ];
    assert_eq!(SQS_MAX_LEASE_LIFETIME_MS, 12 * 3_600_000);
    for (preset, timeout, lifetime, mrc, dlq, late, count, fifo) in table {
        let mut s = lease_sim::Scenario::default();
        s.broker.preset = preset;
        let c = resolve(&s);
        assert_eq!(c.visibility_timeout_ms, timeout, "{preset:?}");
        assert_eq!(c.max_lease_lifetime_ms, lifetime, "{preset:?}");
        assert_eq!(c.max_receive_count, mrc, "{preset:?}");
        assert_eq!(
            (c.dlq_timing, c.late_ack, c.count_at),
            (dlq, late, count),
            "{preset:?}"
        );
        assert_eq!(c.single_group_fifo, fifo, "{preset:?}");
        let hb = c
            .heartbeat
            .map(|h| (h.interval_ms, h.extend_by_ms, h.max_extensions));
        let want = (preset == Preset::GooglePubsub).then_some((5_000, 10_000, Some(720)));
        assert_eq!(hb, want, "{preset:?}");
        // A switch given in the file wins over the preset.
        s.broker.dlq_timing = Some(D::OnExpiry);
        s.broker.late_ack = Some(L::Rejected);
        s.broker.count_at = Some(C::Receive);
        s.broker.max_lease_lifetime_ms = Some(Some(1_000));
        let c = resolve(&s);
        assert_eq!(
            (
                c.dlq_timing,
                c.late_ack,
                c.count_at,
                c.max_lease_lifetime_ms
            ),
            (D::OnExpiry, L::Rejected, C::Receive, Some(1_000)),
            "{preset:?}"
        );
    }
}

#[test]
fn sqs_fifo_orders_by_arrival_so_an_expired_message_goes_first() {
    // m0 (1500 ms of work) expires at 1000 with m1 still waiting: the single
    // group hands m0 out again before m1, so m1 is blocked behind it for ever.
    let r = run(json!({
        "broker": {"preset": "sqs_fifo", "visibility_timeout_ms": 1000},
        "workers": {"count": 2},
        "work": {"dist": "constant", "ms": 1500},
        "arrivals": {"backlog": 2}, "duration_ms": 5000
    }));
    let rx: Vec<_> = of(&r, K::Receive).iter().map(|e| (e.0, e.1, e.3)).collect();
    assert_eq!(
        rx,
        vec![
            (0, 0, 1),
            (1000, 0, 2),
            (2000, 0, 3),
            (3000, 0, 4),
            (4000, 0, 5)
        ]
    );
    assert_eq!(r.messages[1].receive_count, 0);
}

#[test]
fn pubsub_lease_manager_stops_after_720_extensions() {
    // A hung handler under the client's lease manager: 720 extensions every
    // 5 s (the last at 3,600 s, lease until 3,610 s), then the lease lapses.
    let mut s = scenario(json!({
        "broker": {"preset": "google_pubsub"},
        "workers": {"hang_rate": 1.0},
        "duration_ms": 3_620_000
    }));
    s.broker.visibility_timeout_ms = None;
    s.broker.max_receive_count = None;
    s.workers.heartbeat = None;
    let r = run_checked(&s);
    let ok = times(&r, K::ExtendOk);
    assert_eq!(ok.len(), 720);
    assert_eq!(ok.last(), Some(&3_600_000));
    assert!(of(&r, K::ExtendRejected).is_empty());
    assert_eq!(times(&r, K::Expire), vec![3_610_000]);
}

// Client libraries (docs/MODEL.md "Client libraries").

/// When extensions of a message's first delivery were accepted.
fn extensions_of(r: &lease_sim::Run, message: u32) -> Vec<u64> {
    of(r, K::ExtendOk)
        .into_iter()
        .filter(|e| e.1 == message && e.3 == 1)
        .map(|e| e.0)
        .collect()
}

#[test]
fn pubsub_client_extends_by_the_p99_of_its_ack_delays() {
    // 25 s of work; just after 25 s the downstream runs 1.2 times slower,
    // so the second message's handler takes 30 s.
    let p = |faults: serde_json::Value| {
        run(json!({
            "duration_ms": 200000,
            "broker": {"visibility_timeout_ms": 10000},
            "workers": {"client": {"library": "pubsub"}},
            "work": {"dist": "constant", "ms": 25000},
            "arrivals": {"backlog": 2},
            "downstream": {"slowdowns": [{"from_ms": 25001, "to_ms": 200000, "factor": 1.2}]},
            "faults": faults
        }))
    };
    let r = p(json!([]));
    // Before any ack: the ack deadline, 10 s, again every 9 s.
    assert_eq!(extensions_of(&r, 0), vec![0, 9000, 18000]);
    // One ack delay of 25 s, so p99 = 25 s: at the start, then 22.5 s later.
    assert_eq!(extensions_of(&r, 1), vec![25000, 47500]);
    let acks = times(&r, K::AckOk);
    assert_eq!(acks[0], 25000);
    assert!((54_999..=55_001).contains(&acks[1]), "{acks:?}");
    assert!(
        times(&r, K::Expire).is_empty(),
        "the 30 s handler kept its lease"
    );
    // The worker crashes after the extension at 25 s: the lease it left
    // ends 25 s after it, at 50 s.
    let r = p(json!([{"kind": "crash", "worker": 0, "at_ms": 30000}]));
    assert_eq!(times(&r, K::Expire), vec![50000]);
}

#[test]
fn pubsub_client_clamps_the_extension_to_10_s_through_10_min() {
    use lease_sim::resolve::pubsub_extension_ms;
    // Acks of 2 s: the p99 is 2 s, clamped up to 10 s.
    let r = run(json!({
        "broker": {"visibility_timeout_ms": 10000},
        "workers": {"client": {"library": "pubsub"}},
        "work": {"dist": "constant", "ms": 2000},
        "arrivals": {"backlog": 2},
        "faults": [{"kind": "crash", "worker": 0, "at_ms": 3000}]
    }));
    assert_eq!(extensions_of(&r, 1), vec![2000]);
    assert_eq!(times(&r, K::Expire), vec![12000]);
    // A count per whole second: 98 acks of 2 s and two of 900 s (kept as
    // 600, the top of the histogram) give a p99 of 600 s, the ceiling.
    let mut h = vec![0u32; 601];
    h[2] = 98;
    h[600] = 2;
    assert_eq!(pubsub_extension_ms(&h, 10_000), 600_000);
    // 198 acks of 2 s and two of 600 s: exactly 1% are slow, and the
    // client's p99 is the value with more than 1% at or above it: 2 s -> 10 s.
    h[2] = 198;
    assert_eq!(pubsub_extension_ms(&h, 10_000), 10_000);
    // No acks yet: the subscription's ack deadline, clamped too.
    assert_eq!(pubsub_extension_ms(&[], 5_000), 10_000);
    assert_eq!(pubsub_extension_ms(&[], 30_000), 30_000);
}

#[test]
fn pubsub_client_stops_extending_at_max_lease() {
    // An 83-minute handler: extensions every 9 s (10 s each) from the
    // receive; none once 60 min have passed since it.
    let r = run(json!({
        "duration_ms": 6000000,
        "broker": {"visibility_timeout_ms": 10000},
        "workers": {"client": {"library": "pubsub"}},
        "work": {"dist": "constant", "ms": 5000000}
    }));
    let ext = extensions_of(&r, 0);
    // 0, 9 s, ..., 3,591 s: the last before 3,600 s.
    assert_eq!(ext.len(), 400);
    assert_eq!(ext.last(), Some(&3_591_000));
    assert_eq!(times(&r, K::Expire), vec![3_601_000]);
    // A shorter maximum stops sooner: 0, 9 s, 18 s, 27 s, then lost at 37 s.
    let r = run(json!({
        "duration_ms": 100000,
        "broker": {"visibility_timeout_ms": 10000},
        "workers": {"client": {"library": "pubsub", "max_lease_ms": 30000}},
        "work": {"dist": "constant", "ms": 50000}
    }));
    assert_eq!(extensions_of(&r, 0), vec![0, 9000, 18000, 27000]);
    assert_eq!(times(&r, K::Expire)[0], 37000);
}

#[test]
fn service_bus_client_renews_before_the_lock_expires_until_max_auto_lock_renewal() {
    // Lock 60 s: renewed 10 s before it ends (half the lock, at most 10 s),
    // so every 50 s, until 5 min after the receive; then lost at 310 s.
    let r = run(json!({
        "duration_ms": 500000,
        "broker": {"visibility_timeout_ms": 60000},
        "workers": {"client": {"library": "service_bus"}},
        "work": {"dist": "constant", "ms": 400000}
    }));
    assert_eq!(
        extensions_of(&r, 0),
        vec![50000, 100000, 150000, 200000, 250000]
    );
    assert_eq!(times(&r, K::Expire), vec![310000]);
    // The handler finishes at 400 s with the lock gone: its complete fails.
    assert_eq!(times(&r, K::AckRejected), vec![400000]);
    // A 10 s lock is renewed 5 s before it ends; 20 s of renewal.
    let r = run(json!({
        "duration_ms": 100000,
        "broker": {"visibility_timeout_ms": 10000},
        "workers": {"client": {"library": "service_bus", "max_auto_lock_renewal_ms": 20000}},
        "work": {"dist": "constant", "ms": 60000}
    }));
    assert_eq!(extensions_of(&r, 0), vec![5000, 10000, 15000]);
    assert_eq!(times(&r, K::Expire)[0], 25000);
}

#[test]
fn sqs_lambda_function_timeout_kills_the_handler_which_never_acks() {
    // A 15 s handler under a 10 s function timeout; the visibility timeout
    // left out is six times the function timeout, 60 s.
    let r = run(json!({
        "duration_ms": 130000,
        "broker": {"visibility_timeout_ms": null},
        "workers": {"client": {"library": "sqs_lambda", "function_timeout_ms": 10000}},
        "work": {"dist": "constant", "ms": 15000}
    }));
    assert_eq!(times(&r, K::Abort), vec![10000, 70000]);
    assert_eq!(times(&r, K::Expire), vec![60000, 120000]);
    assert!(times(&r, K::AckOk).is_empty());
    assert!(times(&r, K::CommitApplied).is_empty());
    assert!(times(&r, K::Release).is_empty());
    assert_eq!(r.deliveries[0].outcome, Outcome::Aborted);
    // A handler within the function timeout acks as usual.
    let r = run(json!({
        "broker": {"visibility_timeout_ms": null},
        "workers": {"client": {"library": "sqs_lambda", "function_timeout_ms": 10000}},
        "work": {"dist": "constant", "ms": 9000}
    }));
    assert_eq!(times(&r, K::AckOk), vec![9000]);
    assert!(times(&r, K::Abort).is_empty());
}

#[test]
fn sqs_lambda_sets_the_visibility_timeout_to_six_times_the_function_timeout() {
    use lease_sim::resolve::resolve;
    let mut s = scenario(json!({
        "broker": {"preset": "sqs_standard", "visibility_timeout_ms": null},
        "workers": {"client": {"library": "sqs_lambda", "function_timeout_ms": 20000}}
    }));
    assert_eq!(resolve(&s).visibility_timeout_ms, 120_000);
    // A timeout given in the file wins.
    s.broker.visibility_timeout_ms = Some(30_000);
    assert_eq!(resolve(&s).visibility_timeout_ms, 30_000);
}

#[test]
fn no_client_library_keeps_the_heartbeat_settings() {
    use lease_sim::resolve::{resolve, ClientPolicy};
    // `library: none` is the file without a client: Pub/Sub's preset default stays.
    let without = scenario(json!({
        "broker": {"preset": "google_pubsub", "visibility_timeout_ms": null},
        "workers": {"heartbeat": null}
    }));
    let mut with_none = without.clone();
    with_none.workers.client = Some(lease_sim::scenario::Client::default());
    let (mut a, mut b) = (without.clone(), with_none.clone());
    a.workers.heartbeat = None;
    b.workers.heartbeat = None;
    assert_eq!(resolve(&a).heartbeat, resolve(&b).heartbeat);
    assert!(resolve(&b).heartbeat.is_some());
    assert_eq!(resolve(&b).client, ClientPolicy::None);
    assert_eq!(run_checked(&a).log_hash(), run_checked(&b).log_hash());
}

#[test]
fn a_client_library_refuses_a_heartbeat_and_a_parameter_of_another_library() {
    let bad = |w: serde_json::Value| {
        let mut s = scenario(json!({}));
        s.workers = serde_json::from_value(w).unwrap();
        match lease_sim::validate(&s) {
            Err(lease_sim::SimError::Invalid { field, .. }) => field,
            other => panic!("expected Invalid, got {other:?}"),
        }
    };
    assert_eq!(
        bad(json!({"client": {"library": "pubsub"}, "heartbeat": {"interval_ms": 1000}})),
        "workers.heartbeat"
    );
    assert_eq!(
        bad(json!({"client": {"library": "pubsub", "function_timeout_ms": 1000}})),
        "workers.client.function_timeout_ms"
    );
    assert_eq!(
        bad(json!({"client": {"library": "sqs_lambda", "function_timeout_ms": 0}})),
        "workers.client.function_timeout_ms"
    );
    assert_eq!(
        bad(json!({"client": {"library": "sqs_lambda", "function_timeout_ms": 900001}})),
        "workers.client.function_timeout_ms"
    );
}

// Stale deletes (docs/MODEL.md "Broker presets").

/// Two workers, 1 s leases, 0.8 s of work: worker 0 pauses for 0.5 s
/// while it holds receipt 1, which expires at 1 s; worker 1 takes receipt 2
/// then and runs until 1.8 s; worker 0's delete with receipt 1 arrives at 1.3 s.
fn stale_delete_run(mode: Option<&str>) -> lease_sim::Run {
    let mut broker = json!({"preset": "sqs_standard", "visibility_timeout_ms": 1000});
    if let Some(m) = mode {
        broker["stale_delete"] = json!(m);
    }
    run(json!({
        "broker": broker,
        "workers": {"count": 2},
        "work": {"dist": "constant", "ms": 800},
        "faults": [{"kind": "pause", "worker": 0, "at_ms": 100, "duration_ms": 500}]
    }))
}

#[test]
fn stale_delete_strict_rejects_a_receipt_a_later_receive_replaced() {
    for r in [stale_delete_run(None), stale_delete_run(Some("strict"))] {
        assert_eq!(of(&r, K::AckRejected), vec![(1300, 0, 0, 1)]);
        assert_eq!(of(&r, K::AckOk), vec![(1800, 0, 1, 2)]);
        assert_eq!(r.messages[0].fate, Fate::Deleted { at: 1800 });
    }
}

#[test]
fn stale_delete_permissive_deletes_even_while_another_worker_holds_it() {
    let r = stale_delete_run(Some("permissive"));
    // Receipt 1 deletes the message out from under receipt 2's holder...
    assert_eq!(of(&r, K::AckOk), vec![(1300, 0, 0, 1)]);
    assert_eq!(r.messages[0].fate, Fate::Deleted { at: 1300 });
    assert_eq!(r.deliveries[1].lease_end, LeaseEnd::Expired);
    assert_eq!(r.deliveries[1].lease_ended_at, 1300);
    // ...whose own delete then finds nothing: SQS standard answers it as a
    // success with nothing to settle.
    assert_eq!(of(&r, K::AckNoOp), vec![(1800, 0, 1, 2)]);
    assert!(of(&r, K::AckRejected).is_empty());
    assert_eq!(r.report.totals.acks_ok, 1);
}

#[test]
fn pubsub_lease_manager_extends_without_a_heartbeat_in_the_file() {
    let mut s = scenario(json!({
        "broker": {"preset": "google_pubsub", "visibility_timeout_ms": null},
        "work": {"dist": "constant", "ms": 25000}
    }));
    s.broker.visibility_timeout_ms = None;
    s.workers.heartbeat = None;
    let r = run_checked(&s);
    assert_eq!(r.visibility_timeout_ms, 10_000);
    assert_eq!(times(&r, K::ExtendOk), vec![5000, 10000, 15000, 20000]);
    assert_eq!(times(&r, K::AckOk), vec![25000]);
}

// ---- Workers -------------------------------------------------------------------

#[test]
fn prefetched_lease_runs_while_the_message_waits_in_the_buffer() {
    // Prefetch 3, concurrency 1, 20 s each, 30 s timeout: m2 waits in the
    // buffer from 0 and its lease runs out at 30 s before it ever starts
    // (at 40 s, which the worker cannot know is too late).
    let r = run(json!({
        "workers": {"prefetch": 3, "heartbeat": {"interval_ms": 5000}},
        "work": {"dist": "constant", "ms": 20000},
        "arrivals": {"backlog": 3}, "duration_ms": 45000
    }));
    assert_eq!(
        of(&r, K::Receive)[..3],
        [(0, 0, 0, 1), (0, 1, 0, 1), (0, 2, 0, 1)]
    );
    assert!(of(&r, K::Expire).contains(&(30_000, 2, 0, 1)));
    assert!(of(&r, K::Start).contains(&(40_000, 2, 0, 1)));
}

#[test]
fn buffered_messages_are_not_heartbeated() {
    let r = run(json!({
        "workers": {"prefetch": 3, "heartbeat": {"interval_ms": 5000}},
        "work": {"dist": "constant", "ms": 20000},
        "arrivals": {"backlog": 3}, "duration_ms": 45000
    }));
    for d in r.deliveries.iter() {
        let ext: Vec<u64> = r
            .events
            .iter()
            .filter(|e| {
                matches!(e.kind, K::ExtendOk | K::ExtendRejected)
                    && e.message == d.message
                    && e.receipt == d.receipt
            })
            .map(|e| e.t)
            .collect();
        if let Some(&first) = ext.first() {
            assert!(
                first > d.started_at.unwrap(),
                "{d:?} extended before it started"
            );
        }
    }
    // m1 started at 20 s: its first heartbeat is at 25 s, not at 5 s.
    assert!(of(&r, K::ExtendOk).contains(&(25_000, 1, 0, 1)));
    assert!(!of(&r, K::ExtendOk).iter().any(|e| e.1 == 1 && e.0 < 25_000));
}

#[test]
fn long_poll_is_woken_by_the_next_message_that_becomes_available() {
    let r = run(
        json!({"arrivals": {"backlog": 0, "rate_per_s": 0.5, "process": "fixed"}, "duration_ms": 2500}),
    );
    assert_eq!(times(&r, K::Arrive), vec![2000]);
    assert_eq!(times(&r, K::Receive), vec![2000]);
}

#[test]
fn a_worker_has_at_most_one_receive_outstanding_asking_for_its_batch() {
    // Batch 10, prefetch 10: the first receive (arriving at 100) takes 10;
    // no second receive goes out until a slot frees.
    let r = run(json!({
        "broker": {"receive_batch": 10, "rpc_latency_ms": 100},
        "workers": {"concurrency": 10, "prefetch": 10},
        "arrivals": {"backlog": 25}, "duration_ms": 1100
    }));
    assert_eq!(times(&r, K::Receive), vec![100; 10]);
}

#[test]
fn waiting_polls_are_answered_first_come_first_served() {
    // Arrivals at 1, 2, 3, 4 s; 1.5 s of work. At 3 s w2 (waiting since 0)
    // is served before w0 (waiting since 2.5 s); at 4 s w0 before w1 (3.5 s).
    let r = run(json!({
        "workers": {"count": 3},
        "work": {"dist": "constant", "ms": 1500},
        "arrivals": {"backlog": 0, "rate_per_s": 1.0, "process": "fixed"},
        "duration_ms": 4500
    }));
    let rx: Vec<_> = of(&r, K::Receive).iter().map(|e| (e.0, e.2)).collect();
    assert_eq!(rx, vec![(1000, 0), (2000, 1), (3000, 2), (4000, 0)]);
}

#[test]
fn slot_is_kept_until_the_ack_is_answered() {
    // rpc 100: m0 leased at 100, started 200, finished 1200; the ack reaches
    // the broker at 1300 and its answer the worker at 1400. Only then is the
    // slot free: the next receive reaches the broker at 1500.
    let r = run(json!({
        "broker": {"rpc_latency_ms": 100},
        "arrivals": {"backlog": 2}
    }));
    assert_eq!(times(&r, K::Receive), vec![100, 1500]);
    assert_eq!(times(&r, K::AckOk), vec![1300, 2700]);
}

#[test]
fn heartbeat_first_at_start_plus_interval_then_every_interval() {
    let r = run(json!({
        "workers": {"heartbeat": {"interval_ms": 1000}},
        "work": {"dist": "constant", "ms": 3500}
    }));
    assert_eq!(times(&r, K::ExtendOk), vec![1000, 2000, 3000]);
}

#[test]
fn max_extensions_counts_requests_sent_rejected_included() {
    let r = run(json!({
        "broker": {"visibility_timeout_ms": 2000, "max_lease_lifetime_ms": 5000},
        "workers": {"heartbeat": {"interval_ms": 1000, "extend_by_ms": 2000, "max_extensions": 4}},
        "work": {"dist": "constant", "ms": 10000}, "duration_ms": 9000
    }));
    assert_eq!(times(&r, K::ExtendOk), vec![1000, 2000, 3000]);
    assert_eq!(times(&r, K::ExtendRejected), vec![4000]);
}

#[test]
fn on_reject_continue_keeps_running() {
    let r = run(json!({
        "broker": {"visibility_timeout_ms": 2000, "max_lease_lifetime_ms": 5000},
        "workers": {"heartbeat": {"interval_ms": 1000, "extend_by_ms": 2000, "on_reject": "continue"}},
        "work": {"dist": "constant", "ms": 10000}, "duration_ms": 10001
    }));
    assert_eq!(of(&r, K::Finish)[0], (10000, 0, 0, 1));
    assert!(of(&r, K::Abort).is_empty());
}

#[test]
fn on_reject_abort_stops_the_handler() {
    // Rejected at 4000: stop with no commit, ack or release; the worker's
    // next receive waits until the lease ends at 5000.
    let r = run(json!({
        "broker": {"visibility_timeout_ms": 2000, "max_lease_lifetime_ms": 5000},
        "workers": {"heartbeat": {"interval_ms": 1000, "extend_by_ms": 2000, "on_reject": "abort"}},
        "work": {"dist": "constant", "ms": 10000}, "duration_ms": 5001
    }));
    assert_eq!(of(&r, K::Abort), vec![(4000, 0, 0, 1)]);
    assert!(of(&r, K::CommitApplied).is_empty());
    assert_eq!(of(&r, K::Receive)[1], (5000, 0, 0, 2));
    assert_eq!(r.deliveries[0].outcome, Outcome::Aborted);
    assert_eq!(r.deliveries[0].work_done_ms, 4000);
}

#[test]
fn hung_handler_keeps_its_slot_and_keeps_heartbeating() {
    let r = run(json!({
        "workers": {"hang_rate": 1.0, "heartbeat": {"interval_ms": 1000}},
        "arrivals": {"backlog": 2}, "duration_ms": 20000
    }));
    assert_eq!(times(&r, K::Hang), vec![1000]);
    assert_eq!(
        times(&r, K::ExtendOk),
        (1..20).map(|k| k * 1000).collect::<Vec<_>>()
    );
    assert_eq!(r.report.receive_counts.get("0"), Some(&1));
    assert_eq!(r.report.receive_counts.get("1"), Some(&1));
    assert_eq!(r.end_ms, 20000);
}

#[test]
fn a_hung_handler_leaves_the_downstream_s_running_count() {
    // Gauges at each 1 s bucket's end: running until the work completes at
    // 1000, then 0 while the hung handler still holds its slot and lease.
    let r = run(json!({
        "workers": {"hang_rate": 1.0, "heartbeat": {"interval_ms": 500}},
        "bucket_ms": 1000, "duration_ms": 4000
    }));
    assert_eq!(r.report.series.running_handlers, vec![1, 0, 0, 0]);
    assert_eq!(r.report.series.in_flight, vec![1, 1, 1, 1]);
}

// ---- Work and the feedback loop ------------------------------------------------

#[test]
fn intrinsic_work_is_the_same_on_every_attempt_without_jitter() {
    let r = run(json!({
        "broker": {"visibility_timeout_ms": 100, "max_receive_count": 4},
        "work": {"dist": "lognormal", "median_ms": 2000, "p99_ms": 8000, "attempt_jitter": 0.0}
    }));
    let w = r.messages[0].work_ms;
    assert_eq!(r.deliveries.len(), 4);
    assert!(r.deliveries.iter().all(|d| d.work_needed_ms == w));
}

#[test]
fn attempt_jitter_varies_each_attempt_around_the_intrinsic_work() {
    let r = run(json!({
        "broker": {"visibility_timeout_ms": 100, "max_receive_count": 6},
        "work": {"dist": "constant", "ms": 2000, "attempt_jitter": 0.5}
    }));
    let needs: std::collections::BTreeSet<u64> =
        r.deliveries.iter().map(|d| d.work_needed_ms).collect();
    assert!(needs.len() >= 5, "{needs:?}");
}

#[test]
fn one_draw_per_finish_splits_error_hang_and_commit() {
    // error_rate 0.3, hang_rate 0.2: of all finishes, about 30% errors, 20%
    // hangs, 50% commits (errors are released and retried).
    let r = run(json!({
        "workers": {"concurrency": 1000, "error_rate": 0.3, "hang_rate": 0.2},
        "work": {"dist": "constant", "ms": 10},
        "arrivals": {"backlog": 2000}, "duration_ms": 10000
    }));
    let n = |k| of(&r, k).len() as f64;
    let finishes = n(K::Finish);
    assert!(finishes > 2500.0, "{finishes}");
    let (e, h, c) = (
        n(K::Error) / finishes,
        n(K::Hang) / finishes,
        n(K::CommitApplied) / finishes,
    );
    assert!((e - 0.3).abs() < 0.03, "errors {e:.3}");
    assert!((h - 0.2).abs() < 0.03, "hangs {h:.3}");
    assert!((c - 0.5).abs() < 0.03, "commits {c:.3}");
    assert_eq!(r.report.totals.errors as f64, n(K::Error));
    assert_eq!(r.report.totals.hangs as f64, n(K::Hang));
}

#[test]
fn processor_sharing_capacity_slows_every_running_handler() {
    // Capacity 1, two handlers of 1000 ms: each runs at 1/2, both end at 2000.
    let r = run(json!({
        "workers": {"count": 2}, "arrivals": {"backlog": 2},
        "downstream": {"capacity": 1}
    }));
    assert_eq!(times(&r, K::Finish), vec![2000, 2000]);
}

#[test]
fn slowdown_divides_the_rate_and_overlapping_slowdowns_multiply() {
    let r =
        run(json!({"downstream": {"slowdowns": [{"from_ms": 0, "to_ms": 100000, "factor": 3.0}]}}));
    assert_eq!(times(&r, K::Finish), vec![3000]);
    let r = run(json!({"downstream": {"slowdowns": [
        {"from_ms": 0, "to_ms": 100000, "factor": 2.0},
        {"from_ms": 0, "to_ms": 100000, "factor": 2.0}]}}));
    assert_eq!(times(&r, K::Finish), vec![4000]);
    // 500 ms at full speed, then the other 500 at half: 1500.
    let r = run(
        json!({"downstream": {"slowdowns": [{"from_ms": 500, "to_ms": 100000, "factor": 2.0}]}}),
    );
    assert_eq!(times(&r, K::Finish), vec![1500]);
}

#[test]
fn duplicated_runs_lower_everyone_s_rate() {
    // Capacity 1, w = 1500, timeout 1000. Alone, r1 would end at 1500; at
    // 1000 the duplicate starts and both run at 1/2, so r1 ends at 2000.
    let r = run(json!({
        "broker": {"visibility_timeout_ms": 1000},
        "workers": {"count": 2}, "downstream": {"capacity": 1},
        "work": {"dist": "constant", "ms": 1500}, "duration_ms": 2001
    }));
    assert_eq!(of(&r, K::Finish)[0], (2000, 0, 0, 1));
    assert_eq!(of(&r, K::Start)[1], (1000, 0, 1, 2));
}

#[test]
fn distributions_have_the_parameters_they_are_given() {
    use lease_sim::scenario::Dist;
    use lease_sim::work::{sample, stream};
    let draw = |d: &Dist| -> Vec<u64> {
        let mut rng = stream(42, 1, 2, 3);
        let mut v: Vec<u64> = (0..40_000).map(|_| sample(d, &mut rng)).collect();
        v.sort_unstable();
        v
    };
    let q = |v: &[u64], p: f64| v[((v.len() as f64) * p) as usize] as f64;
    let v = draw(&Dist::Lognormal {
        median_ms: 8000.0,
        p99_ms: 20000.0,
    });
    assert!(
        (q(&v, 0.5) / 8000.0 - 1.0).abs() < 0.02,
        "median {}",
        q(&v, 0.5)
    );
    assert!(
        (q(&v, 0.99) / 20000.0 - 1.0).abs() < 0.05,
        "p99 {}",
        q(&v, 0.99)
    );
    let v = draw(&Dist::Exponential { mean_ms: 2000.0 });
    let mean = v.iter().sum::<u64>() as f64 / v.len() as f64;
    assert!((mean / 2000.0 - 1.0).abs() < 0.03, "mean {mean}");
    let v = draw(&Dist::Uniform {
        min_ms: 1000,
        max_ms: 5000,
    });
    assert!(v[0] >= 1000 && *v.last().unwrap() <= 5000);
    assert!((q(&v, 0.5) / 3000.0 - 1.0).abs() < 0.03);
    let v = draw(&Dist::Mix {
        slow_fraction: 0.05,
        fast: Box::new(Dist::Constant { ms: 100 }),
        slow: Box::new(Dist::Constant { ms: 9000 }),
    });
    let slow = v.iter().filter(|&&x| x == 9000).count() as f64 / v.len() as f64;
    assert!((slow - 0.05).abs() < 0.005, "slow fraction {slow}");
}

#[test]
fn quantiles_pass_through_their_points_with_log_logistic_tails() {
    use lease_sim::fit::{fit_errors, quantile_ms};
    use lease_sim::scenario::Dist;
    let points = vec![[0.5, 2000.0], [0.9, 7000.0], [0.99, 20000.0]];
    for e in fit_errors(&points) {
        assert!(e < 1e-9, "{e}");
    }
    let d = Dist::Quantiles {
        points: points.clone(),
    };
    let logit = |p: f64| (p / (1.0 - p)).ln();
    // Beyond the last point ln(ms) keeps the slope of the last piece
    // against logit(p): a log-logistic tail.
    let slope = (20000.0f64 / 7000.0).ln() / (logit(0.99) - logit(0.9));
    let want = 20000.0 * (slope * (logit(0.999) - logit(0.99))).exp();
    assert!((quantile_ms(&d, 0.999) / want - 1.0).abs() < 1e-9);
    // Two points: a log-logistic, the median's ms at p 0.5 and a straight
    // line in between.
    let two = Dist::Quantiles {
        points: vec![[0.5, 1000.0], [0.99, 9000.0]],
    };
    let slope = 9f64.ln() / logit(0.99);
    let want = 1000.0 * (slope * logit(0.75)).exp();
    assert!((quantile_ms(&two, 0.75) / want - 1.0).abs() < 1e-9);
    // And the engine draws from it: about half the work under the median.
    let r = run(json!({
        "work": {"dist": "quantiles", "points": [[0.5, 2000], [0.9, 7000], [0.99, 20000]]},
        "arrivals": {"backlog": 2000}, "workers": {"count": 400}
    }));
    let works: Vec<u64> = r.messages.iter().map(|m| m.work_ms).collect();
    let under = works.iter().filter(|&&w| w <= 2000).count() as f64 / works.len() as f64;
    assert!((under - 0.5).abs() < 0.04, "{under}");
}

#[test]
fn empirical_draws_one_of_the_durations_uniformly() {
    use lease_sim::scenario::Dist;
    use lease_sim::work::{sample, stream};
    let d = Dist::Empirical {
        samples_ms: vec![0.0, 250.4, 1000.0, 1000.0],
    };
    let mut rng = stream(42, 1, 2, 3);
    let v: Vec<u64> = (0..40_000).map(|_| sample(&d, &mut rng)).collect();
    // 0 rounds up to 1 ms and 250.4 to 250, as every draw does.
    assert!(v.iter().all(|x| [1, 250, 1000].contains(x)), "{v:?}");
    let share = |x: u64| v.iter().filter(|&&y| y == x).count() as f64 / v.len() as f64;
    assert!((share(1) - 0.25).abs() < 0.01);
    assert!((share(250) - 0.25).abs() < 0.01);
    assert!((share(1000) - 0.5).abs() < 0.01);
}

#[test]
fn histogram_picks_a_bucket_by_its_count_then_a_point_uniformly_inside() {
    use lease_sim::scenario::Dist;
    use lease_sim::work::{sample, stream};
    let d = Dist::Histogram {
        buckets: vec![[100.0, 1.0], [1000.0, 0.0], [5000.0, 3.0]],
    };
    let mut rng = stream(42, 1, 2, 3);
    let v: Vec<u64> = (0..40_000).map(|_| sample(&d, &mut rng)).collect();
    let first = v.iter().filter(|&&x| x <= 100).count() as f64 / v.len() as f64;
    assert!((first - 0.25).abs() < 0.01, "{first}");
    // The empty bucket gets nothing; the last is uniform from 1,000 to 5,000.
    assert!(v.iter().all(|&x| x <= 100 || (1000..=5000).contains(&x)));
    let low_half = v.iter().filter(|&&x| (1000..3000).contains(&x)).count() as f64 / v.len() as f64;
    assert!((low_half - 0.375).abs() < 0.01, "{low_half}");
}

#[test]
fn compact_samples_are_evenly_spaced_quantiles_of_the_data() {
    use lease_sim::fit::{compact_samples, COMPACT_QUANTILES};
    let data: Vec<f64> = (0..100_000).rev().map(f64::from).collect();
    let c = compact_samples(&data, COMPACT_QUANTILES);
    assert_eq!(c.len(), 256);
    assert!(c.windows(2).all(|w| w[0] <= w[1]));
    // The k-th stands for the share around (k + 1/2) / 256.
    for (k, x) in c.iter().enumerate() {
        let want = (k as f64 + 0.5) / 256.0 * 99_999.0;
        assert!((x - want).abs() < 1e-6, "{k}: {x} against {want}");
    }
}

// ---- The store -------------------------------------------------------------------

#[test]
fn fence_none_applies_every_completed_run() {
    let r = shipped_run("ninety-second-message");
    // Commits at 90, 150, 210 and 270 s all land.
    assert_eq!(r.report.totals.effects, 4);
    assert_eq!(r.report.totals.duplicate_effects, 3);
}

#[test]
fn check_then_write_stops_sequential_duplicates_not_overlapping_ones() {
    let fence =
        |s: &mut lease_sim::Scenario| s.store.fence = lease_sim::scenario::Fence::CheckThenWrite;
    // Sequential (the crash after the email): the second run finds the id.
    let r = shipped_with("order-confirmation-email", fence);
    assert_eq!(times(&r, K::Skip), vec![30_200]);
    assert_eq!(r.report.totals.duplicate_effects, 0);
    // Overlapping (the 90 s message): r2 checked at 60 s, before r1 wrote at 90 s.
    let r = shipped_with("ninety-second-message", fence);
    // (a lost update too: r1's write landed between r2's read and write).
    assert_eq!(
        of(&r, K::CommitLostUpdate).first().map(|e| (e.0, e.3)),
        Some((150_000, 2))
    );
    assert!(r.report.totals.duplicate_effects >= 1);
    // r3, starting at 120 s after r1's write, is stopped by the check.
    assert_eq!(of(&r, K::Skip)[0], (120_000, 0, 0, 3));
}

#[test]
fn after_a_fence_rejection_the_worker_still_acks() {
    // The email with a unique constraint: worker 1's commit at 32,200 loses,
    // and it deletes the message anyway.
    let r = shipped_run("order-confirmation-email-idempotent");
    assert_eq!(of(&r, K::CommitFenceRejected), vec![(32_200, 0, 1, 2)]);
    assert_eq!(of(&r, K::AckOk), vec![(32_300, 0, 1, 2)]);
    assert_eq!(r.messages[0].fate, Fate::Deleted { at: 32_300 });
}

#[test]
fn unique_constraint_keeps_exactly_one_effect() {
    let r = shipped_with("ninety-second-message", |s| {
        s.store.fence = lease_sim::scenario::Fence::UniqueConstraint
    });
    assert_eq!(r.report.totals.effects, 1);
    assert_eq!(r.report.totals.fence_rejections, 3);
    assert_eq!(r.report.totals.lost_updates, 0);
}

#[test]
fn fencing_token_stops_the_stale_holder_that_commits_late_not_the_one_that_commits_first() {
    // First: r1 commits at 90 s before r2 (token 2 > 1 later is accepted too).
    let r = shipped_with("ninety-second-message", |s| {
        s.store.fence = lease_sim::scenario::Fence::FencingToken
    });
    assert_eq!(of(&r, K::CommitApplied)[0], (90_000, 0, 0, 1));
    assert_eq!(r.report.totals.fence_rejections, 0);
    // Late: the paused holder of receipt 1 commits after receipt 2 did.
    let r = shipped_run("gc-pause-starves-heartbeat-fencing-token");
    let rej = of(&r, K::CommitFenceRejected);
    assert_eq!(rej.len(), 1);
    assert_eq!(rej[0].3, 1);
    assert_eq!(r.report.totals.effects, 1);
}

#[test]
fn lost_update_is_an_applied_commit_over_one_made_since_its_read() {
    // r2 read at 60 s; r1 wrote at 90 s; r2's write at 150 s loses r1's update.
    let r = shipped_run("ninety-second-message");
    assert_eq!(of(&r, K::CommitLostUpdate)[0], (150_000, 0, 1, 2));
    assert_eq!(r.report.totals.lost_updates, 3);
}

#[test]
fn overlapping_runs_versus_sequential_duplicate_runs() {
    let r = shipped_run("ninety-second-message");
    assert_eq!(r.report.totals.overlapping_runs, 4);
    assert_eq!(r.report.totals.sequential_duplicate_runs, 0);
    let r = shipped_run("order-confirmation-email");
    assert_eq!(r.report.totals.overlapping_runs, 0);
    assert_eq!(r.report.totals.sequential_duplicate_runs, 1);
}

#[test]
fn a_paused_run_counts_as_overlapping_a_hung_one_does_not() {
    // Hung: w0's run finishes at 500 and hangs; its lease lapses at 1000 and
    // w1 starts receipt 2, a sequential duplicate, not an overlap.
    let r = run(json!({
        "broker": {"visibility_timeout_ms": 1000},
        "workers": {"count": 2, "hang_rate": 1.0},
        "work": {"dist": "constant", "ms": 500}, "duration_ms": 1800
    }));
    assert_eq!(of(&r, K::Start)[1], (1000, 0, 1, 2));
    assert_eq!(r.report.totals.overlapping_runs, 0);
    assert_eq!(r.report.totals.sequential_duplicate_runs, 1);
    // Paused: w0 is frozen mid-run when w1 starts receipt 2: an overlap.
    let r = run(json!({
        "broker": {"visibility_timeout_ms": 1000},
        "workers": {"count": 2},
        "work": {"dist": "constant", "ms": 500},
        "faults": [{"kind": "pause", "worker": 0, "at_ms": 100, "duration_ms": 2000}],
        "duration_ms": 1800
    }));
    assert_eq!(of(&r, K::Start)[1], (1000, 0, 1, 2));
    assert_eq!(r.report.totals.overlapping_runs, 1);
    assert_eq!(r.report.totals.sequential_duplicate_runs, 0);
}

#[test]
fn useful_work_is_the_first_effect_s_run_the_rest_is_wasted() {
    let r = shipped_run("order-confirmation-email");
    assert_eq!(r.report.totals.useful_work_ms, 2000);
    assert_eq!(r.report.totals.wasted_work_ms, 2000);
    // 90 s message: r1 useful; r2..r4 finished (90 s each) wasted; r5 still running.
    let r = shipped_run("ninety-second-message");
    assert_eq!(r.report.totals.useful_work_ms, 90_000);
    assert_eq!(r.report.totals.wasted_work_ms, 270_000);
}

// ---- Faults ---------------------------------------------------------------------

#[test]
fn crash_loses_the_ack_in_transit() {
    // Commit at 2200, ack sent at 2200 due at 2300, crash at 2250: lost.
    let r = shipped_run("order-confirmation-email");
    assert_eq!(times(&r, K::CommitApplied), vec![2200]);
    assert_eq!(of(&r, K::AckOk), vec![(32_300, 0, 1, 2)]);
    assert_eq!(r.deliveries[0].lease_end, LeaseEnd::Expired);
    assert_eq!(r.report.totals.duplicate_effects, 1);
    // Sent exactly rpc_latency before the crash: it arrives.
    let r = shipped_with("order-confirmation-email", |s| {
        s.faults[0] = lease_sim::scenario::Fault::Crash {
            worker: 0,
            at_ms: 2300,
            restart_after_ms: Some(10_000),
        }
    });
    assert_eq!(of(&r, K::AckOk), vec![(2300, 0, 0, 1)]);
}

#[test]
fn a_receive_answer_in_transit_to_a_crashed_worker_stays_leased_until_it_expires() {
    // rpc 100: the lease starts at 100, the answer would arrive at 200, the
    // worker crashes at 150. Nobody runs receipt 1; it expires at 30,100.
    let r = run(json!({
        "broker": {"rpc_latency_ms": 100},
        "faults": [{"kind": "crash", "worker": 0, "at_ms": 150, "restart_after_ms": 1000}]
    }));
    assert_eq!(of(&r, K::Expire)[0], (30_100, 0, 0, 1));
    assert_eq!(times(&r, K::Receive), vec![100, 30_100]);
    assert_eq!(times(&r, K::Start), vec![30_200]);
    assert_eq!(r.deliveries[0].outcome, Outcome::Crashed);
    assert_eq!(r.deliveries[0].started_at, None);
}

#[test]
fn crash_restarts_a_fresh_worker_after_the_downtime() {
    let r = shipped_run("order-confirmation-email");
    let marks: Vec<_> = r
        .worker_marks
        .iter()
        .map(|m| (m.t, m.worker, m.kind))
        .collect();
    assert_eq!(
        marks,
        vec![
            (2250, 0, WorkerMarkKind::Crash),
            (12_250, 0, WorkerMarkKind::Restart)
        ]
    );
    assert_eq!(r.deliveries[0].outcome, Outcome::Crashed);
}

#[test]
fn rolling_deploy_stops_every_worker_in_turn() {
    let r = run(json!({
        "workers": {"count": 3}, "arrivals": {"backlog": 0, "rate_per_s": 1.0},
        "faults": [{"kind": "rolling_deploy", "at_ms": 10000, "downtime_ms": 2000, "gap_ms": 1000}],
        "duration_ms": 20000
    }));
    let crash: Vec<_> = of(&r, K::Crash).iter().map(|e| (e.0, e.2)).collect();
    let restart: Vec<_> = of(&r, K::Restart).iter().map(|e| (e.0, e.2)).collect();
    assert_eq!(crash, vec![(10_000, 0), (13_000, 1), (16_000, 2)]);
    assert_eq!(restart, vec![(12_000, 0), (15_000, 1), (18_000, 2)]);
}

#[test]
fn pause_freezes_work_on_that_worker() {
    let r =
        run(json!({"faults": [{"kind": "pause", "worker": 0, "at_ms": 500, "duration_ms": 2000}]}));
    assert_eq!(times(&r, K::Pause), vec![500]);
    assert_eq!(times(&r, K::Resume), vec![2500]);
    assert_eq!(times(&r, K::Finish), vec![3000]);
}

#[test]
fn pause_missed_ticks_collapse_into_one_then_the_grid_goes_on() {
    // Ticks at 1000; 2000-4000 missed in the pause [1500, 4500): one at
    // 4500, then 5000, 6000, ... Work: 1500 done, 8500 after 4500 -> 13000.
    let r = run(json!({
        "workers": {"heartbeat": {"interval_ms": 1000}},
        "work": {"dist": "constant", "ms": 10000},
        "faults": [{"kind": "pause", "worker": 0, "at_ms": 1500, "duration_ms": 3000}]
    }));
    let mut want = vec![1000, 4500];
    want.extend((5..=12).map(|k| k * 1000));
    assert_eq!(times(&r, K::ExtendOk), want);
    assert_eq!(times(&r, K::Finish), vec![13_000]);
}

#[test]
fn paused_handlers_do_not_count_in_running() {
    // Capacity 1: with w0 paused from t = 0, w1 runs alone at full speed.
    let r = run(json!({
        "workers": {"count": 2}, "arrivals": {"backlog": 2},
        "downstream": {"capacity": 1},
        "faults": [{"kind": "pause", "worker": 0, "at_ms": 0, "duration_ms": 5000}]
    }));
    assert_eq!(of(&r, K::Finish), vec![(1000, 1, 1, 1), (6000, 0, 0, 1)]);
}

#[test]
fn gc_pause_lets_the_lease_expire_while_the_worker_is_alive() {
    let r = shipped_run("gc-pause-starves-heartbeat");
    let pause = times(&r, K::Pause)[0];
    let resume = times(&r, K::Resume)[0];
    let expire = of(&r, K::Expire)[0];
    assert!(
        pause < expire.0 && expire.0 < resume,
        "{pause} {expire:?} {resume}"
    );
    assert!(of(&r, K::Crash).is_empty());
    assert_eq!(r.report.totals.overlapping_runs, 1);
}

// ---- Arrivals --------------------------------------------------------------------

#[test]
fn backlog_is_enqueued_at_zero_in_id_order_before_any_poll() {
    let r = run(json!({"arrivals": {"backlog": 3}}));
    let first: Vec<_> = r
        .events
        .iter()
        .take(3)
        .map(|e| (e.t, e.kind, e.message))
        .collect();
    assert_eq!(
        first,
        vec![(0, K::Arrive, 0), (0, K::Arrive, 1), (0, K::Arrive, 2)]
    );
}

#[test]
fn fixed_arrivals_fall_at_segment_start_plus_k_over_rate() {
    let r = run(
        json!({"arrivals": {"backlog": 0, "rate_per_s": 3.0, "process": "fixed"}, "duration_ms": 2000}),
    );
    assert_eq!(times(&r, K::Arrive), vec![333, 667, 1000, 1333, 1667]);
}

#[test]
fn surge_replaces_the_base_rate_between_its_times() {
    // 9 in [0,10s) at 1/s, 49 in [10s,20s) at 5/s (20 s itself is the next
    // segment's start), 9 in [20s,30s).
    let r = run(json!({
        "arrivals": {"backlog": 0, "rate_per_s": 1.0, "process": "fixed",
                     "surges": [{"from_ms": 10000, "to_ms": 20000, "rate_per_s": 5.0}]},
        "workers": {"count": 8}, "duration_ms": 30000
    }));
    assert_eq!(r.report.totals.arrived, 67);
    assert_eq!(times(&r, K::Arrive)[9], 10_200);
}

#[test]
fn poisson_arrivals_restart_at_each_rate_change() {
    // Base rate 0: every arrival falls inside the surge, about 5/s for 10 s.
    let r = run(json!({
        "arrivals": {"backlog": 0, "rate_per_s": 0.0, "process": "poisson",
                     "surges": [{"from_ms": 10000, "to_ms": 20000, "rate_per_s": 5.0}]},
        "workers": {"count": 8}, "duration_ms": 30000
    }));
    let t = times(&r, K::Arrive);
    assert!(t.iter().all(|&x| (10_000..20_000).contains(&x)), "{t:?}");
    assert!((25..=75).contains(&t.len()), "{}", t.len());
}

#[test]
fn poisson_arrivals_average_the_rate() {
    let r = run(json!({
        "arrivals": {"backlog": 0, "rate_per_s": 2.0, "process": "poisson"},
        "workers": {"count": 8}, "duration_ms": 1000000
    }));
    // 2000 expected, sd 45.
    let n = r.report.totals.arrived as f64;
    assert!((n - 2000.0).abs() < 225.0, "{n}");
}

// ---- Termination -------------------------------------------------------------------

#[test]
fn run_stops_at_duration_and_events_at_duration_do_not_run() {
    let r = run(
        json!({"arrivals": {"backlog": 0, "rate_per_s": 1.0, "process": "fixed"}, "duration_ms": 5000}),
    );
    assert_eq!(times(&r, K::Arrive), vec![1000, 2000, 3000, 4000]);
    assert_eq!(r.end_ms, 5000);
}

#[test]
fn run_ends_early_once_everything_is_settled() {
    let r = run(json!({}));
    assert_eq!(r.end_ms, 1000);
    assert_eq!(r.report.totals.end_ms, 1000);
}

#[test]
fn time_limit_gives_the_first_n_minutes() {
    let s = shipped::find("ninety-second-message").unwrap().scenario;
    let r = simulate(
        &s,
        &Options {
            until_ms: Some(60_000),
            check_invariants: true,
            ..Options::default()
        },
    )
    .unwrap();
    assert_eq!(r.end_ms, 60_000);
    assert_eq!(times(&r, K::Receive), vec![0]);
    assert_eq!(r.deliveries[0].lease_end, LeaseEnd::Open);
}

// ---- Reporting ----------------------------------------------------------------------

#[test]
fn ack_latency_is_receive_to_accepted_ack_by_nearest_rank() {
    // Prefetch 10: all ten leased at 0, acked at 1000, 2000, ..., 10000.
    let r = run(json!({"workers": {"prefetch": 10}, "arrivals": {"backlog": 10}}));
    assert_eq!(r.report.ack_latency_ms.p50, Some(5000));
    assert_eq!(r.report.ack_latency_ms.p99, Some(10_000));
    assert_eq!(
        r.report.ack_latency_ms.p99_over_timeout,
        Some(10_000.0 / 30_000.0)
    );
}

#[test]
fn ack_p99_of_lease_is_each_accepted_ack_against_the_deadline_it_had() {
    // Timeout 2500, heartbeat every 2000 extending by 4000, 5 s of work: the
    // extensions at 2000 and 4000 move the deadline to 6000, then 8000, and
    // the ack at 5000 had a lease of 8000: 5000 / 8000, though it came at
    // twice the base timeout.
    let r = run(json!({
        "broker": {"visibility_timeout_ms": 2500},
        "workers": {"heartbeat": {"interval_ms": 2000, "extend_by_ms": 4000}},
        "work": {"dist": "constant", "ms": 5000}
    }));
    assert_eq!(times(&r, K::AckOk), vec![5000]);
    assert_eq!(r.report.ack_latency_ms.p99_over_timeout, Some(2.0));
    assert_eq!(r.report.ack_latency_ms.p99_of_lease, Some(0.625));
    // Without renewal the lease is the timeout: acks at 1000 to 10000 of a
    // 30 s lease, nearest-rank p99 the last.
    let r = run(json!({"workers": {"prefetch": 10}, "arrivals": {"backlog": 10}}));
    assert_eq!(
        r.report.ack_latency_ms.p99_of_lease,
        Some(10_000.0 / 30_000.0)
    );
    // A late ack the broker still accepts is past its lease: 2000 of 1000.
    let r = run(json!({
        "broker": {"visibility_timeout_ms": 1000, "late_ack": "accepted_if_not_redelivered"},
        "work": {"dist": "constant", "ms": 2000}
    }));
    assert_eq!(r.report.ack_latency_ms.p99_of_lease, Some(2.0));
    // No accepted ack, no share.
    let r = run(json!({"broker": {"visibility_timeout_ms": 1000}, "duration_ms": 1500}));
    assert_eq!(r.report.ack_latency_ms.p99_of_lease, None);
}

#[test]
fn receive_counts_are_keyed_by_strings_and_zero_counts_never_delivered() {
    let r = run(json!({
        "workers": {"hang_rate": 1.0}, "arrivals": {"backlog": 2}, "duration_ms": 5000
    }));
    let got: Vec<(&String, &u64)> = r.report.receive_counts.iter().collect();
    assert_eq!(got, [(&"0".to_string(), &1), (&"1".to_string(), &1)]);
    let v = serde_json::to_value(&r.report).unwrap();
    assert_eq!(v["receive_counts"]["0"], 1);
}

#[test]
fn series_buckets_default_to_sixty_seconds_and_completions_are_acks_per_minute() {
    let r = run(json!({
        "arrivals": {"backlog": 0, "rate_per_s": 1.0, "process": "fixed"},
        "duration_ms": 180000
    }));
    let s = &r.report.series;
    assert_eq!(s.bucket_ms, 60_000);
    assert_eq!(s.arrivals, vec![59, 60, 60]);
    // Each arrival acked 1 s later: 59 acks in [1 s, 60 s), then 60, 60.
    assert_eq!(s.acks, vec![58, 60, 60]);
    assert_eq!(s.completions_per_min, vec![58.0, 60.0, 60.0]);
    assert_eq!(s.queue_depth.len(), 3);
    assert_eq!(s.in_flight.len(), 3);
}

#[test]
fn gauges_are_sampled_at_each_bucket_s_end() {
    // The 90 s message, 60 s buckets: each gauge is the state just before
    // the events at 60, 120, 180, 240 s, and at the end (300 s).
    let r = run(json!({
        "broker": {"visibility_timeout_ms": 60000},
        "workers": {"count": 2},
        "work": {"dist": "constant", "ms": 90000},
        "bucket_ms": 60000, "duration_ms": 300000
    }));
    let s = &r.report.series;
    assert_eq!(s.bucket_ms, 60_000);
    assert_eq!(s.queue_depth, vec![0; 5]);
    assert_eq!(s.in_flight, vec![1; 5]);
    assert_eq!(s.running_handlers, vec![1, 1, 1, 1, 1]);
    assert_eq!(s.oldest_in_flight_age_ms, vec![60_000; 5]);
    assert_eq!(
        s.oldest_message_age_ms,
        vec![60_000, 120_000, 180_000, 240_000, 300_000]
    );
    assert_eq!(s.expiries, vec![0, 1, 1, 1, 1]);
    assert_eq!(s.redeliveries, vec![0, 1, 1, 1, 1]);
}

#[test]
fn report_json_has_every_field_model_md_names() {
    let r = shipped_run("clip-surge");
    let v = serde_json::to_value(&r.report).unwrap();
    for k in [
        "arrived",
        "deleted",
        "dead_lettered_expired",
        "dead_lettered_failed",
        "deliveries",
        "redeliveries",
        "expiries",
        "acks_rejected",
        "extensions_ok",
        "extensions_rejected",
        "effects",
        "duplicate_effects",
        "overlapping_runs",
        "lost_updates",
        "fence_rejections",
        "useful_work_ms",
        "wasted_work_ms",
        "events",
        "end_ms",
    ] {
        assert!(v["totals"][k].is_u64(), "totals.{k}");
    }
    assert!(v["ack_latency_ms"]["p50"].is_u64());
    assert!(v["ack_latency_ms"]["p99"].is_u64());
    assert!(v["ack_latency_ms"]["p99_over_timeout"].is_f64());
    assert!(v["ack_latency_ms"]["p99_of_lease"].is_f64());
    assert!(v["receive_counts"].is_object());
    let buckets = r.end_ms.div_ceil(60_000) as usize;
    assert_eq!(v["series"]["bucket_ms"], 60_000);
    for k in [
        "arrivals",
        "acks",
        "completions_per_min",
        "queue_depth",
        "in_flight",
        "dead_letter_expired",
        "dead_letter_failed",
        "dropped",
        "stayed",
        "oldest_in_flight_age_ms",
        "oldest_message_age_ms",
        "running_handlers",
    ] {
        let a = v["series"][k].as_array();
        assert_eq!(a.map(Vec::len), Some(buckets), "series.{k}");
    }
}

#[test]
fn defaults_are_the_model_s() {
    use lease_sim::resolve::resolve;
    use lease_sim::scenario::{Fence, OnReject};
    let s = scenario(json!({
        "broker": {"visibility_timeout_ms": 7000},
        "workers": {"concurrency": 3, "heartbeat": {"interval_ms": 1000}}
    }));
    let c = resolve(&s);
    assert_eq!(c.prefetch, 3);
    let h = c.heartbeat.expect("heartbeat on");
    assert_eq!(h.extend_by_ms, 7000);
    assert_eq!(h.max_extensions, None);
    assert_eq!(h.on_reject, OnReject::Continue);
    assert_eq!(c.rpc_latency_ms, 0);
    assert_eq!(c.receive_batch, 1);
    assert_eq!(c.fence, Fence::None);
    assert_eq!(lease_sim::Scenario::default().bucket_ms, 60_000);
}

#[test]
fn invalid_scenario_is_refused_naming_the_field() {
    let mut s = scenario(json!({}));
    s.broker.visibility_timeout_ms = Some(0);
    match simulate(&s, &Options::default()) {
        Err(lease_sim::SimError::Invalid { field, .. }) => {
            assert_eq!(field, "broker.visibility_timeout_ms")
        }
        other => panic!("expected Invalid, got {:?}", other.map(|r| r.end_ms)),
    }
}

// ---- Run overrides -----------------------------------------------------------

#[test]
fn a_run_override_replaces_what_the_finish_draw_gave() {
    // Two messages of 1 s; nothing fails by the rates. Message 0's first run
    // is made to hang, message 1's first to fail (and release: retried).
    let r = run(json!({
        "arrivals": {"backlog": 2},
        "faults": [
            {"kind": "run", "message": 0, "receipt": 1, "outcome": "hang"},
            {"kind": "run", "message": 1, "receipt": 1, "outcome": "fail"}
        ]
    }));
    assert_eq!(of(&r, K::Hang), vec![(1000, 0, 0, 1)]);
    assert_eq!(r.deliveries[0].outcome, Outcome::Hung);
    // The hung handler keeps the only slot: message 1 is never started.
    assert!(of(&r, K::Error).is_empty());
    let r = run(json!({
        "arrivals": {"backlog": 2},
        "faults": [{"kind": "run", "message": 1, "receipt": 1, "outcome": "fail"}]
    }));
    // 0 runs 0 to 1 s; 1 runs 1 to 2 s and fails; released, it runs again.
    assert_eq!(of(&r, K::Error), vec![(2000, 1, 0, 1)]);
    let second: Vec<_> = of(&r, K::Start).into_iter().filter(|e| e.1 == 1).collect();
    assert_eq!(second, vec![(1000, 1, 0, 1), (2000, 1, 0, 2)]);
    assert!(matches!(r.messages[1].fate, Fate::Deleted { .. }));
    // An error rate of 1 fails every run; the override makes message 0's
    // first run hang instead.
    let r = run(json!({
        "workers": {"error_rate": 1.0},
        "duration_ms": 1500,
        "faults": [{"kind": "run", "message": 0, "receipt": 1, "outcome": "hang"}]
    }));
    assert_eq!(of(&r, K::Hang), vec![(1000, 0, 0, 1)]);
    assert!(of(&r, K::Error).is_empty());
}

#[test]
fn a_lost_ack_commits_then_the_lease_runs_out_and_the_message_returns() {
    // 1 s of work, 30 s lease: the commit lands at 1 s, the delete is lost,
    // the lease expires at 30 s and the message runs again (a duplicate).
    let r = run(json!({
        "duration_ms": 60000,
        "faults": [{"kind": "run", "message": 0, "receipt": 1, "outcome": "lose_ack"}]
    }));
    assert_eq!(times(&r, K::CommitApplied), vec![1000]);
    assert!(of(&r, K::AckRejected).is_empty(), "the broker heard no ack");
    assert_eq!(times(&r, K::Expire), vec![30000]);
    assert_eq!(of(&r, K::Receive)[1], (30000, 0, 0, 2));
    assert_eq!(times(&r, K::CommitDuplicate), vec![31000]);
    assert_eq!(of(&r, K::AckOk), vec![(31000, 0, 0, 2)]);
    assert_eq!(r.deliveries[0].outcome, Outcome::AckRejected);
    // The slot came back at once: a second message starts at 1 s.
    let r = run(json!({
        "duration_ms": 60000,
        "arrivals": {"backlog": 2},
        "faults": [{"kind": "run", "message": 0, "receipt": 1, "outcome": "lose_ack"}]
    }));
    assert_eq!(of(&r, K::Start)[1], (1000, 1, 0, 1));
}

#[test]
fn a_run_override_s_work_ms_fixes_that_run_s_work_and_no_other() {
    // Two messages of 1 s on one worker: message 0's first run takes 2.5 s
    // instead, so message 1 starts at 2.5 s and keeps its drawn 1 s.
    let r = run(json!({
        "arrivals": {"backlog": 2},
        "faults": [{"kind": "run", "message": 0, "receipt": 1, "work_ms": 2500}]
    }));
    assert_eq!(times(&r, K::Finish), vec![2500, 3500]);
    assert_eq!(r.deliveries[0].work_needed_ms, 2500);
    assert_eq!(r.deliveries[1].work_needed_ms, 1000);
    // Per delivery: a first run outliving a 2 s lease, its second run short.
    let r = run(json!({
        "broker": {"visibility_timeout_ms": 2000},
        "workers": {"count": 2},
        "duration_ms": 10000,
        "faults": [
            {"kind": "run", "message": 0, "receipt": 1, "work_ms": 3000},
            {"kind": "run", "message": 0, "receipt": 2, "work_ms": 500}
        ]
    }));
    assert_eq!(times(&r, K::Expire), vec![2000]);
    assert_eq!(of(&r, K::Finish)[0].0, 2500);
    assert_eq!(of(&r, K::Finish)[1].0, 3000);
    // With an outcome too, both hold: the run takes 2.5 s, then hangs.
    let r = run(json!({
        "faults": [{"kind": "run", "message": 0, "receipt": 1, "work_ms": 2500, "outcome": "hang"}]
    }));
    assert_eq!(of(&r, K::Hang), vec![(2500, 0, 0, 1)]);
}

#[test]
fn a_run_override_needs_an_outcome_or_a_work_time() {
    let refused = |fault: serde_json::Value| {
        let mut v = common::base();
        common::patch(&mut v, json!({ "faults": [fault] }));
        lease_sim::parse_scenario(&v.to_string())
            .unwrap_err()
            .to_string()
    };
    let err = refused(json!({"kind": "run", "message": 0, "receipt": 1}));
    assert!(err.contains("`outcome`, `work_ms` or both"), "{err}");
    let err = refused(json!({"kind": "run", "message": 0, "receipt": 1, "work_ms": 0}));
    assert!(err.starts_with("faults[0].work_ms = 0"), "{err}");
}

proptest::proptest! {
    #![proptest_config(proptest::prelude::ProptestConfig::with_cases(24))]
    /// A shipped scenario, one of its finished runs (by where it falls in
    /// the finishes) and an outcome: the log before that finish is the same
    /// event for event, and every run present in both runs has the same
    /// work (its draw, keyed by message and receipt).
    #[test]
    fn a_run_override_changes_nothing_before_the_run_s_finish_nor_other_runs_draws(
        which in 0usize..3,
        at in 0.0f64..1.0,
        kind in 0usize..3,
    ) {
        use lease_sim::scenario::{Fault, RunOutcome};
        let outcome = [RunOutcome::Hang, RunOutcome::Fail, RunOutcome::LoseAck][kind];
        let name = ["clip-surge", "ninety-second-message", "five-minute-timeout-deploy"][which];
        let mut s = shipped::find(name).expect("shipped").scenario;
        s.duration_ms = s.duration_ms.min(900_000);
        let base = run_checked(&s);
        let finished = of(&base, K::Finish);
        proptest::prop_assert!(!finished.is_empty(), "{}", name);
        let (t, message, _, receipt) = finished[((finished.len() as f64 * at) as usize).min(finished.len() - 1)];
        let mut with = s.clone();
        with.faults.push(Fault::Run {
            message,
            receipt,
            outcome: Some(outcome),
            work_ms: None,
        });
        let r = run_checked(&with);
        let before = |run: &lease_sim::Run| -> Vec<_> { run.events.iter().filter(|e| e.t < t).collect() };
        proptest::prop_assert_eq!(before(&base), before(&r));
        for d in &r.deliveries {
            if let Some(b) = base.deliveries.iter().find(|b| b.message == d.message && b.receipt == d.receipt) {
                proptest::prop_assert_eq!(b.work_needed_ms, d.work_needed_ms);
            }
        }
        // The override's own run ends at its finish as it says (a crash may
        // still take a hung run later).
        let this = |kind: K| {
            of(&r, kind)
                .iter()
                .any(|e| e.1 == message && e.3 == receipt && (kind != K::Hang && kind != K::Error || e.0 == t))
        };
        match outcome {
            RunOutcome::Hang => proptest::prop_assert!(this(K::Hang)),
            RunOutcome::Fail => proptest::prop_assert!(this(K::Error)),
            RunOutcome::LoseAck => {
                proptest::prop_assert!(!this(K::AckOk) && !this(K::AckRejected), "the broker heard no ack")
            }
        }
    }
}

// ---- An ack of a message already deleted (docs/MODEL.md) -------------------

/// Worker 0 pauses from 100 to 600 while it holds receipt 1 (lease until
/// 1000); worker 1 takes receipt 2 at 1000 and finishes at 1800; worker 0's
/// late ack deletes the message at 1300 (`late_ack: accepted_always`), so
/// worker 1's ack at 1800 finds it already deleted.
fn deleted_ack_run(preset: &str, deleted_ack: Option<&str>) -> lease_sim::Run {
    let mut broker = json!({"preset": preset, "visibility_timeout_ms": 1000,
                            "late_ack": "accepted_always", "max_receive_count": null});
    if let Some(d) = deleted_ack {
        broker["deleted_ack"] = json!(d);
    }
    run(json!({
        "broker": broker,
        "workers": {"count": 2},
        "work": {"dist": "constant", "ms": 800},
        "faults": [{"kind": "pause", "worker": 0, "at_ms": 100, "duration_ms": 500}]
    }))
}

#[test]
fn an_ack_of_a_message_already_deleted_is_rejected_under_deleted_ack_rejected() {
    let r = deleted_ack_run("textbook", Some("rejected"));
    assert_eq!(r.messages[0].fate, Fate::Deleted { at: 1300 });
    assert_eq!(of(&r, K::AckRejected), vec![(1800, 0, 1, 2)]);
    assert!(of(&r, K::AckNoOp).is_empty());
    assert_eq!(r.deliveries[1].outcome, Outcome::AckRejected);
    let t = &r.report.totals;
    assert_eq!((t.acks_ok, t.acks_rejected, t.acks_no_op), (1, 1, 0));
}

#[test]
fn an_ack_of_a_message_already_deleted_is_a_success_with_nothing_to_settle_under_deleted_ack_no_op()
{
    let r = deleted_ack_run("textbook", Some("no_op"));
    // The late ack deleted it; the second ack changes nothing: no second
    // deletion, no redelivery, the message's end where the first put it.
    assert_eq!(r.messages[0].fate, Fate::Deleted { at: 1300 });
    assert_eq!(of(&r, K::AckOk), vec![(1300, 0, 0, 1)]);
    assert_eq!(of(&r, K::AckNoOp), vec![(1800, 0, 1, 2)]);
    assert!(of(&r, K::AckRejected).is_empty());
    assert_eq!(of(&r, K::Receive).len(), 2);
    assert_eq!(r.deliveries[1].outcome, Outcome::AckNoOp);
    // Its lease had already ended when the late ack deleted the message.
    assert_eq!(r.deliveries[1].lease_end, LeaseEnd::Expired);
    assert_eq!(r.deliveries[1].lease_ended_at, 1300);
    let t = &r.report.totals;
    assert_eq!(
        (t.acks_ok, t.acks_rejected, t.acks_no_op, t.deleted),
        (1, 0, 1, 1)
    );
}

#[test]
fn an_ack_of_a_message_not_yet_deleted_is_judged_as_before_under_deleted_ack_no_op() {
    // Strict receipts: worker 0's late ack at 1300 finds receipt 2 holding
    // the message, not a deleted message, and is rejected as before.
    let r = run(json!({
        "broker": {"visibility_timeout_ms": 1000, "deleted_ack": "no_op"},
        "workers": {"count": 2},
        "work": {"dist": "constant", "ms": 800},
        "faults": [{"kind": "pause", "worker": 0, "at_ms": 100, "duration_ms": 500}]
    }));
    assert_eq!(of(&r, K::AckRejected), vec![(1300, 0, 0, 1)]);
    assert_eq!(of(&r, K::AckOk), vec![(1800, 0, 1, 2)]);
    assert!(of(&r, K::AckNoOp).is_empty());
}

fn preset_deleted_ack(preset: &str) -> lease_sim::scenario::DeletedAck {
    let mut s = scenario(json!({"broker": {"preset": preset}}));
    s.broker.deleted_ack = None;
    lease_sim::resolve::resolve(&s).deleted_ack
}

#[test]
fn sqs_standard_answers_a_delete_of_a_message_already_deleted_with_success() {
    use lease_sim::scenario::DeletedAck;
    // DeleteMessage "doesn't fail unless the ReceiptHandle is malformed";
    // observed with moto (`sqs-standard-outlives-lease`).
    assert_eq!(preset_deleted_ack("sqs_standard"), DeletedAck::NoOp);
    let r = deleted_ack_run("sqs_standard", None);
    assert_eq!(of(&r, K::AckNoOp), vec![(1800, 0, 1, 2)]);
}

#[test]
fn sqs_fifo_rejects_a_delete_whose_receipt_expired_before_the_message_was_deleted() {
    use lease_sim::scenario::DeletedAck;
    // A FIFO receipt expires with its visibility timeout: "The receipt
    // handle has expired" (InvalidParameterValue).
    assert_eq!(preset_deleted_ack("sqs_fifo"), DeletedAck::Rejected);
}

#[test]
fn jetstream_answers_an_ack_of_a_message_already_acked_with_success() {
    use lease_sim::scenario::DeletedAck;
    // nats-server `processAckMsgLocked`: a sequence no longer pending is
    // skipped and the ack still answered; observed with nats-py 2.9.
    assert_eq!(preset_deleted_ack("nats_jetstream"), DeletedAck::NoOp);
    let r = deleted_ack_run("nats_jetstream", None);
    assert_eq!(of(&r, K::AckNoOp), vec![(1800, 0, 1, 2)]);
}

#[test]
fn redis_streams_xack_of_an_entry_already_acked_settles_nothing() {
    use lease_sim::scenario::DeletedAck;
    // XACK answers the number of entries it removed from the pending list:
    // 0 for one already acknowledged, never an error.
    assert_eq!(preset_deleted_ack("redis_streams"), DeletedAck::NoOp);
    // A timer that takes the entry back at its deadline stands for the
    // claimer, which the preset leaves to the file.
    let r = run(json!({
        "broker": {"preset": "redis_streams", "visibility_timeout_ms": 1000,
                   "expiry_takes": "delivery"},
        "workers": {"count": 2},
        "work": {"dist": "constant", "ms": 800},
        "faults": [{"kind": "pause", "worker": 0, "at_ms": 100, "duration_ms": 500}]
    }));
    assert_eq!(of(&r, K::AckOk), vec![(1300, 0, 0, 1)]);
    assert_eq!(of(&r, K::AckNoOp), vec![(1800, 0, 1, 2)]);
}

#[test]
fn celery_acks_of_a_task_already_acked_settle_nothing_on_redis_and_on_sqs() {
    use lease_sim::scenario::DeletedAck;
    // kombu's Redis `QoS.ack` is ZREM and HDEL of the delivery tag, which
    // answer 0 for a tag already gone; kombu's SQS ack is DeleteMessage.
    for preset in ["celery_redis", "celery_sqs"] {
        assert_eq!(preset_deleted_ack(preset), DeletedAck::NoOp, "{preset}");
    }
}

#[test]
fn brokers_whose_sources_say_nothing_keep_rejecting_an_ack_of_a_message_already_deleted() {
    use lease_sim::scenario::DeletedAck;
    for preset in [
        "textbook",
        "azure_service_bus",
        "google_pubsub",
        "rabbitmq_4_2",
        "rabbitmq_4_3",
        "bullmq",
        "cloud_tasks",
        "sidekiq_pro",
    ] {
        assert_eq!(preset_deleted_ack(preset), DeletedAck::Rejected, "{preset}");
    }
    let r = deleted_ack_run("textbook", None);
    assert_eq!(of(&r, K::AckRejected), vec![(1800, 0, 1, 2)]);
}

#[test]
fn a_bad_deleted_ack_names_its_field_and_its_words() {
    let mut v = common::base();
    common::patch(&mut v, json!({"broker": {"deleted_ack": "ignored"}}));
    let e = lease_sim::parse::parse_scenario(&v.to_string())
        .unwrap_err()
        .to_string();
    assert!(e.contains("deleted_ack"), "{e}");
    assert!(e.contains("`rejected` or `no_op`"), "{e}");
}
