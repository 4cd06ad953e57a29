//! Numeric safety: no overflow, NaN or infinity reaches the report
//! from any accepted input. The test profile keeps `overflow-checks` on (it
//! only raises `opt-level`), so an integer overflow anywhere in the engine
//! panics here instead of wrapping.

use lease_sim::scenario::*;
use lease_sim::validate::*;
use lease_sim::{estimate, simulate, validate, Options, Report, Run, Scenario};
use proptest::prelude::*;

/// Every float of the report is finite, every series has one value per
/// bucket, and the JSON holds no null but the "no ack" latencies.
fn assert_sound(s: &Scenario, run: &Run) {
    let r: &Report = &run.report;
    let ratio = r.ack_latency_ms.p99_over_timeout;
    assert!(ratio.is_none_or(f64::is_finite), "{}: {ratio:?}", s.name);
    assert_eq!(ratio.is_some(), r.ack_latency_ms.p99.is_some());
    let share = r.ack_latency_ms.p99_of_lease;
    assert!(
        share.is_none_or(|x| x.is_finite() && x >= 0.0),
        "{}: {share:?}",
        s.name
    );
    assert_eq!(share.is_some(), r.ack_latency_ms.p99.is_some());
    let se = &r.series;
    let n = run.end_ms.div_ceil(s.bucket_ms) as usize;
    for (name, v) in [
        ("completions_per_min", &se.completions_per_min),
        ("useful_completions_per_min", &se.useful_completions_per_min),
        (
            "duplicate_completions_per_min",
            &se.duplicate_completions_per_min,
        ),
    ] {
        assert_eq!(v.len(), n, "{}: {name}", s.name);
        for x in v {
            assert!(x.is_finite() && *x >= 0.0, "{}: {name} {x}", s.name);
        }
    }
    for v in [
        &se.arrivals,
        &se.acks,
        &se.queue_depth,
        &se.in_flight,
        &se.oldest_in_flight_age_ms,
    ] {
        assert_eq!(v.len(), n, "{}", s.name);
    }
    let t = &r.totals;
    assert!(t.end_ms <= s.duration_ms && t.end_ms == run.end_ms);
    assert_eq!(t.events, run.events.len() as u64);
    assert!(t.deleted + t.dead_lettered_expired + t.dead_lettered_failed <= t.arrived);
    for d in &run.deliveries {
        assert!(d.work_done_ms <= d.work_needed_ms, "{}: {d:?}", s.name);
        assert!(d.lease_ended_at <= run.end_ms, "{}: {d:?}", s.name);
    }
    let json = serde_json::to_value(r).expect("a report serializes");
    no_stray_null(&json, "report");
}

fn no_stray_null(v: &serde_json::Value, path: &str) {
    use serde_json::Value;
    match v {
        Value::Null => assert!(path.starts_with("report.ack_latency_ms."), "null at {path}"),
        Value::Number(x) => assert!(x.as_f64().is_some_and(f64::is_finite), "{path}: {x}"),
        Value::Array(a) => a
            .iter()
            .enumerate()
            .for_each(|(i, x)| no_stray_null(x, &format!("{path}[{i}]"))),
        Value::Object(o) => o
            .iter()
            .for_each(|(k, x)| no_stray_null(x, &format!("{path}.{k}"))),
        _ => {}
    }
}

fn run_ok(s: &Scenario) -> Run {
    validate(s).unwrap_or_else(|e| panic!("{}: should be accepted: {e}", s.name));
    let run = simulate(s, &Options::default()).unwrap();
    assert_sound(s, &run);
    assert!(run.events.len() as u64 <= estimate(s).events || run.stopped().is_some());
    eprintln!(
        "{}: {} events, end {} ms, stopped: {:?}",
        s.name,
        run.events.len(),
        run.end_ms,
        run.stopped()
    );
    run
}

fn base(name: &str) -> Scenario {
    Scenario {
        name: name.into(),
        duration_ms: 120_000,
        bucket_ms: 10_000,
        ..Scenario::default()
    }
}

#[test]
fn durations_and_times_at_their_edges() {
    // The longest run, the finest buckets it allows.
    let mut s = base("longest");
    s.duration_ms = MAX_DURATION_MS;
    s.bucket_ms = MAX_DURATION_MS / MAX_BUCKETS;
    s.arrivals.rate_per_s = 0.001;
    run_ok(&s);
    // One millisecond, one bucket.
    let mut s = base("shortest");
    s.duration_ms = 1;
    s.bucket_ms = 1;
    s.arrivals.backlog = 3;
    run_ok(&s);
    // A bucket far longer than the run.
    let mut s = base("one-huge-bucket");
    s.bucket_ms = u64::MAX;
    run_ok(&s);
    // Times nobody validates, at u64::MAX: a surge, a slowdown and faults
    // that never come, and the largest seed.
    let mut s = base("u64-max-times");
    s.seed = u64::MAX;
    s.arrivals.surges = vec![Surge {
        from_ms: u64::MAX - 1,
        to_ms: u64::MAX,
        rate_per_s: MAX_RATE_PER_S,
    }];
    s.downstream.slowdowns = vec![Slowdown {
        from_ms: 60_000,
        to_ms: u64::MAX,
        factor: 2.0,
    }];
    s.faults = vec![
        Fault::Crash {
            worker: 0,
            at_ms: u64::MAX,
            restart_after_ms: Some(MAX_DURATION_MS),
        },
        Fault::Pause {
            worker: 1,
            at_ms: 100_000,
            duration_ms: MAX_DURATION_MS,
        },
        Fault::RollingDeploy {
            at_ms: u64::MAX - 5,
            downtime_ms: MAX_DURATION_MS,
            gap_ms: MAX_DURATION_MS,
        },
        Fault::Crash {
            worker: 2,
            at_ms: 0,
            restart_after_ms: Some(MAX_DURATION_MS),
        },
    ];
    run_ok(&s);
}

#[test]
fn rates_near_zero_and_at_the_limit() {
    for rate in [1e-9, f64::MIN_POSITIVE, 5e-324, 0.0, MAX_RATE_PER_S] {
        for process in [Process::Poisson, Process::Fixed] {
            let mut s = base("rate");
            s.duration_ms = MAX_DURATION_MS;
            s.bucket_ms = MAX_DURATION_MS / MAX_BUCKETS;
            s.arrivals.rate_per_s = rate;
            s.arrivals.process = process;
            if rate == MAX_RATE_PER_S {
                s.duration_ms = 60_000;
                s.bucket_ms = 1_000;
                s.workers.count = 100;
                s.work.dist = Dist::Constant { ms: 50 };
            }
            let run = run_ok(&s);
            // A rate near zero brings (almost) no arrivals: not one per ms.
            assert!(run.stopped().is_none(), "{rate} {process:?}");
            if rate < 1e-6 {
                assert!(run.report.totals.arrived <= 1, "{rate} {process:?}");
            }
        }
    }
}

#[test]
fn work_distributions_at_their_edges() {
    let dists = [
        // p99 equal to the median: sigma 0, every draw the median.
        Dist::Lognormal {
            median_ms: 2_000.0,
            p99_ms: 2_000.0,
        },
        // The widest lognormal: the smallest median, the largest p99.
        Dist::Lognormal {
            median_ms: 5e-324,
            p99_ms: MAX_WORK_MS as f64,
        },
        Dist::Lognormal {
            median_ms: MAX_WORK_MS as f64,
            p99_ms: MAX_WORK_MS as f64,
        },
        Dist::Exponential { mean_ms: 5e-324 },
        Dist::Exponential {
            mean_ms: MAX_WORK_MS as f64,
        },
        Dist::Constant { ms: 1 },
        Dist::Constant { ms: MAX_WORK_MS },
        Dist::Uniform {
            min_ms: 0,
            max_ms: MAX_WORK_MS,
        },
        Dist::Mix {
            slow_fraction: 1.0,
            fast: Box::new(Dist::Constant { ms: 1 }),
            slow: Box::new(Dist::Exponential { mean_ms: 1e-300 }),
        },
    ];
    for dist in dists {
        for jitter in [0.0, MAX_ATTEMPT_JITTER] {
            let mut s = base("dist");
            s.work.dist = dist.clone();
            s.work.attempt_jitter = jitter;
            s.arrivals.backlog = 50;
            s.broker.visibility_timeout_ms = Some(1_000);
            s.workers.error_rate = 0.3;
            run_ok(&s);
        }
    }
}

#[test]
fn slowdowns_capacity_and_timeouts_at_their_edges() {
    for factor in [MAX_SLOWDOWN_FACTOR, 5e-324, 1e-300, 1e-9, 1.0] {
        for capacity in [Some(1), Some(MAX_DOWNSTREAM_CAPACITY), None] {
            let mut s = base("slowdown");
            s.arrivals.backlog = 20;
            s.arrivals.rate_per_s = 5.0;
            s.downstream.capacity = capacity;
            // Overlapping slowdowns multiply: a million to the tenth is
            // beyond f64, and a tiny factor squared is zero.
            s.downstream.slowdowns = (0..10)
                .map(|i| Slowdown {
                    from_ms: i * 1_000,
                    to_ms: 100_000,
                    factor,
                })
                .collect();
            run_ok(&s);
        }
    }
    for timeout in [1, MAX_VISIBILITY_TIMEOUT_MS] {
        let mut s = base("timeout");
        s.duration_ms = 10_000;
        s.bucket_ms = 1_000;
        s.broker.visibility_timeout_ms = Some(timeout);
        s.broker.max_lease_lifetime_ms = Some(Some(MAX_LEASE_LIFETIME_MS));
        s.broker.rpc_latency_ms = Some(MAX_RPC_LATENCY_MS);
        s.workers.heartbeat = Some(Some(Heartbeat {
            interval_ms: 1,
            extend_by_ms: Some(MAX_VISIBILITY_TIMEOUT_MS),
            max_extensions: Some(u32::MAX),
            on_reject: OnReject::Abort,
        }));
        s.arrivals.backlog = 10;
        run_ok(&s);
    }
}

#[test]
fn counts_at_their_limits() {
    let mut s = base("counts");
    s.duration_ms = 10_000;
    s.bucket_ms = 1_000;
    // Ten workers: with a 65,535 prefetch each, more would be refused.
    s.workers.count = 10;
    s.workers.concurrency = MAX_CONCURRENCY;
    s.workers.prefetch = Some(MAX_PREFETCH);
    s.broker.receive_batch = Some(MAX_RECEIVE_BATCH);
    s.broker.max_receive_count = Some(Some(MAX_RECEIVE_COUNT));
    s.arrivals.backlog = 1_000;
    s.work.dist = Dist::Constant { ms: 1 };
    s.workers.error_rate = 0.5;
    s.workers.hang_rate = 0.5;
    run_ok(&s);
    s.broker.max_receive_count = Some(Some(1));
    s.workers.hang_rate = 0.0;
    s.workers.error_rate = 1.0;
    run_ok(&s);
}

/// Valid scenarios near the edges of every range.
fn edge_scenario() -> impl Strategy<Value = Scenario> {
    let ms = |hi: u64| prop_oneof![Just(1u64), Just(hi), 1..=hi];
    let tiny = prop_oneof![Just(5e-324f64), Just(1e-9), Just(1.0), Just(1e6)];
    (
        (ms(MAX_VISIBILITY_TIMEOUT_MS), ms(MAX_WORK_MS), any::<u64>()),
        (
            1u32..=8,
            1u32..=4,
            prop_oneof![Just(0.0f64), Just(1e-9), Just(1.0), Just(1_000.0)],
        ),
        (
            tiny.clone(),
            tiny,
            prop_oneof![Just(0.0), Just(MAX_ATTEMPT_JITTER)],
        ),
        (
            0.0f64..=1.0,
            proptest::option::of(1u64..=60_000),
            0u64..=200,
        ),
        (
            proptest::option::of(1u32..=3),
            prop_oneof![Just(0u64), Just(MAX_RPC_LATENCY_MS), 0..=100u64],
        ),
    )
        .prop_map(
            |(
                (timeout, work, seed),
                (count, conc, rate),
                (med, factor, jitter),
                (err, hb, backlog),
                (cap, rpc),
            )| {
                let mut s = base("edge");
                s.seed = seed;
                s.duration_ms = 300_000;
                s.bucket_ms = 30_000;
                s.broker.visibility_timeout_ms = Some(timeout);
                s.broker.rpc_latency_ms = Some(rpc);
                s.workers.count = count;
                s.workers.concurrency = conc;
                s.workers.error_rate = err * 0.5;
                s.workers.hang_rate = err * 0.5;
                s.workers.heartbeat = Some(hb.map(|interval_ms| Heartbeat {
                    interval_ms,
                    extend_by_ms: None,
                    max_extensions: Some(20),
                    on_reject: OnReject::Continue,
                }));
                s.arrivals.rate_per_s = rate;
                s.arrivals.backlog = backlog;
                s.work.attempt_jitter = jitter;
                s.work.dist = Dist::Mix {
                    slow_fraction: 0.5,
                    fast: Box::new(Dist::Lognormal {
                        median_ms: med,
                        p99_ms: (work as f64).max(med),
                    }),
                    slow: Box::new(Dist::Constant { ms: work }),
                };
                s.downstream.capacity = cap;
                s.downstream.slowdowns = vec![
                    Slowdown {
                        from_ms: 0,
                        to_ms: 200_000,
                        factor,
                    },
                    Slowdown {
                        from_ms: 100_000,
                        to_ms: u64::MAX,
                        factor,
                    },
                ];
                s
            },
        )
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 64, ..ProptestConfig::default() })]

    #[test]
    fn reports_near_the_edges_stay_finite(s in edge_scenario()) {
        if validate(&s).is_ok() {
            let run = simulate(&s, &Options { max_events: Some(500_000), ..Options::default() }).unwrap();
            assert_sound(&s, &run);
        }
    }
}
