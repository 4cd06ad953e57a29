//! The rules the job frameworks need (BullMQ, Celery), one test per rule of
//! docs/MODEL.md "Job frameworks", and each preset's documented defaults.
//! Expected times are worked out by hand from the rules (comments show the
//! arithmetic); every run also checks every invariant after every event.

mod common;

use common::{of, run, run_checked, times};
use lease_sim::resolve::{resolve, HeartbeatConfig};
use lease_sim::run::{DeadLetterCause, EventKind as K, Fate};
use lease_sim::scenario::{
    AckAt, DlqTiming, LateAck, OnReject, Preset, Renewal, RetryOn, Scenario,
};
use serde_json::json;

/// A scenario from JSON alone, without the rule tests' base (whose timeout
/// and redrive would hide the preset's), run with every invariant checked.
fn bare(v: serde_json::Value) -> lease_sim::Run {
    let s = lease_sim::parse_scenario(&v.to_string())
        .unwrap_or_else(|e| panic!("bad test scenario: {e}"));
    run_checked(&s)
}

// ---- Renewal that stops when the handler hogs the worker -------------------

/// BullMQ's defaults but a 1 s lock and checks every 1 s, two workers, and
/// message 0's first run 4 s of work.
fn stall_run(renewal: &str) -> lease_sim::Run {
    run(json!({
        "broker": {"preset": "bullmq", "visibility_timeout_ms": 1000,
                   "expiry_check_ms": 1000, "max_receive_count": 1},
        "workers": {"count": 2, "heartbeat": {"interval_ms": 500},
                    "renewal": renewal},
        "work": {"dist": "constant", "ms": 500, "cpu_bound": true},
        "faults": [{"kind": "run", "message": 0, "receipt": 1, "work_ms": 4000}],
        "duration_ms": 9000
    }))
}

#[test]
fn a_cpu_bound_run_on_an_event_loop_renews_nothing_and_its_lock_runs_out() {
    // Received at 0, lock until 1000, never renewed: the check at 1000 marks
    // it (it was taken at 0, before that check), the check at 2000 finds the
    // lock gone and moves it back; worker 1 runs it 2000..2500.
    let r = stall_run("event_loop");
    assert_eq!(of(&r, K::Expire), vec![(2000, 0, 0, 1)]);
    assert!(of(&r, K::ExtendOk).is_empty());
    assert_eq!(of(&r, K::Receive)[1], (2000, 0, 1, 2));
    assert_eq!(of(&r, K::AckOk), vec![(2500, 0, 1, 2)]);
    // Nobody stops the first run; its completion finds the lock gone.
    assert_eq!(of(&r, K::AckRejected), vec![(4000, 0, 0, 1)]);
}

#[test]
fn a_renewal_on_a_background_thread_goes_on_through_cpu_bound_work() {
    // Renewed every 500 ms by 1 s: the lock holds to the end of the work.
    let r = stall_run("background");
    assert!(of(&r, K::Expire).is_empty());
    assert_eq!(times(&r, K::ExtendOk).first(), Some(&500));
    assert_eq!(of(&r, K::AckOk), vec![(4000, 0, 0, 1)]);
}

#[test]
fn a_cpu_bound_run_blocks_the_other_handlers_on_its_event_loop() {
    // One worker of two handlers takes both messages at 0; message 0 blocks
    // the loop for 4 s, so message 1 starts only at 4000.
    let on = |renewal: &str| {
        run(json!({
            "broker": {"preset": "bullmq", "receive_batch": 2},
            "workers": {"concurrency": 2, "renewal": renewal},
            "work": {"dist": "constant", "ms": 500, "cpu_bound": true},
            "arrivals": {"backlog": 2},
            "faults": [{"kind": "run", "message": 0, "receipt": 1, "work_ms": 4000}],
            "duration_ms": 9000
        }))
    };
    let r = on("event_loop");
    assert_eq!(of(&r, K::Start), vec![(0, 0, 0, 1), (4000, 1, 0, 1)]);
    assert_eq!(times(&r, K::AckOk), vec![4000, 4500]);
    let r = on("background");
    assert_eq!(of(&r, K::Start), vec![(0, 0, 0, 1), (0, 1, 0, 1)]);
}

// ---- The stalled checker's two passes --------------------------------------

#[test]
fn bullmq_stall_checker_takes_a_lock_back_on_the_check_after_the_one_that_marked_it() {
    // Lock 1 s, checks every 3 s, no renewal: one pass takes it back at the
    // first check past the deadline, 3000; two passes need a check after
    // the receive to mark it (3000) and the next to move it (6000).
    let with = |passes: u32| {
        run(json!({
            "broker": {"visibility_timeout_ms": 1000, "expiry_check_ms": 3000,
                       "expiry_check_passes": passes},
            "workers": {"count": 2},
            "work": {"dist": "constant", "ms": 10000}, "duration_ms": 7000
        }))
    };
    assert_eq!(times(&with(1), K::Expire), vec![3000, 6000]);
    assert_eq!(times(&with(2), K::Expire), vec![6000]);
}

#[test]
fn under_two_passes_the_lock_ends_at_its_deadline_though_the_job_returns_on_the_check() {
    // The 1.5 s run's completion at 1500 comes after the 1 s lock ran out:
    // rejected ("Missing lock"), though the job goes back only at 6000.
    let r = run(json!({
        "broker": {"visibility_timeout_ms": 1000, "expiry_check_ms": 3000,
                   "expiry_check_passes": 2},
        "work": {"dist": "constant", "ms": 1500}, "duration_ms": 7000
    }));
    assert_eq!(of(&r, K::AckRejected), vec![(1500, 0, 0, 1)]);
    assert_eq!(times(&r, K::Expire), vec![6000]);
    // On one pass the same completion is in time: the lease holds until the check.
    let r = run(json!({
        "broker": {"visibility_timeout_ms": 1000, "expiry_check_ms": 3000},
        "work": {"dist": "constant", "ms": 1500}, "duration_ms": 7000
    }));
    assert_eq!(of(&r, K::AckOk), vec![(1500, 0, 0, 1)]);
}

// ---- The stalled checker runs in the workers -------------------------------

/// BullMQ with a 1 s lock and checks every 1 s, `workers` processes, one
/// handler each, no lock renewal unless the work is awaited; the file's
/// faults and messages on top.
fn checker_run(workers: u32, cpu_bound: bool, extra: serde_json::Value) -> lease_sim::Run {
    let mut v = json!({
        "name": "checker", "seed": 1, "duration_ms": 9000,
        "broker": {"preset": "bullmq", "visibility_timeout_ms": 1000, "expiry_check_ms": 1000},
        "workers": {"count": workers, "concurrency": 1},
        "work": {"dist": "constant", "ms": 500, "cpu_bound": cpu_bound},
        "arrivals": {"backlog": 1, "rate_per_s": 0.0}
    });
    for (k, x) in extra.as_object().into_iter().flatten() {
        match (v.get_mut(k), x) {
            (Some(serde_json::Value::Object(base)), serde_json::Value::Object(more)) => {
                base.extend(more.clone());
            }
            _ => {
                v[k] = x.clone();
            }
        }
    }
    bare(v)
}

#[test]
fn bullmq_stalled_checker_starts_with_its_worker_process() {
    // One process: the job taken at 0, renewed at 500, 1000 and 1500 (lock
    // until 2500); the process dies at 1600. Its restart at 2200 checks at
    // once (the key from the check at 1000 is gone): it marks the job; its
    // next check, at 3200 and not on a grid from t = 0, finds the lock
    // gone and moves it back, and the restarted process takes it.
    let r = checker_run(
        1,
        false,
        json!({"faults": [
        {"kind": "crash", "worker": 0, "at_ms": 1600, "restart_after_ms": 600},
        {"kind": "run", "message": 0, "receipt": 1, "work_ms": 4000}]}),
    );
    assert_eq!(of(&r, K::Expire), vec![(3200, 0, 0, 1)]);
    assert_eq!(of(&r, K::Receive)[1], (3200, 0, 0, 2));
    assert_eq!(of(&r, K::AckOk), vec![(3700, 0, 0, 2)]);
}

#[test]
fn a_lone_bullmq_worker_s_next_stalled_check_runs_as_its_own_check_key_runs_out() {
    // One process, no renewal: it checks at 0 (before it takes the job),
    // 1000 and 2000, each check a period after its last, just as the
    // `stalled-check` key its last check set runs out; none is skipped.
    // 1000 marks the job (its lock ran out at 1000), 2000 moves it back.
    // The 1500 ms run's completion at 1500 finds the lock gone.
    let r = checker_run(
        1,
        false,
        json!({
        "workers": {"heartbeat": null},
        "faults": [{"kind": "run", "message": 0, "receipt": 1, "work_ms": 1500}]}),
    );
    assert_eq!(of(&r, K::AckRejected), vec![(1500, 0, 0, 1)]);
    assert_eq!(of(&r, K::Expire), vec![(2000, 0, 0, 1)]);
    assert_eq!(of(&r, K::Receive)[1], (2000, 0, 0, 2));
}

#[test]
fn bullmq_runs_one_stalled_check_per_interval_across_its_workers() {
    // No renewal. Worker 0 takes the job at 0 and checks at 1000 (marks)
    // and 2000 (moves). Worker 1 dies at 100 and restarts at 1500: its
    // check there finds the key worker 0's check set at 1000 (for 1 s)
    // and does nothing, though the job's lock ran out at 1000.
    let r = checker_run(
        2,
        false,
        json!({
        "workers": {"heartbeat": null},
        "faults": [{"kind": "crash", "worker": 1, "at_ms": 100, "restart_after_ms": 1400},
                   {"kind": "run", "message": 0, "receipt": 1, "work_ms": 8000}]}),
    );
    assert_eq!(of(&r, K::Expire)[0], (2000, 0, 0, 1));
    assert_eq!(of(&r, K::Receive)[1], (2000, 0, 1, 2));
}

#[test]
fn bullmq_a_blocked_worker_checks_for_stalled_jobs_when_its_event_loop_frees() {
    // One process, its loop blocked 0..4000 by the job's CPU-bound run: the
    // check due at 1000 runs at 4000 and marks the job (the run's
    // completion there is refused: the lock ran out at 1000); the next
    // check, at 5000, moves it back and the same process runs it again.
    let r = checker_run(
        1,
        true,
        json!({"faults": [
        {"kind": "run", "message": 0, "receipt": 1, "work_ms": 4000}]}),
    );
    assert_eq!(of(&r, K::AckRejected), vec![(4000, 0, 0, 1)]);
    assert_eq!(of(&r, K::Expire), vec![(5000, 0, 0, 1)]);
    assert_eq!(of(&r, K::Receive)[1], (5000, 0, 0, 2));
    assert_eq!(of(&r, K::AckOk), vec![(5500, 0, 0, 2)]);
    // With another process free, that one's checks (1000 marks, 2000
    // moves) find it while the first loop is still blocked.
    let r = checker_run(
        2,
        true,
        json!({"faults": [
        {"kind": "run", "message": 0, "receipt": 1, "work_ms": 4000}]}),
    );
    assert_eq!(of(&r, K::Expire), vec![(2000, 0, 0, 1)]);
    assert_eq!(of(&r, K::Receive)[1], (2000, 0, 1, 2));
}

#[test]
fn bullmq_a_stalled_job_goes_back_to_the_head_of_the_wait_list() {
    // Three jobs, two processes, no renewal, 8 s first runs. Worker 0 runs
    // message 0, worker 1 message 1 and dies at 500; message 2 waits. The
    // check at 2000 moves messages 0 and 1 back ahead of message 2, so the
    // restarted worker 1 (at 2500) takes message 0 again, not message 2.
    let r = checker_run(
        2,
        false,
        json!({
        "workers": {"heartbeat": null},
        "arrivals": {"backlog": 3},
        "faults": [{"kind": "crash", "worker": 1, "at_ms": 500, "restart_after_ms": 2000},
                   {"kind": "run", "message": 0, "receipt": 1, "work_ms": 8000},
                   {"kind": "run", "message": 1, "receipt": 1, "work_ms": 8000}]}),
    );
    assert_eq!(times(&r, K::Expire), vec![2000, 2000]);
    assert_eq!(of(&r, K::Receive)[2], (2500, 0, 1, 2));
}

// ---- Past the limit: fail outright ------------------------------------------

#[test]
fn bullmq_fails_a_job_stalled_more_than_max_stalled_count() {
    // Every run takes 1.5 s against a 1 s lock, never renewed. First stall:
    // received 0, marked at 3000, moved at 6000. Second: received 6000,
    // marked at 9000, moved at 12000: past maxStalledCount 1, so the job
    // fails there, whatever its attempts (5) allow.
    let r = run(json!({
        "broker": {"preset": "bullmq", "visibility_timeout_ms": 1000,
                   "expiry_check_ms": 3000, "max_receive_count": 5},
        "workers": {"heartbeat": null},
        "work": {"dist": "constant", "ms": 1500}, "duration_ms": 20000
    }));
    assert_eq!(times(&r, K::Expire), vec![6000, 12000]);
    assert_eq!(times(&r, K::DeadLetterExpired), vec![12000]);
    assert_eq!(times(&r, K::Receive), vec![0, 6000]);
    assert_eq!(
        r.messages[0].fate,
        Fate::DeadLettered {
            at: 12000,
            cause: DeadLetterCause::Expired
        }
    );
}

#[test]
fn a_thrown_error_fails_a_bullmq_job_at_once_and_a_stall_does_not_count_toward_its_attempts() {
    // attempts 1 (the default): the first run throws, and the job fails.
    let r = bare(json!({
        "broker": {"preset": "bullmq"},
        "work": {"dist": "constant", "ms": 1000},
        "arrivals": {"backlog": 1, "rate_per_s": 0.0},
        "faults": [{"kind": "run", "message": 0, "receipt": 1, "outcome": "fail"}]
    }));
    assert_eq!(times(&r, K::DeadLetterFailed), vec![1000]);
    // A stall first (lock 1 s, 1.5 s of work, checks every 3 s: moved at
    // 6000), then a throw 0.5 s into the second run, inside its lock: the
    // stall left the one attempt unspent, so the throw fails it at 6500.
    let r = bare(json!({
        "broker": {"preset": "bullmq", "visibility_timeout_ms": 1000,
                   "expiry_check_ms": 3000},
        "workers": {"count": 1, "heartbeat": null},
        "arrivals": {"backlog": 1, "rate_per_s": 0.0},
        "work": {"dist": "constant", "ms": 1500},
        "faults": [{"kind": "run", "message": 0, "receipt": 2, "outcome": "fail",
                    "work_ms": 500}],
        "duration_ms": 20000
    }));
    assert_eq!(times(&r, K::Expire), vec![6000]);
    assert_eq!(times(&r, K::DeadLetterFailed), vec![6500]);
}

#[test]
fn bullmq_backoff_delays_a_retry_after_a_thrown_error_but_not_after_a_stall() {
    // attempts 3 and `backoff: {type: 'exponential', delay: 1000}`: every
    // run throws 0.5 s in. The first throw at 500 waits 1 s: received again
    // at 1500; the second at 2000 waits 2 s: received at 4000; the third,
    // at 4500, spends the attempts and fails the job.
    let r = bare(json!({
        "broker": {"preset": "bullmq", "max_receive_count": 3,
                   "retry_min_ms": 1000, "retry_doublings": null},
        "workers": {"count": 1},
        "work": {"dist": "constant", "ms": 500},
        "arrivals": {"backlog": 1, "rate_per_s": 0.0},
        "faults": [
            {"kind": "run", "message": 0, "receipt": 1, "outcome": "fail"},
            {"kind": "run", "message": 0, "receipt": 2, "outcome": "fail"},
            {"kind": "run", "message": 0, "receipt": 3, "outcome": "fail"}
        ],
        "duration_ms": 20000
    }));
    assert_eq!(times(&r, K::Receive), vec![0, 1500, 4000]);
    assert_eq!(times(&r, K::DeadLetterFailed), vec![4500]);
    // A stall (lock 1 s, never renewed, 1.5 s of work, checks every 3 s:
    // moved at 6000) goes straight back to wait whatever the backoff, and
    // the same job under `retry_on: every` waits its 1 s.
    let stall = |retry_on: Option<&str>| {
        let mut broker = json!({"preset": "bullmq", "visibility_timeout_ms": 1000,
                                "expiry_check_ms": 3000, "max_receive_count": 3,
                                "retry_min_ms": 1000, "retry_doublings": null});
        if let Some(on) = retry_on {
            broker["retry_on"] = json!(on);
        }
        bare(json!({
            "broker": broker,
            "workers": {"count": 1, "heartbeat": null},
            "work": {"dist": "constant", "ms": 1500},
            "arrivals": {"backlog": 1, "rate_per_s": 0.0},
            "duration_ms": 8000
        }))
    };
    let r = stall(None);
    assert_eq!(times(&r, K::Expire), vec![6000]);
    assert_eq!(times(&r, K::Receive), vec![0, 6000]);
    let r = stall(Some("every"));
    assert_eq!(times(&r, K::Expire), vec![6000]);
    assert_eq!(times(&r, K::Receive), vec![0, 7000]);
}

#[test]
fn bullmq_defaults_stall_a_cpu_bound_job_twice_and_fail_it_as_the_stalled_jobs_guide_says() {
    // BullMQ's documented defaults alone (worker-options.ts): lockDuration
    // 30 s renewed every 15 s on the event loop, stalledInterval 30 s in
    // two passes, maxStalledCount 1. One job of 100 s, two processes.
    let on = |cpu_bound: bool| {
        bare(json!({
            "duration_ms": 200000,
            "broker": {"preset": "bullmq"},
            "workers": {"count": 2},
            "work": {"dist": "constant", "ms": 100000, "cpu_bound": cpu_bound},
            "arrivals": {"backlog": 1, "rate_per_s": 0.0}
        }))
    };
    // A processor that returns control to the event loop ("make sure the
    // workers return control to the NodeJS event loop often enough"):
    // renewed at 15, 30, ... 90 s, the job completes once at 100 s.
    let r = on(false);
    assert_eq!(
        times(&r, K::ExtendOk),
        vec![15_000, 30_000, 45_000, 60_000, 75_000, 90_000]
    );
    assert_eq!(of(&r, K::AckOk), vec![(100_000, 0, 0, 1)]);
    assert!(of(&r, K::Expire).is_empty());
    // A CPU-bound one renews nothing ("the worker may not have time to
    // renew the lock"). Worker 0 takes the job at 0, its lock runs out at
    // 30 s; worker 1's check at 30 s marks it, its check at 60 s finds the
    // lock gone: the first stall (1, not above 1) moves it back to wait
    // and worker 1 takes it at 60 s, blocking its own loop until 160 s.
    // Worker 0's loop frees at 100 s: its completion finds the lock gone,
    // and its check then marks the second copy, whose lock ran out at
    // 90 s; its check at 130 s finds it stalled a second time, above
    // maxStalledCount: "moved to the failed set" at 130 s.
    let r = on(true);
    assert!(of(&r, K::ExtendOk).is_empty());
    assert_eq!(of(&r, K::Receive), vec![(0, 0, 0, 1), (60_000, 0, 1, 2)]);
    assert_eq!(times(&r, K::Expire), vec![60_000, 130_000]);
    assert_eq!(
        of(&r, K::AckRejected),
        vec![(100_000, 0, 0, 1), (160_000, 0, 1, 2)]
    );
    assert_eq!(
        r.messages[0].fate,
        Fate::DeadLettered {
            at: 130_000,
            cause: DeadLetterCause::Expired
        }
    );
}

// ---- When the ack is sent ----------------------------------------------------

/// Celery on Redis with a 2 s visibility timeout restored every 1 s, two
/// workers, message 0's first run 8 s long.
fn celery_long_run(ack_at: &str, crash: bool) -> lease_sim::Run {
    let faults = if crash {
        json!([{"kind": "run", "message": 0, "receipt": 1, "work_ms": 8000},
               {"kind": "crash", "worker": 0, "at_ms": 1000}])
    } else {
        json!([{"kind": "run", "message": 0, "receipt": 1, "work_ms": 8000}])
    };
    run(json!({
        "broker": {"preset": "celery_redis", "visibility_timeout_ms": 2000,
                   "expiry_check_ms": 1000},
        "workers": {"count": 2, "ack_at": ack_at},
        "work": {"dist": "constant", "ms": 500},
        "faults": faults,
        "duration_ms": 15000
    }))
}

#[test]
fn an_ack_before_the_work_is_never_redelivered() {
    // acks_late=False: acked at 0 as the task starts; nothing to restore.
    let r = celery_long_run("before_work", false);
    assert_eq!(of(&r, K::AckOk), vec![(0, 0, 0, 1)]);
    assert!(of(&r, K::Expire).is_empty());
    assert_eq!(times(&r, K::Receive), vec![0]);
    // The run still goes to its end and commits.
    assert_eq!(times(&r, K::CommitApplied), vec![8000]);
}

#[test]
fn an_ack_before_the_work_loses_the_message_when_the_worker_crashes() {
    // At most once: the crash at 1000 takes the run, and the message is gone.
    let r = celery_long_run("before_work", true);
    assert_eq!(r.messages[0].fate, Fate::Deleted { at: 0 });
    assert_eq!(r.report.totals.effects, 0);
    assert_eq!(times(&r, K::Receive), vec![0]);
}

#[test]
fn an_ack_after_the_work_is_redelivered_while_the_run_goes_on() {
    // acks_late=True: the deadline 2000 falls on a sweep; worker 1 runs it
    // 2000..2500 while worker 0's run goes on to 8000.
    let r = celery_long_run("after_work", false);
    assert_eq!(of(&r, K::Expire), vec![(2000, 0, 0, 1)]);
    assert_eq!(of(&r, K::Receive)[1], (2000, 0, 1, 2));
    assert_eq!(r.report.totals.overlapping_runs, 1);
}

// ---- Time in an ETA buffer uses the lease -------------------------------------

#[test]
fn a_task_waiting_for_its_eta_is_restored_and_run_again() {
    // Countdown 6 s, visibility 2 s restored every 1 s, two workers: the
    // task waits in worker 0's memory from 0; restored at 2000 and taken
    // by worker 1; at 4000 by worker 0; at 6000 by worker 1, its ETA come.
    // At 6000 each worker runs one copy, at 6500 the other: four runs.
    let r = run(json!({
        "broker": {"preset": "celery_redis", "visibility_timeout_ms": 2000,
                   "expiry_check_ms": 1000},
        "workers": {"count": 2, "ack_at": "after_work"},
        "work": {"dist": "constant", "ms": 500},
        "arrivals": {"backlog": 1, "eta_ms": 6000},
        "duration_ms": 15000
    }));
    assert_eq!(
        of(&r, K::Receive),
        vec![
            (0, 0, 0, 1),
            (2000, 0, 1, 2),
            (4000, 0, 0, 3),
            (6000, 0, 1, 4)
        ]
    );
    assert_eq!(
        of(&r, K::Start),
        vec![
            (6000, 0, 0, 1),
            (6000, 0, 1, 2),
            (6500, 0, 0, 3),
            (6500, 0, 1, 4)
        ]
    );
    // The first copy's ack settles the message (the delivery tag is the
    // message's own); the others find it gone.
    assert_eq!(of(&r, K::AckOk), vec![(6500, 0, 0, 1)]);
    // Worker 1's first copy starts beside worker 0's; at 6500 the second
    // copies start one after the other, the later beside the earlier.
    assert_eq!(r.report.totals.overlapping_runs, 2);
}

#[test]
fn a_message_held_for_its_eta_is_outside_the_prefetch() {
    // One worker of prefetch 1 takes all three ETA tasks at once.
    let r = run(json!({
        "broker": {"preset": "celery_redis"},
        "workers": {"prefetch": 1},
        "arrivals": {"backlog": 3, "eta_ms": 5000}
    }));
    assert_eq!(times(&r, K::Receive), vec![0, 0, 0]);
    assert_eq!(times(&r, K::Start), vec![5000, 6000, 7000]);
}

// ---- The presets' documented defaults ----------------------------------------

#[test]
fn each_job_framework_preset_sets_its_documented_defaults() {
    let of_preset = |p: Preset| {
        let mut s = Scenario::default();
        s.broker.preset = p;
        s.workers.concurrency = 2;
        resolve(&s)
    };
    // BullMQ: lockDuration 30 s renewed every lockRenewTime (15 s) on the
    // event loop, stalledInterval 30 s in two passes, maxStalledCount 1,
    // attempts 1, a completion without its lock rejected.
    let c = of_preset(Preset::Bullmq);
    assert_eq!(
        (
            c.visibility_timeout_ms,
            c.expiry_check_ms,
            c.expiry_check_passes
        ),
        (30_000, Some(30_000), 2)
    );
    assert_eq!((c.max_expiries, c.max_receive_count), (Some(1), Some(1)));
    assert!(!c.expiry_counts);
    assert_eq!(
        (c.late_ack, c.renewal, c.ack_at),
        (LateAck::Rejected, Renewal::EventLoop, AckAt::AfterWork)
    );
    assert_eq!(
        c.heartbeat,
        Some(HeartbeatConfig {
            interval_ms: 15_000,
            extend_by_ms: 30_000,
            max_extensions: None,
            on_reject: OnReject::Continue
        })
    );
    assert_eq!(c.prefetch, 2);
    // A job's backoff delays a thrown error's retry, never a stall's.
    assert_eq!(c.retry_on, RetryOn::Failure);
    assert_eq!(of_preset(Preset::CeleryRedis).retry_on, RetryOn::Every);
    // Celery on Redis: visibility_timeout 1 h, the restore sweep every
    // 10 s x 10, acks_late False, worker_prefetch_multiplier 4.
    let c = of_preset(Preset::CeleryRedis);
    assert_eq!(
        (
            c.visibility_timeout_ms,
            c.expiry_check_ms,
            c.expiry_check_passes
        ),
        (3_600_000, Some(100_000), 1)
    );
    assert_eq!(
        (c.late_ack, c.ack_at, c.prefetch),
        (LateAck::AcceptedAlways, AckAt::BeforeWork, 8)
    );
    assert_eq!(
        (c.max_receive_count, c.max_expiries, c.heartbeat.is_some()),
        (None, None, false)
    );
    // Celery on SQS: kombu's 30 min, SQS standard's rules.
    let c = of_preset(Preset::CelerySqs);
    assert_eq!(
        (c.visibility_timeout_ms, c.expiry_check_ms),
        (1_800_000, None)
    );
    assert_eq!(
        (c.late_ack, c.dlq_timing),
        (LateAck::AcceptedIfNotRedelivered, DlqTiming::OnNextReceive)
    );
    assert_eq!(
        (c.ack_at, c.prefetch, c.max_lease_lifetime_ms),
        (AckAt::BeforeWork, 8, Some(43_200_000))
    );
}

#[test]
fn celery_redis_redelivers_a_task_running_past_its_hour_on_the_sweep_after_it() {
    // Celery's docs: a task not acknowledged within the visibility timeout
    // (1 h) "will be redelivered to another worker and executed". With
    // acks_late, a 2 h task received at 0 is restored by the sweep at
    // 3,600 s (a multiple of 100 s) and run again by the other worker.
    let r = bare(json!({
        "broker": {"preset": "celery_redis"},
        "workers": {"count": 2, "ack_at": "after_work"},
        "work": {"dist": "constant", "ms": 7_200_000},
        "arrivals": {"backlog": 1, "rate_per_s": 0.0},
        "duration_ms": 4_000_000
    }));
    assert_eq!(of(&r, K::Expire), vec![(3_600_000, 0, 0, 1)]);
    assert_eq!(of(&r, K::Receive)[1], (3_600_000, 0, 1, 2));
}

#[test]
fn celery_sqs_redelivers_a_late_acked_task_at_kombu_s_thirty_minute_visibility_timeout() {
    // kombu's SQS channel: `default_visibility_timeout = 1800  # 30 minutes.`
    // (`kombu/transport/SQS.py`), set on the queue it creates, and SQS's own
    // timer hands the message out again at the deadline, with no sweep.
    // A 1 h task received at 0 with acks_late goes to the other worker at
    // 1,800 s, while the first still runs it.
    let on = |ack_at: &str| {
        bare(json!({
            "broker": {"preset": "celery_sqs"},
            "workers": {"count": 2, "ack_at": ack_at},
            "work": {"dist": "constant", "ms": 3_600_000},
            "arrivals": {"backlog": 1, "rate_per_s": 0.0},
            "duration_ms": 3_000_000
        }))
    };
    let r = on("after_work");
    assert_eq!(of(&r, K::Expire), vec![(1_800_000, 0, 0, 1)]);
    assert_eq!(of(&r, K::Receive), vec![(0, 0, 0, 1), (1_800_000, 0, 1, 2)]);
    // Celery's default acks as the task starts: nothing is left to expire.
    let r = on("before_work");
    assert!(of(&r, K::Expire).is_empty());
    assert_eq!(of(&r, K::Receive), vec![(0, 0, 0, 1)]);
}

#[test]
fn celery_redis_restores_a_task_ahead_of_the_queue_and_the_first_run_s_ack_cannot_call_the_copy_back(
) {
    // kombu's restore sweep RPUSHes an expired unacked task onto the end of
    // the list the workers BRPOP from, so it is fetched before every task
    // waiting there, and an ack removes only the unacked entry by its
    // delivery tag, never a restored copy in the list
    // (`kombu/transport/redis.py`: `QoS.restore_visible`,
    // `Channel._do_restore_message`, `QoS.ack`). Observed on Celery 5.7
    // (`celery-prefetched-restored-behind-slow`): one worker with one
    // thread holds message 0 (6 s) and prefetched message 1; both are
    // restored after 2 s; the worker, full, fetches message 0's copy when
    // its first run ends at 6 s and message 1's at 6.5 s, and runs both.
    let r = bare(json!({
        "broker": {"preset": "celery_redis", "visibility_timeout_ms": 2000,
                   "expiry_check_ms": 1000},
        "workers": {"count": 1, "concurrency": 1, "prefetch": 2, "ack_at": "after_work"},
        "work": {"dist": "constant", "ms": 500},
        "arrivals": {"backlog": 2, "rate_per_s": 0.0},
        "faults": [{"kind": "run", "message": 0, "receipt": 1, "work_ms": 6000}],
        "duration_ms": 12_000
    }));
    assert_eq!(of(&r, K::Expire), vec![(2000, 0, 0, 1), (2000, 1, 0, 1)]);
    assert_eq!(
        of(&r, K::Receive),
        vec![(0, 0, 0, 1), (0, 1, 0, 1), (6000, 0, 0, 2), (6500, 1, 0, 2)]
    );
    // The first runs' acks settle the tasks; the copies run all the same,
    // and their acks (HDEL and ZREM of a tag already gone) settle nothing.
    assert_eq!(of(&r, K::AckOk), vec![(6000, 0, 0, 1), (6500, 1, 0, 1)]);
    assert_eq!(of(&r, K::AckNoOp), vec![(7000, 0, 0, 2), (7500, 1, 0, 2)]);
    assert!(of(&r, K::AckRejected).is_empty());
}

#[test]
fn a_bad_check_passes_or_stall_limit_names_its_field() {
    let bad = |b: serde_json::Value| {
        let mut v = common::base();
        common::patch(&mut v, json!({ "broker": b }));
        lease_sim::parse_scenario(&v.to_string())
            .map(|_| ())
            .unwrap_err()
            .to_string()
    };
    let e = bad(json!({"expiry_check_passes": 3}));
    assert!(e.contains("broker.expiry_check_passes"), "{e}");
    let e = bad(json!({"expiry_check_passes": 2}));
    assert!(e.contains("expiry_check_ms"), "{e}");
    let e = bad(json!({"max_expiries": 5000}));
    assert!(e.contains("broker.max_expiries"), "{e}");
}

// ---- Celery on RabbitMQ --------------------------------------------------------

/// Celery with `acks_late` on RabbitMQ 3.x to 4.2: one worker, concurrency
/// 2, `worker_prefetch_multiplier` 4 (prefetch 8), tasks of 70 s but the
/// first one 40 min, a backlog of 100, calls taking no time.
fn celery_on_rabbitmq(consumer_timeout_ms: Option<u64>) -> lease_sim::Run {
    let mut broker = json!({"preset": "rabbitmq_4_2", "rpc_latency_ms": 0});
    if let Some(t) = consumer_timeout_ms {
        broker["visibility_timeout_ms"] = json!(t);
    }
    bare(json!({
        "broker": broker,
        "workers": {"count": 1, "concurrency": 2, "prefetch": 8, "ack_at": "after_work"},
        "work": {"dist": "constant", "ms": 70_000},
        "faults": [{"kind": "run", "message": 0, "receipt": 1, "work_ms": 2_400_000}],
        "arrivals": {"backlog": 100, "rate_per_s": 0.0},
        "duration_ms": 3_000_000
    }))
}

#[test]
fn celery_acks_late_on_rabbitmq_4_2_loses_the_whole_channel_s_prefetch_to_one_task_past_consumer_timeout(
) {
    // Messages 0-7 are received at 0. Message 0 runs 40 min on one handler;
    // the other runs message n from (n - 1) x 70 s to n x 70 s, and each ack
    // lets message n + 7 in. Message 0's deadline is 0 + 30 min = 1,800 s,
    // on a 60 s tick: the channel is closed then. It holds message 0,
    // message 26 (running 1,750-1,820 s, received at 19 x 70 = 1,330 s) and
    // messages 27-32 (received at 20 x 70 = 1,400 s to 25 x 70 = 1,750 s),
    // whose own deadlines are 23 min or more away: all eight go back.
    let r = celery_on_rabbitmq(None);
    let back: Vec<(u64, u32)> = of(&r, K::Expire).iter().map(|e| (e.0, e.1)).collect();
    let want: Vec<(u64, u32)> = std::iter::once(0)
        .chain(26..=32)
        .map(|m| (1_800_000, m))
        .collect();
    assert_eq!(back, want);
    // The worker keeps running what it already holds: message 26 ends at
    // 1,820 s, then 27-32 one after another, 70 s each, to 2,240 s, and
    // message 0 at 40 min. None of their acks can be sent on the closed
    // channel (Celery's PRECONDITION_FAILED report).
    let mut unsent = vec![(1_820_000, 26, 0, 1)];
    unsent.extend((27..=32).map(|m| (1_820_000 + u64::from(m - 26) * 70_000, m, 0, 1)));
    unsent.push((2_400_000, 0, 0, 1));
    assert_eq!(of(&r, K::AckUnsent), unsent);
}

#[test]
fn celery_acks_late_on_rabbitmq_4_2_runs_each_task_once_with_consumer_timeout_above_the_longest_task(
) {
    // 45 min against the 40-minute task: nothing is taken back, and message
    // 0's ack at 2,400 s is accepted.
    let r = celery_on_rabbitmq(Some(2_700_000));
    assert!(of(&r, K::Expire).is_empty());
    assert!(of(&r, K::AckOk)
        .iter()
        .any(|e| e.0 == 2_400_000 && e.1 == 0));
    assert_eq!(r.report.totals.redeliveries, 0);
}
