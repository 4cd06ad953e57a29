//! The managed services and job frameworks (Temporal activities, Google
//! Cloud Tasks, Sidekiq Pro) and the rules they need: a delay before
//! redelivery, an attempt capped whatever its heartbeats, jobs that come
//! back only when a later process starts. One test per rule of
//! docs/MODEL.md, and each preset's documented behaviour from its
//! documentation's own examples: the expected times are the documents'
//! numbers, worked by hand (comments show the arithmetic). Every run checks
//! every invariant after every event.

mod common;

use common::{of, run, run_checked, scenario, times};
use lease_sim::resolve::{resolve, RetryDelay};
use lease_sim::run::{DeadLetterCause, EventKind as K, Fate};
use lease_sim::scenario::Preset;
use lease_sim::{parse_scenario, validate, Scenario, SimError};
use serde_json::{json, Value};

/// A scenario from JSON alone: the preset's own defaults fill the rest.
fn preset_scenario(v: Value) -> Scenario {
    parse_scenario(&v.to_string()).unwrap_or_else(|e| panic!("bad test scenario: {e}"))
}

/// A scenario as the file says it, not yet checked.
fn unchecked(v: Value) -> Scenario {
    serde_json::from_value(v).unwrap_or_else(|e| panic!("bad test scenario: {e}"))
}

/// A scenario over the rule tests' base, not yet checked.
fn unchecked_over_base(p: Value) -> Scenario {
    let mut v = common::base();
    common::patch(&mut v, p);
    unchecked(v)
}

fn refused_field(s: &Scenario) -> String {
    match validate(s) {
        Err(SimError::Invalid { field, .. }) => field,
        other => panic!("expected a refusal, got {other:?}"),
    }
}

// ---- A delay before redelivery ---------------------------------------------

#[test]
fn a_retry_delay_doubles_from_its_minimum_then_grows_linearly_up_to_its_cap() {
    let delays = |r: RetryDelay, n: u32| (0..n).map(|k| r.delay_ms(k) / 1_000).collect::<Vec<_>>();
    // Cloud Tasks' RetryConfig example: min_backoff 10 s, max_backoff 300 s,
    // max_doublings 3: "10s, 20s, 40s, 80s, 160s, 240s, 300s, 300s".
    let cloud = RetryDelay {
        min_ms: 10_000,
        max_ms: Some(300_000),
        doublings: Some(3),
    };
    assert_eq!(delays(cloud, 8), [10, 20, 40, 80, 160, 240, 300, 300]);
    // Temporal's default policy: 1 s, coefficient 2, at most 100 x 1 s.
    let temporal = RetryDelay {
        min_ms: 1_000,
        max_ms: Some(100_000),
        doublings: None,
    };
    assert_eq!(delays(temporal, 9), [1, 2, 4, 8, 16, 32, 64, 100, 100]);
    // No doubling is linear: RabbitMQ 4.3's delayed retry,
    // min(min_delay x delivery_count, max_delay), with 1 s and 3 s.
    let linear = RetryDelay {
        min_ms: 1_000,
        max_ms: Some(3_000),
        doublings: Some(0),
    };
    assert_eq!(delays(linear, 5), [1, 2, 3, 3, 3]);
    // Without a cap it never overflows.
    let endless = RetryDelay {
        max_ms: None,
        ..temporal
    };
    assert_eq!(endless.delay_ms(200), u64::MAX);
}

#[test]
fn an_expired_message_waits_out_its_retry_delay_before_the_next_receive() {
    // 1 s leases, 5 s of work, two workers, a retry after 1 s doubling:
    // receipt 1 expires at 1000 and is handed out at 1000 + 1000; receipt 2
    // expires at 3000 and waits 2000, to 5000, when worker 0's rejected ack
    // frees it; receipt 3 (5000 + 1000) expires at 6000.
    let r = run(json!({
        "broker": {"visibility_timeout_ms": 1000, "retry_min_ms": 1000,
                   "retry_max_ms": 100000, "retry_doublings": null},
        "workers": {"count": 2},
        "work": {"dist": "constant", "ms": 5000}, "duration_ms": 6500
    }));
    assert_eq!(
        of(&r, K::Receive),
        vec![(0, 0, 0, 1), (2000, 0, 1, 2), (5000, 0, 0, 3)]
    );
    assert_eq!(times(&r, K::Expire), vec![1000, 3000, 6000]);
    // While it waits it is in the queue, not handed out.
    assert_eq!(r.report.totals.still_available, 1);
}

#[test]
fn a_release_waits_out_the_retry_delay_too() {
    // The first run fails at 500 and releases; the retry comes 1 s later.
    let r = run(json!({
        "broker": {"retry_min_ms": 1000},
        "work": {"dist": "constant", "ms": 500},
        "faults": [{"kind": "run", "message": 0, "receipt": 1, "outcome": "fail"}]
    }));
    assert_eq!(times(&r, K::Release), vec![500]);
    assert_eq!(times(&r, K::Receive), vec![0, 1500]);
    assert_eq!(times(&r, K::AckOk), vec![2000]);
}

#[test]
fn no_retry_delay_redelivers_at_once() {
    // `retry_min_ms: null` under Temporal: the expired attempt goes again at once.
    let r = run(json!({
        "broker": {"preset": "temporal_activity", "visibility_timeout_ms": 1000,
                   "retry_min_ms": null},
        "workers": {"count": 2},
        "work": {"dist": "constant", "ms": 5000}, "duration_ms": 1500
    }));
    assert_eq!(times(&r, K::Receive), vec![0, 1000]);
}

#[test]
fn a_late_ack_can_delete_a_message_waiting_out_its_delay() {
    // SQS standard's reading: the late ack with the latest receipt deletes
    // the message while it sits in the queue, waiting 10 s to be handed out.
    let r = run(json!({
        "broker": {"preset": "sqs_standard", "visibility_timeout_ms": 1000,
                   "retry_min_ms": 10000},
        "work": {"dist": "constant", "ms": 1500}
    }));
    assert_eq!(times(&r, K::AckOk), vec![1500]);
    assert_eq!(times(&r, K::Receive), vec![0]);
    assert_eq!(r.report.totals.deleted, 1);
}

#[test]
fn pubsub_redelivers_at_once_by_default_and_under_a_backoff_policy_waits_ten_seconds_doubling_to_ten_minutes(
) {
    // Work that never ends on ten workers, the ack deadline at Pub/Sub's
    // 10 s, and nobody stops a run whose deadline passed: each expiry's
    // redelivery goes to a free worker. By default a subscription uses
    // immediate redelivery: the expired message is handed out again at its
    // deadline.
    let at_once = run(json!({
        "broker": {"preset": "google_pubsub", "visibility_timeout_ms": 10000},
        "workers": {"count": 10},
        "work": {"dist": "constant", "ms": 5000000}, "duration_ms": 35000
    }));
    assert_eq!(times(&at_once, K::Receive), vec![0, 10_000, 20_000, 30_000]);
    // An exponential backoff policy with its documented defaults,
    // minimumBackoff 10 s and maximumBackoff 600 s, applied to an ack
    // deadline exceeded as to a nack. Each receive is the previous expiry
    // plus the wait: 10 + 10 = 20, 30 + 20 = 50, 60 + 40 = 100,
    // 110 + 80 = 190, 200 + 160 = 360, 370 + 320 = 690, then the cap:
    // 700 + 600 = 1300 and 1310 + 600 = 1910 s.
    let policy = run(json!({
        "broker": {"preset": "google_pubsub", "visibility_timeout_ms": 10000,
                   "retry_min_ms": 10000, "retry_max_ms": 600000},
        "workers": {"count": 10},
        "work": {"dist": "constant", "ms": 5000000}, "duration_ms": 2000000
    }));
    assert_eq!(
        times(&policy, K::Receive),
        vec![0, 20_000, 50_000, 100_000, 190_000, 360_000, 690_000, 1_300_000, 1_910_000]
    );
    assert_eq!(
        times(&policy, K::Expire),
        vec![10_000, 30_000, 60_000, 110_000, 200_000, 370_000, 700_000, 1_310_000, 1_920_000]
    );
}

// ---- Temporal activities -----------------------------------------------------

/// A Temporal activity that runs far longer than its StartToClose, on
/// enough workers that every attempt finds a free one.
fn temporal(start_to_close: u64, workers: u32, duration: u64) -> lease_sim::Run {
    run(json!({
        "broker": {"preset": "temporal_activity", "visibility_timeout_ms": start_to_close},
        "workers": {"count": workers},
        "work": {"dist": "constant", "ms": 3_600_000}, "duration_ms": duration
    }))
}

#[test]
fn temporal_retries_a_timed_out_attempt_after_one_second_doubling_to_a_hundred() {
    // StartToClose 1 s; the policy's intervals 1, 2, 4, ..., 64, 100, 100 s:
    // attempt n+1 starts 1 s (its timeout) + interval n after attempt n.
    let r = temporal(1_000, 12, 340_000);
    assert_eq!(
        times(&r, K::Receive),
        vec![0, 2_000, 5_000, 10_000, 19_000, 36_000, 69_000, 134_000, 235_000, 336_000]
    );
    // Unlimited attempts: nothing is dead-lettered.
    assert_eq!(r.report.totals.dead_lettered_expired, 0);
}

#[test]
fn temporal_leaves_a_timed_out_attempt_running_and_its_effect_lands() {
    // StartToClose 1 s, 1.5 s of work: attempt 1 times out at 1000 and
    // keeps running; attempt 2 starts at 2000. Attempt 1 commits at 1500
    // (the effect lands) and its completion is refused; attempt 2 commits
    // its effect at 3500 too.
    let r = run(json!({
        "broker": {"preset": "temporal_activity", "visibility_timeout_ms": 1000},
        "workers": {"count": 2},
        "work": {"dist": "constant", "ms": 1500}, "duration_ms": 3600
    }));
    assert!(
        of(&r, K::Abort).is_empty(),
        "nobody stops the first attempt"
    );
    assert_eq!(times(&r, K::CommitApplied), vec![1500]);
    assert_eq!(times(&r, K::CommitDuplicate), vec![3500]);
    assert_eq!(of(&r, K::AckRejected)[0], (1500, 0, 0, 1));
}

#[test]
fn temporal_heartbeats_reset_the_heartbeat_timeout_but_never_pass_start_to_close() {
    // StartToClose 10 s, HeartbeatTimeout 2 s (the heartbeat's extend_by),
    // heartbeats asked every 1 s and throttled to 0.8 x 2 s = 1.6 s. The
    // first lease is 2 s; each heartbeat resets it to now + 2 s, and the
    // last (at 9600) only to 10000, StartToClose.
    let r = run(json!({
        "broker": {"preset": "temporal_activity", "visibility_timeout_ms": 10000},
        "workers": {"heartbeat": {"interval_ms": 1000, "extend_by_ms": 2000}},
        "work": {"dist": "constant", "ms": 30000}, "duration_ms": 10500
    }));
    assert_eq!(
        times(&r, K::ExtendOk),
        vec![1_600, 3_200, 4_800, 6_400, 8_000, 9_600]
    );
    assert_eq!(times(&r, K::Expire), vec![10_000]);
    assert_eq!(r.deliveries[0].lease_ended_at, 10_000);
}

#[test]
fn temporal_sdk_throttles_heartbeats_to_four_fifths_of_the_heartbeat_timeout() {
    let hb = |interval: u64, timeout: u64| {
        let s = scenario(json!({
            "broker": {"preset": "temporal_activity", "visibility_timeout_ms": 3_600_000},
            "workers": {"heartbeat": {"interval_ms": interval, "extend_by_ms": timeout}}
        }));
        resolve(&s).heartbeat.unwrap().interval_ms
    };
    // heartbeatTimeout x 0.8 ...
    assert_eq!(hb(1_000, 2_000), 1_600);
    // ... at most 60 s (maxHeartbeatThrottleInterval) ...
    assert_eq!(hb(1_000, 300_000), 60_000);
    // ... and an activity that heartbeats less often is not sped up.
    assert_eq!(hb(5_000, 2_000), 5_000);
    // Elsewhere a heartbeat goes as asked.
    let s = scenario(json!({
        "workers": {"heartbeat": {"interval_ms": 1_000, "extend_by_ms": 2_000}}
    }));
    assert_eq!(resolve(&s).heartbeat.unwrap().interval_ms, 1_000);
}

#[test]
fn temporal_heartbeats_too_rare_for_the_heartbeat_timeout_time_the_attempt_out() {
    // Heartbeats every 5 s against a 2 s HeartbeatTimeout: the first lease,
    // 2 s, ends before the first heartbeat.
    let r = run(json!({
        "broker": {"preset": "temporal_activity", "visibility_timeout_ms": 60000},
        "workers": {"heartbeat": {"interval_ms": 5000, "extend_by_ms": 2000}},
        "work": {"dist": "constant", "ms": 30000}, "duration_ms": 2500
    }));
    assert_eq!(times(&r, K::Expire), vec![2_000]);
}

#[test]
fn temporal_without_a_start_to_close_is_refused_naming_the_field() {
    let s = unchecked(json!({"broker": {"preset": "temporal_activity"}}));
    assert_eq!(refused_field(&s), "broker.visibility_timeout_ms");
    let e = validate(&s).unwrap_err().to_string();
    assert!(e.contains("StartToClose"), "{e}");
}

// ---- Google Cloud Tasks ------------------------------------------------------

#[test]
fn cloud_tasks_retries_at_the_retry_config_s_own_intervals() {
    // Dispatch deadline 15 s, the RetryConfig example (10 s, 300 s, 3
    // doublings): each attempt starts 15 s + the interval after the last.
    let r = run(json!({
        "broker": {"preset": "cloud_tasks", "visibility_timeout_ms": 15000,
                   "retry_min_ms": 10000, "retry_max_ms": 300000, "retry_doublings": 3},
        "workers": {"count": 9},
        "work": {"dist": "constant", "ms": 3_600_000}, "duration_ms": 1_300_000
    }));
    assert_eq!(
        times(&r, K::Receive),
        vec![0, 25_000, 60_000, 115_000, 210_000, 385_000, 640_000, 955_000, 1_270_000]
    );
}

#[test]
fn cloud_tasks_deletes_a_task_past_its_max_attempts_instead_of_dead_lettering_it() {
    // RetryConfig: max_attempts 3, min_backoff 10 s, max_backoff 10 s, a
    // 15 s dispatch deadline: attempts at 0, 25 s and 50 s; the third
    // times out at 65 s with the attempts spent, and the task is deleted.
    // Cloud Tasks has no dead-letter queue.
    let r = run(json!({
        "broker": {"preset": "cloud_tasks", "visibility_timeout_ms": 15000,
                   "max_receive_count": 3, "retry_min_ms": 10000, "retry_max_ms": 10000},
        "workers": {"count": 3},
        "work": {"dist": "constant", "ms": 3_600_000}, "duration_ms": 200_000
    }));
    assert_eq!(times(&r, K::Receive), vec![0, 25_000, 50_000]);
    assert_eq!(times(&r, K::Dropped), vec![65_000]);
    assert!(times(&r, K::DeadLetterExpired).is_empty());
    assert_eq!(
        r.messages[0].fate,
        Fate::Dropped {
            at: 65_000,
            cause: DeadLetterCause::Expired
        }
    );
    let t = &r.report.totals;
    assert_eq!((t.dropped, t.dead_lettered_expired), (1, 0));
}

#[test]
fn cloud_tasks_dispatch_deadline_runs_from_fifteen_seconds_to_thirty_minutes() {
    let with = |t: u64| {
        unchecked(json!({"broker": {"preset": "cloud_tasks", "visibility_timeout_ms": t}}))
    };
    assert!(validate(&with(15_000)).is_ok());
    assert!(validate(&with(1_800_000)).is_ok());
    assert_eq!(refused_field(&with(14_999)), "broker.visibility_timeout_ms");
    assert_eq!(
        refused_field(&with(1_800_001)),
        "broker.visibility_timeout_ms"
    );
}

#[test]
fn each_preset_s_lease_setting_is_refused_outside_its_documented_range_naming_the_field_and_the_range(
) {
    // (preset, lowest, highest, words of the range): Pub/Sub's ack deadline
    // 10 s to 600 s; Service Bus's LockDuration at most 5 min; Cloud Tasks'
    // dispatch deadline 15 s to 30 min; SQS's visibility timeout at most
    // 12 h, the model's own maximum.
    for (preset, lo, hi, says) in [
        (
            "google_pubsub",
            10_000,
            600_000,
            "from 10,000 ms (10 s) to 600,000 ms (10 min) under google_pubsub",
        ),
        (
            "azure_service_bus",
            1,
            300_000,
            "at most 300,000 ms (5 min) under azure_service_bus",
        ),
        (
            "cloud_tasks",
            15_000,
            1_800_000,
            "from 15,000 ms (15 s) to 1,800,000 ms (30 min) under cloud_tasks",
        ),
        ("sqs_standard", 1, 43_200_000, "43,200,000"),
    ] {
        let with =
            |t: u64| unchecked(json!({"broker": {"preset": preset, "visibility_timeout_ms": t}}));
        assert!(validate(&with(lo)).is_ok(), "{preset} {lo}");
        assert!(validate(&with(hi)).is_ok(), "{preset} {hi}");
        let mut outside = vec![hi + 1];
        if lo > 1 {
            outside.push(lo - 1);
        }
        for t in outside {
            let s = with(t);
            assert_eq!(
                refused_field(&s),
                "broker.visibility_timeout_ms",
                "{preset} {t}"
            );
            let e = validate(&s).unwrap_err().to_string();
            assert!(e.contains(says), "{preset} {t}: {e}");
        }
    }
    // Where the system documents no range of its own, the model's holds:
    // JetStream takes any AckWait.
    let s = unchecked(json!({"broker": {"preset": "nats_jetstream", "visibility_timeout_ms": 1}}));
    assert!(validate(&s).is_ok());
}

#[test]
fn services_without_a_lease_call_refuse_a_heartbeat() {
    for preset in ["cloud_tasks", "sidekiq_pro"] {
        let s = unchecked(json!({
            "broker": {"preset": preset},
            "workers": {"heartbeat": {"interval_ms": 1000}}
        }));
        assert_eq!(refused_field(&s), "workers.heartbeat", "{preset}");
    }
}

#[test]
fn a_retry_maximum_below_its_minimum_is_refused() {
    let s = unchecked_over_base(json!({"broker": {"retry_min_ms": 5000, "retry_max_ms": 1000}}));
    assert_eq!(refused_field(&s), "broker.retry_max_ms");
}

// ---- Sidekiq Pro ---------------------------------------------------------------

#[test]
fn sidekiq_pro_never_runs_a_slow_job_twice() {
    // A three-hour job under super_fetch: no timer takes it back.
    let r = run_checked(&preset_scenario(json!({
        "broker": {"preset": "sidekiq_pro"},
        "workers": {"count": 2, "heartbeat": null},
        "work": {"dist": "constant", "ms": 10_800_000},
        "arrivals": {"backlog": 1, "rate_per_s": 0.0},
        "duration_ms": 11_000_000
    })));
    assert_eq!(times(&r, K::Receive), vec![0]);
    assert!(of(&r, K::Expire).is_empty());
    assert_eq!(times(&r, K::AckOk), vec![10_800_000]);
}

#[test]
fn sidekiq_pro_reruns_a_crashed_process_s_job_only_at_a_later_process_start() {
    // Two three-hour jobs on two processes. Process 0 dies at 10 min and
    // starts again at 10.5 min: the orphan check ran at 0 (every process
    // starts then), an hour has not passed, nothing comes back. Process 1
    // dies at 65 min and starts again at 65.5 min: the check is due, and
    // takes back job 0 (its process's heartbeat expired 60 s after 10 min),
    // not job 1 (its heartbeat expires at 66 min): that one waits for the
    // next check, an hour later.
    let r = run_checked(&preset_scenario(json!({
        "broker": {"preset": "sidekiq_pro"},
        "workers": {"count": 2},
        "work": {"dist": "constant", "ms": 10_800_000},
        "arrivals": {"backlog": 2, "rate_per_s": 0.0},
        "faults": [
            {"kind": "crash", "worker": 0, "at_ms": 600_000, "restart_after_ms": 30_000},
            {"kind": "crash", "worker": 1, "at_ms": 3_900_000, "restart_after_ms": 30_000}
        ],
        "duration_ms": 4_000_000
    })));
    assert_eq!(of(&r, K::Expire), vec![(3_930_000, 0, 0, 1)]);
    assert_eq!(
        of(&r, K::Receive),
        vec![(0, 0, 0, 1), (0, 1, 1, 1), (3_930_000, 0, 0, 2)]
    );
    // Job 0 runs again; job 1 stays with its dead process.
    assert_eq!(r.report.totals.still_in_flight, 2);
    assert_eq!(r.deliveries.len(), 3);
}

#[test]
fn an_orphan_check_without_a_period_runs_at_every_process_start() {
    // `expiry_check_ms: null`: the restart at 90 s takes the job back, the
    // heartbeat (the 60 s timeout) having expired at 70 s.
    let r = run(json!({
        "broker": {"expiry_takes": "orphans", "visibility_timeout_ms": 60000,
                   "expiry_check_ms": null},
        "work": {"dist": "constant", "ms": 200000},
        "faults": [{"kind": "crash", "worker": 0, "at_ms": 10000, "restart_after_ms": 80000}],
        "duration_ms": 100000
    }));
    assert_eq!(of(&r, K::Expire), vec![(90_000, 0, 0, 1)]);
    assert_eq!(of(&r, K::Receive)[1], (90_000, 0, 0, 2));
}

// ---- The presets' defaults -----------------------------------------------------

#[test]
fn each_managed_service_preset_sets_its_documented_defaults() {
    use lease_sim::scenario::{ExpiryTakes as T, LateAck as L};
    let cfg = |p: &str, extra: Value| {
        let mut v = json!({"broker": {"preset": p}});
        common::patch(&mut v, extra);
        resolve(&preset_scenario(v))
    };
    // Temporal: the StartToClose the file gives; 1 s x 2 up to 100 s,
    // unlimited attempts; a timed-out attempt's completion refused.
    let t = cfg(
        "temporal_activity",
        json!({"broker": {"visibility_timeout_ms": 300000}}),
    );
    assert_eq!(t.visibility_timeout_ms, 300_000);
    assert_eq!(
        t.retry,
        Some(RetryDelay {
            min_ms: 1_000,
            max_ms: Some(100_000),
            doublings: None
        })
    );
    assert_eq!(t.max_receive_count, None);
    assert_eq!(t.late_ack, L::Rejected);
    assert!(t.attempt_cap);
    // Cloud Tasks, HTTP target: 10 min; 100 attempts, 0.1 s doubling 16
    // times to 3,600 s.
    let c = cfg("cloud_tasks", json!({}));
    assert_eq!(c.visibility_timeout_ms, 600_000);
    assert_eq!(c.max_receive_count, Some(100));
    assert_eq!(
        c.retry,
        Some(RetryDelay {
            min_ms: 100,
            max_ms: Some(3_600_000),
            doublings: Some(16)
        })
    );
    assert!(!c.attempt_cap);
    // Past its attempts a task is deleted.
    assert_eq!(c.past_limit, lease_sim::scenario::PastLimit::Drop);
    // Sidekiq Pro: no timer while the process lives; a heartbeat that
    // expires 60 s after its death; the orphan check at most hourly.
    let k = cfg("sidekiq_pro", json!({}));
    assert_eq!(k.expiry_takes, T::Orphans);
    assert_eq!(k.visibility_timeout_ms, 60_000);
    assert_eq!(k.expiry_check_ms, Some(3_600_000));
    assert_eq!(k.max_receive_count, None);
    assert_eq!(k.retry, None);
    // Every other preset redelivers at once.
    for p in Preset::ALL {
        if !matches!(p, Preset::TemporalActivity | Preset::CloudTasks) {
            let mut s = scenario(json!({}));
            s.broker.preset = p;
            assert_eq!(resolve(&s).retry, None, "{p:?}");
        }
    }
}
