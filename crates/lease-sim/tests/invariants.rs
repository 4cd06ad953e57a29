//! docs/MODEL.md "Invariants", checked after every event over random valid
//! scenarios (the engine's checking mode), plus the report's own sums and
//! determinism of the log.

use lease_sim::run::{Fate, LeaseEnd};
use lease_sim::scenario::*;
use lease_sim::{simulate, Options};
use proptest::prelude::*;

mod summary_check;

fn dist() -> impl Strategy<Value = Dist> {
    let leaf = prop_oneof![
        (1u64..20_000).prop_map(|ms| Dist::Constant { ms }),
        (1u64..5_000, 0u64..10_000).prop_map(|(a, b)| Dist::Uniform {
            min_ms: a,
            max_ms: a + b
        }),
        (1.0f64..8_000.0).prop_map(|mean_ms| Dist::Exponential { mean_ms }),
        (10.0f64..5_000.0, 1.0f64..10.0).prop_map(|(m, k)| Dist::Lognormal {
            median_ms: m,
            p99_ms: m * k
        }),
        (10.0f64..5_000.0, 1.1f64..10.0, 1.1f64..4.0).prop_map(|(m, k, t)| Dist::Quantiles {
            points: vec![[0.5, m], [0.9, m * k], [0.99, m * k * t]]
        }),
        prop::collection::vec(0.0f64..20_000.0, 1..50)
            .prop_map(|samples_ms| Dist::Empirical { samples_ms }),
        prop::collection::vec((1.0f64..5_000.0, 0u32..20), 1..8).prop_map(|w| {
            let mut up = 0.0;
            let mut buckets: Vec<[f64; 2]> = w
                .into_iter()
                .map(|(width, c)| {
                    up += width;
                    [up, f64::from(c)]
                })
                .collect();
            buckets[0][1] += 1.0;
            Dist::Histogram { buckets }
        }),
    ];
    prop_oneof![
        4 => leaf.clone(),
        1 => (0.0f64..0.5, leaf.clone(), leaf).prop_map(|(f, a, b)| Dist::Mix {
            slow_fraction: f,
            fast: Box::new(a),
            slow: Box::new(b)
        }),
    ]
}

fn heartbeat() -> impl Strategy<Value = Option<Option<Heartbeat>>> {
    prop_oneof![
        Just(None),
        Just(Some(None)),
        (
            50u64..6_000,
            proptest::option::of(50u64..20_000),
            proptest::option::of(0u32..12),
            any::<bool>()
        )
            .prop_map(|(i, e, m, abort)| Some(Some(Heartbeat {
                interval_ms: i,
                extend_by_ms: e,
                max_extensions: m,
                on_reject: if abort {
                    OnReject::Abort
                } else {
                    OnReject::Continue
                },
            }))),
    ]
}

/// A client library with or without its parameter, and the heartbeat
/// beside it: none while a library manages the lease.
fn client_and_heartbeat() -> impl Strategy<Value = (Option<Client>, Option<Option<Heartbeat>>)> {
    let library = proptest::sample::select(Library::ALL.to_vec());
    let client = (library, proptest::option::of(0u64..40_000)).prop_map(|(library, p)| Client {
        library,
        max_lease_ms: p.filter(|_| library == Library::Pubsub).map(|v| v.max(1)),
        max_auto_lock_renewal_ms: p.filter(|_| library == Library::ServiceBus),
        function_timeout_ms: p
            .filter(|_| library == Library::SqsLambda)
            .map(|v| v.max(1)),
    });
    prop_oneof![
        2 => heartbeat().prop_map(|h| (None, h)),
        3 => (client, heartbeat()).prop_map(|(c, h)| {
            let h = if c.library == Library::None { h } else { h.filter(|h| h.is_none()) };
            (Some(c), h)
        }),
    ]
}

fn fault(workers: u32) -> impl Strategy<Value = Fault> {
    prop_oneof![
        (0..workers, 0u64..60_000, proptest::option::of(0u64..30_000)).prop_map(
            |(worker, at_ms, restart_after_ms)| Fault::Crash {
                worker,
                at_ms,
                restart_after_ms
            }
        ),
        (0u64..60_000, 0u64..10_000, 0u64..5_000).prop_map(|(at_ms, downtime_ms, gap_ms)| {
            Fault::RollingDeploy {
                at_ms,
                downtime_ms,
                gap_ms,
            }
        }),
        (0..workers, 0u64..60_000, 1u64..30_000).prop_map(|(worker, at_ms, duration_ms)| {
            Fault::Pause {
                worker,
                at_ms,
                duration_ms,
            }
        }),
    ]
}

prop_compose! {
    fn broker()(
        timeout in 100u64..30_000,
        preset in proptest::sample::select(Preset::ALL.to_vec()),
        mrc in proptest::option::of(proptest::option::of(1u32..6)),
        lifetime in proptest::option::of(proptest::option::of(1_000u64..120_000)),
        batch in 1u32..4,
        rpc in prop_oneof![Just(0u64), 1u64..300],
        switches in (any::<Option<bool>>(), any::<Option<bool>>(), any::<Option<bool>>(), any::<Option<bool>>()),
        late_ack in proptest::option::of(proptest::sample::select(LateAck::ALL.to_vec())),
        deleted_ack in proptest::option::of(proptest::sample::select(DeletedAck::ALL.to_vec())),
        rules in broker_rules(),
        frame in (proptest::option::of(1u32..3), proptest::option::of(proptest::option::of(0u32..4))),
        retry in retry_rules(),
        receive_order in proptest::option::of(proptest::sample::select(ReceiveOrder::ALL.to_vec())),
        past_limit in proptest::option::of(proptest::sample::select(PastLimit::ALL.to_vec())),
        // XAUTOCLAIM's COUNT: small enough that a sweep leaves some behind.
        claim_count in proptest::option::of(1u32..4),
    ) -> Broker {
        Broker {
            visibility_timeout_ms: Some(timeout),
            max_receive_count: mrc,
            max_lease_lifetime_ms: lifetime,
            receive_batch: Some(batch),
            rpc_latency_ms: Some(rpc),
            preset,
            dlq_timing: switches.0.map(|b| if b { DlqTiming::OnExpiry } else { DlqTiming::OnNextReceive }),
            // Every late-ack rule, or the first two by the older switch.
            late_ack: late_ack.or(switches.1.map(|b| if b { LateAck::Rejected } else { LateAck::AcceptedIfNotRedelivered })),
            count_at: switches.2.map(|b| if b { CountAt::Receive } else { CountAt::ExpiryOrAbandon }),
            stale_delete: switches.3.map(|b| if b { StaleDelete::Strict } else { StaleDelete::Permissive }),
            deleted_ack,
            expiry_takes: rules.0,
            expiry_check_ms: rules.1,
            expiry_counts: rules.2,
            // One to five leases, cut to the delivery limit in `scenario()`.
            lease_steps_ms: rules.3,
            expiry_check_passes: frame.0,
            claim_count,
            max_expiries: frame.1,
            retry_min_ms: retry.0,
            retry_max_ms: retry.1,
            retry_doublings: retry.2,
            retry_on: retry.3,
            receive_order,
            past_limit,
        }
    }
}

/// A delay before redelivery, each part drawn or left to the preset; the
/// maximum drawn at least the minimum, as validation asks; and which ended
/// leases wait it out.
#[allow(clippy::type_complexity)]
fn retry_rules() -> impl Strategy<
    Value = (
        Option<Option<u64>>,
        Option<u64>,
        Option<Option<u32>>,
        Option<RetryOn>,
    ),
> {
    (
        proptest::option::of(proptest::option::of(1u64..5_000)),
        proptest::option::of(5_000u64..60_000),
        proptest::option::of(proptest::option::of(0u32..20)),
        proptest::option::of(proptest::sample::select(RetryOn::ALL.to_vec())),
    )
}

/// The brokers' rules, each drawn or left to the preset.
#[allow(clippy::type_complexity)]
fn broker_rules() -> impl Strategy<
    Value = (
        Option<ExpiryTakes>,
        Option<Option<u64>>,
        Option<bool>,
        Option<Vec<u64>>,
    ),
> {
    (
        proptest::option::of(proptest::sample::select(ExpiryTakes::ALL.to_vec())),
        proptest::option::of(proptest::option::of(100u64..20_000)),
        any::<Option<bool>>(),
        proptest::option::of(proptest::collection::vec(100u64..30_000, 1..6)),
    )
}

prop_compose! {
    fn scenario()(workers in 1u32..5)(
        count in Just(workers),
        concurrency in 1u32..4,
        extra_prefetch in 0u32..4,
        client_hb in client_and_heartbeat(),
        error_rate in prop_oneof![Just(0.0), 0.0f64..0.4],
        hang_rate in prop_oneof![Just(0.0), 0.0f64..0.1],
        expire_on_error in any::<bool>(),
        broker in broker(),
        dist in dist(),
        jitter in prop_oneof![Just(0.0), 0.0f64..1.0],
        capacity in proptest::option::of(1u32..6),
        slowdowns in proptest::collection::vec((0u64..60_000, 1u64..60_000, 0.2f64..6.0), 0..3),
        backlog in 0u64..60,
        rate in prop_oneof![Just(0.0), 0.01f64..3.0],
        poisson in any::<bool>(),
        surges in proptest::collection::vec((0u64..60_000, 1u64..30_000, 0.0f64..3.0), 0..2),
        fence in proptest::sample::select(Fence::ALL.to_vec()),
        faults in proptest::collection::vec(fault(workers), 0..3),
        duration in 1_000u64..240_000,
        seed in any::<u64>(),
        workers_frame in (
            proptest::option::of(proptest::sample::select(Renewal::ALL.to_vec())),
            proptest::option::of(proptest::sample::select(AckAt::ALL.to_vec())),
            any::<bool>(),
            prop_oneof![Just(0u64), 1u64..60_000],
        ),
    ) -> Scenario {
        let mut s = Scenario {
            name: "prop".into(),
            seed,
            duration_ms: duration,
            bucket_ms: 10_000,
            broker,
            workers: Workers {
                count,
                concurrency,
                prefetch: Some(concurrency + extra_prefetch),
                heartbeat: client_hb.1,
                client: client_hb.0,
                error_rate,
                hang_rate,
                on_error: if expire_on_error { OnError::Expire } else { OnError::Release },
                renewal: workers_frame.0,
                ack_at: workers_frame.1,
            },
            work: Work {
                dist,
                attempt_jitter: jitter,
                cpu_bound: workers_frame.2,
            },
            downstream: Downstream {
                capacity,
                slowdowns: slowdowns.into_iter().map(|(f, w, x)| Slowdown { from_ms: f, to_ms: f + w, factor: x }).collect(),
            },
            arrivals: Arrivals {
                backlog,
                rate_per_s: rate,
                process: if poisson { Process::Poisson } else { Process::Fixed },
                surges: surges.into_iter().map(|(f, w, r)| Surge { from_ms: f, to_ms: f + w, rate_per_s: r }).collect(),
                eta_ms: workers_frame.3,
            },
            store: Store { fence },
            faults,
            ..Scenario::default()
        };
        // JetStream requires MaxDeliver >= len(BackOff): a drawn list keeps
        // no more leases than the resolved limit allows deliveries.
        let limit = lease_sim::resolve::resolve(&s).max_receive_count;
        if let (Some(steps), Some(n)) = (s.broker.lease_steps_ms.as_mut(), limit) {
            steps.truncate((n as usize).max(1));
        }
        s
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 1000, ..ProptestConfig::default() })]

    /// Conservation, one valid lease at a time, receive_count = deliveries,
    /// deletions only by accepted acks with the current receipt, at most one
    /// effect under unique_constraint: after every event.
    #[test]
    fn invariants_hold_after_every_event(s in scenario()) {
        prop_assume!(lease_sim::validate(&s).is_ok());
        let run = simulate(&s, &Options { check_invariants: true, ..Options::default() });
        let run = match run {
            Ok(r) => r,
            Err(e) => return Err(TestCaseError::fail(format!("{e}"))),
        };
        // A deadline passed lies inside its lease, at or before the check
        // that took it back (an expired lease, or one a late ack accepted
        // since).
        for d in &run.deliveries {
            if let Some(dl) = d.deadline {
                prop_assert!(
                    matches!(d.lease_end, LeaseEnd::Expired | LeaseEnd::AckedLate)
                        && d.received_at <= dl
                        && dl <= d.lease_ended_at,
                    "{:?}",
                    d
                );
            }
        }
        let t = &run.report.totals;
        prop_assert_eq!(
            t.arrived,
            t.deleted + t.dead_lettered_expired + t.dead_lettered_failed + t.dropped + t.stayed
                + t.still_available + t.still_in_flight
        );
        // Past the limit a message meets the one fate `past_limit` gives,
        // counted under its own total, and is delivered no more.
        let past = lease_sim::resolve::resolve(&s).past_limit;
        for m in &run.messages {
            let at = match (m.fate, past) {
                (Fate::DeadLettered { at, .. }, PastLimit::DeadLetter)
                | (Fate::Dropped { at, .. }, PastLimit::Drop)
                | (Fate::Stayed { at, .. }, PastLimit::Stay) => at,
                (Fate::DeadLettered { .. } | Fate::Dropped { .. } | Fate::Stayed { .. }, _) => {
                    return Err(TestCaseError::fail(format!("{:?} under {past:?}", m.fate)));
                }
                _ => continue,
            };
            let last = m.deliveries.last().map(|&d| run.deliveries[d as usize].received_at);
            prop_assert!(last.is_none_or(|r| r <= at), "delivered after its fate at {}", at);
        }
        let (dead, dropped, stayed) = (t.dead_lettered_expired + t.dead_lettered_failed, t.dropped, t.stayed);
        match past {
            PastLimit::DeadLetter => prop_assert_eq!(dropped + stayed, 0),
            PastLimit::Drop => prop_assert_eq!(dead + stayed, 0),
            PastLimit::Stay => prop_assert_eq!(dead + dropped, 0),
        }
        prop_assert_eq!(run.report.receive_counts.values().sum::<u64>(), t.arrived);
        let by_count: u64 = run.report.receive_counts.iter().map(|(k, v)| k.parse::<u64>().unwrap() * v).sum();
        prop_assert_eq!(by_count, t.deliveries);
        prop_assert_eq!(t.deliveries, run.deliveries.len() as u64);
        prop_assert_eq!(t.deleted, t.acks_ok);
        prop_assert!(run.events.ts().windows(2).all(|w| w[0] <= w[1]), "log out of time order");
        prop_assert!(run.marks.windows(2).all(|w| w[0].t <= w[1].t));
        if s.store.fence == Fence::UniqueConstraint {
            prop_assert!(run.messages.iter().all(|m| m.effects <= 1));
            prop_assert_eq!(t.duplicate_effects, 0);
        }
        let n = run.report.series.arrivals.len();
        prop_assert_eq!(n as u64, run.end_ms.div_ceil(10_000));
        prop_assert_eq!(run.report.series.queue_depth.len(), n);
        prop_assert_eq!(run.report.series.arrivals.iter().sum::<u64>(), t.arrived);
        for d in &run.deliveries {
            prop_assert!(d.received_at <= d.lease_ended_at);
            if let Some(st) = d.started_at { prop_assert!(d.received_at <= st); }
            prop_assert!(d.work_done_ms <= d.work_needed_ms);
        }
    }

    /// A scenario written as a file reads back as the same scenario: every
    /// distribution (mixes nested in mixes) and every fault, whatever order
    /// the tag comes in (`tagged.rs` reads them field by field).
    #[test]
    fn every_scenario_reads_back_from_its_own_file(s in scenario()) {
        let text = serde_json::to_string_pretty(&s).unwrap();
        prop_assert_eq!(lease_sim::parse::parse_unchecked(&text), Ok(s.clone()));
        // The same object with its keys in reverse order.
        let value: serde_json::Value = serde_json::from_str(&text).unwrap();
        let reversed = reverse_keys(&value);
        prop_assert_eq!(lease_sim::parse::parse_unchecked(&reversed), Ok(s.clone()));
        // The page's reader (no field paths) reads the same scenario, and
        // refuses what the full reader refuses.
        prop_assert_eq!(
            lease_sim::parse::parse_scenario_without_path(&text).ok(),
            lease_sim::parse::parse_scenario(&text).ok()
        );
    }

    /// Same scenario and seed: the same log, byte for byte.
    #[test]
    fn same_scenario_and_seed_give_the_same_log(s in scenario()) {
        prop_assume!(lease_sim::validate(&s).is_ok());
        let a = simulate(&s, &Options::default()).unwrap();
        let b = simulate(&s, &Options::default()).unwrap();
        prop_assert_eq!(&a.events, &b.events);
        prop_assert_eq!(a.log_hash(), b.log_hash());
        prop_assert_eq!(&a.report, &b.report);
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 300, ..ProptestConfig::default() })]

    /// The counters-only run (docs/MODEL.md "The counters-only run")
    /// reports what the full run does: every total, the series, the ack
    /// latencies and the receive counts.
    #[test]
    fn the_counters_only_run_reports_what_the_full_run_does(s in scenario()) {
        prop_assume!(lease_sim::validate(&s).is_ok());
        let full = simulate(&s, &Options::default()).unwrap();
        let counted = lease_sim::run_totals(&s).unwrap();
        prop_assert_eq!(&counted, &full.report);
    }

    /// Summarising keeps every index valid and keeps exactly the prefix of
    /// the run before its cut; within the limits it changes nothing; the
    /// result survives the wire format.
    #[test]
    fn summarising_keeps_a_consistent_prefix(
        s in scenario(),
        deliveries in prop_oneof![0usize..40, Just(usize::MAX)],
        events in prop_oneof![0usize..400, Just(usize::MAX)],
    ) {
        prop_assume!(lease_sim::validate(&s).is_ok());
        let run = simulate(&s, &Options::default()).unwrap();
        summary_check::round_trip(&run).map_err(TestCaseError::fail)?;
        let limits = lease_sim::SummaryLimits { deliveries, events };
        summary_check::check(&run, limits).map_err(TestCaseError::fail)?;
        // Limits of exactly the run's sizes are a no-op.
        let exact = lease_sim::SummaryLimits { deliveries: run.deliveries.len(), events: run.events.len() };
        let same = summary_check::check(&run, exact).map_err(TestCaseError::fail)?;
        prop_assert!(same.summarised.is_none());
    }
}

/// The JSON text with every object's keys in reverse order, so that each
/// tag (`dist`, `kind`) comes after the fields it selects. Written by hand:
/// `serde_json::Map` may keep its keys sorted.
fn reverse_keys(v: &serde_json::Value) -> String {
    use serde_json::Value;
    match v {
        Value::Object(m) => {
            let pairs: Vec<String> = m
                .iter()
                .rev()
                .map(|(k, v)| format!("{}:{}", Value::from(k.as_str()), reverse_keys(v)))
                .collect();
            format!("{{{}}}", pairs.join(","))
        }
        Value::Array(a) => format!(
            "[{}]",
            a.iter().map(reverse_keys).collect::<Vec<_>>().join(",")
        ),
        other => other.to_string(),
    }
}
