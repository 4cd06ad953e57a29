//! Extreme values: extreme but valid scenarios either are refused
//! up front, with a message naming the field to reduce, or finish (possibly
//! stopped by the work budget). No timing asserts: each finished run is
//! bounded by its event count (at most its estimate, or the cap it was
//! stopped at), and the engine's step budget bounds the work behind each
//! event, which bounds the time.

use lease_sim::scenario::{Dist, Fault, Heartbeat, OnReject, Slowdown, Surge};
use lease_sim::validate::{MAX_BACKLOG, MAX_EVENTS, MAX_FAULTS, MAX_VISIBILITY_TIMEOUT_MS};
use lease_sim::{estimate, shipped, simulate, validate, Options, Run, Scenario, SimError};

/// Events one dispatch can log past the cap before the check sees them (a
/// receive batch handed out, a crash, a resume): far below this.
const SLACK: u64 = 100_000;

fn base(name: &str) -> Scenario {
    Scenario {
        name: name.into(),
        ..Scenario::default()
    }
}

fn heartbeat(interval_ms: u64, max_extensions: Option<u32>) -> Option<Option<Heartbeat>> {
    Some(Some(Heartbeat {
        interval_ms,
        extend_by_ms: None,
        max_extensions,
        on_reject: OnReject::Continue,
    }))
}

/// The refusal of `s`, which must be a size refusal naming `field`.
fn refused(s: &Scenario, field: &str) -> String {
    match validate(s) {
        Err(e @ SimError::TooLarge { .. }) => {
            let msg = e.to_string();
            eprintln!("{}: refused: {msg}", s.name);
            assert!(msg.contains(field), "{msg} does not name {field}");
            // The page and the command line show the same sentence.
            assert_eq!(simulate(s, &Options::default()).unwrap_err(), e);
            msg
        }
        other => panic!("{}: expected a size refusal, got {other:?}", s.name),
    }
}

/// Runs `s`, which must be accepted, and checks its log against the budget.
fn finishes(s: &Scenario, options: &Options) -> Run {
    validate(s).unwrap_or_else(|e| panic!("{}: {e}", s.name));
    let est = estimate(s);
    let run = simulate(s, options).unwrap_or_else(|e| panic!("{}: {e}", s.name));
    let n = run.events.len() as u64;
    eprintln!(
        "{}: {n} events (estimate {}), stopped: {:?}",
        s.name,
        est.events,
        run.stopped()
    );
    assert_eq!(run.report.totals.events, n);
    let cap = est
        .events
        .min(MAX_EVENTS)
        .min(options.max_events.unwrap_or(u64::MAX));
    match run.stopped() {
        None => assert!(n <= est.events, "{}: {n} events > {est:?}", s.name),
        Some(why) => {
            assert!(n > cap && n <= cap + SLACK, "{}: {n} vs cap {cap}", s.name);
            assert!(why.starts_with("stopped at t = "), "{why}");
            assert!(why.contains("duration_ms"), "{why}");
            assert_eq!(run.end_ms, run.report.totals.end_ms);
            assert!(run.end_ms <= s.duration_ms);
        }
    }
    run
}

#[test]
fn one_ms_timeout_with_ten_thousand_workers_is_refused_naming_the_workers() {
    let mut s = base("1ms-timeout-10k-workers");
    s.broker.visibility_timeout_ms = Some(1);
    s.workers.count = 10_000;
    let msg = refused(&s, "workers.count");
    assert!(msg.starts_with("this run is too large"), "{msg}");
}

#[test]
fn one_ms_timeout_with_ten_thousand_workers_for_a_second_finishes() {
    let mut s = base("1ms-timeout-10k-workers-short");
    s.broker.visibility_timeout_ms = Some(1);
    s.workers.count = 10_000;
    s.duration_ms = 200;
    s.bucket_ms = 100;
    s.arrivals.backlog = 1_000;
    let run = finishes(&s, &Options::default());
    assert!(run.stopped().is_none());
    // Every message is handed out again and again: 1 ms leases never hold.
    assert!(run.report.totals.expiries > 1_000);
}

#[test]
fn a_heartbeat_every_millisecond_for_twelve_hours_is_refused_naming_the_interval() {
    let mut s = base("heartbeat-1ms-12h");
    s.duration_ms = MAX_VISIBILITY_TIMEOUT_MS;
    s.bucket_ms = 3_600_000;
    s.workers.count = 1;
    s.arrivals.rate_per_s = 0.0;
    s.arrivals.backlog = 1;
    s.work.dist = Dist::Constant {
        ms: MAX_VISIBILITY_TIMEOUT_MS,
    };
    s.workers.heartbeat = heartbeat(1, None);
    let msg = refused(&s, "workers.heartbeat.interval_ms");
    assert!(
        msg.contains("reduce workers.heartbeat.interval_ms (raise it) first"),
        "{msg}"
    );
}

#[test]
fn a_capped_heartbeat_every_millisecond_for_twelve_hours_finishes_in_few_events() {
    // Accepted (the cap bounds the extensions); otherwise every tick
    // past the cap was still scheduled: 43 million silent steps.
    let mut s = base("heartbeat-1ms-12h-capped");
    s.duration_ms = MAX_VISIBILITY_TIMEOUT_MS;
    s.bucket_ms = 3_600_000;
    s.workers.count = 1;
    s.arrivals.rate_per_s = 0.0;
    s.arrivals.backlog = 1;
    s.work.dist = Dist::Constant {
        ms: MAX_VISIBILITY_TIMEOUT_MS,
    };
    for cap in [0, 3] {
        s.workers.heartbeat = heartbeat(1, Some(cap));
        let run = finishes(&s, &Options::default());
        assert!(run.stopped().is_none());
        assert_eq!(run.report.totals.extensions_ok, u64::from(cap));
        assert!(run.events.len() < 10_000, "{}", run.events.len());
    }
}

#[test]
fn a_caller_cap_stops_a_heartbeat_every_millisecond_at_the_same_event() {
    // An hour of 1 ms heartbeats: 3.6 million extensions, accepted by the
    // engine; the page asks for at most 100,000 events.
    let mut s = base("heartbeat-1ms-1h");
    s.duration_ms = 3_600_000;
    s.workers.count = 1;
    s.arrivals.rate_per_s = 0.0;
    s.arrivals.backlog = 1;
    s.work.dist = Dist::Constant { ms: 3_600_000 };
    s.workers.heartbeat = heartbeat(1, None);
    let capped = Options {
        max_events: Some(100_000),
        ..Options::default()
    };
    let a = finishes(&s, &capped);
    let why = a.stopped().expect("stopped by the cap").to_string();
    assert!(
        why.contains("after 100,001 events") && why.contains("limit of 100,000 events"),
        "{why}"
    );
    // Deterministic: the same stop point, byte for byte.
    let b = finishes(&s, &capped);
    assert_eq!(a.events, b.events);
    assert_eq!(a.report, b.report);
    // And the stopped log is the start of the whole run's log.
    let whole = finishes(&s, &Options::default());
    assert!(whole.stopped().is_none());
    assert!(whole.events.len() > 3_000_000);
    assert!(a.events.iter().eq(whole.events.iter().take(a.events.len())));
    // The report says so; a whole run's JSON has no `stopped` at all.
    let json = serde_json::to_value(&a.report).unwrap();
    assert_eq!(json["stopped"], serde_json::Value::String(why));
    let json = serde_json::to_value(&whole.report).unwrap();
    assert!(json.get("stopped").is_none());
}

#[test]
fn a_backlog_at_the_limit_finishes_and_one_more_is_refused() {
    let mut s = base("backlog-at-limit");
    s.arrivals.rate_per_s = 0.0;
    s.arrivals.backlog = MAX_BACKLOG;
    s.workers.count = 1_000;
    s.workers.concurrency = 10;
    s.work.dist = Dist::Constant { ms: 10 };
    s.duration_ms = 60_000;
    s.bucket_ms = 1_000;
    let run = finishes(&s, &Options::default());
    assert!(run.stopped().is_none());
    assert_eq!(run.report.totals.arrived, MAX_BACKLOG);
    assert_eq!(run.report.totals.deleted, MAX_BACKLOG);

    // Backlog plus arrivals over the message limit: refused, naming them.
    s.arrivals.rate_per_s = 1_000.0;
    refused(&s, "arrivals.backlog");
    s.arrivals.rate_per_s = 0.0;
    s.arrivals.backlog = MAX_BACKLOG + 1;
    match validate(&s) {
        Err(SimError::Invalid { field, .. }) => assert_eq!(field, "arrivals.backlog"),
        other => panic!("{other:?}"),
    }
}

/// Every kind of fault, `MAX_FAULTS` of them, with every other knob turned.
fn every_fault_at_once(workers: u32) -> Scenario {
    let mut s = base("every-fault-at-once");
    s.duration_ms = 600_000;
    s.workers.count = workers;
    s.workers.concurrency = 4;
    s.workers.prefetch = Some(8);
    s.workers.error_rate = 0.2;
    s.workers.hang_rate = 0.1;
    s.workers.heartbeat = heartbeat(1_000, Some(5));
    s.broker.visibility_timeout_ms = Some(2_000);
    s.broker.max_receive_count = Some(Some(5));
    s.broker.rpc_latency_ms = Some(7);
    s.work.attempt_jitter = 1.0;
    s.downstream.capacity = Some(3);
    s.downstream.slowdowns = vec![
        Slowdown {
            from_ms: 60_000,
            to_ms: 120_000,
            factor: 1_000_000.0,
        },
        Slowdown {
            from_ms: 100_000,
            to_ms: 400_000,
            factor: 3.0,
        },
    ];
    s.arrivals.backlog = 500;
    s.arrivals.rate_per_s = 20.0;
    s.arrivals.surges = vec![Surge {
        from_ms: 200_000,
        to_ms: 260_000,
        rate_per_s: 200.0,
    }];
    s.faults = (0..MAX_FAULTS as u64)
        .map(|i| {
            let worker = (i % u64::from(workers)) as u32;
            let at_ms = i * 577 % 600_000;
            match i % 3 {
                0 => Fault::Crash {
                    worker,
                    at_ms,
                    restart_after_ms: Some(1 + i % 5_000),
                },
                1 => Fault::Pause {
                    worker,
                    at_ms,
                    duration_ms: 1 + i % 9_000,
                },
                _ => Fault::RollingDeploy {
                    at_ms,
                    downtime_ms: 1 + i % 700,
                    gap_ms: i % 300,
                },
            }
        })
        .collect();
    s
}

#[test]
fn every_fault_at_once_finishes_or_is_refused_naming_what_to_reduce() {
    let small = every_fault_at_once(4);
    let run = finishes(&small, &Options::default());
    assert!(run.report.totals.arrived > 500);
    assert!(!run.worker_marks.is_empty());
    // The same with a page-sized cap: stopped or whole, always bounded.
    finishes(
        &small,
        &Options {
            max_events: Some(50_000),
            ..Options::default()
        },
    );
    // With many workers every fault multiplies the slots a crash strands.
    let big = every_fault_at_once(5_000);
    let msg = refused(&big, "duration_ms");
    assert!(msg.contains("workers.count"), "{msg}");
}

#[test]
fn no_shipped_scenario_is_stopped_or_passes_its_estimate() {
    for sh in shipped::all() {
        let run = finishes(&sh.scenario, &Options::default());
        assert!(run.stopped().is_none(), "{}", sh.name);
    }
}
