//! The large scenarios the benchmarks and the scale demos run: one place, so
//! that the criterion bench, the `throughput` example and the closing notes
//! all measure the same thing.

use crate::scenario::*;

/// 100,000 messages through 32 workers: log-normal work (median 2 s, p99
/// 20 s), the timeout near the p99, a capped heartbeat, and a downstream that
/// serves 24 handlers at full speed (so processor sharing is exercised).
pub fn hundred_thousand() -> Scenario {
    Scenario {
        name: "bench-100k".into(),
        seed: 1,
        duration_ms: 86_400_000,
        bucket_ms: 60_000,
        broker: Broker {
            visibility_timeout_ms: Some(20_000),
            max_receive_count: Some(Some(5)),
            ..Broker::default()
        },
        workers: Workers {
            count: 32,
            concurrency: 1,
            heartbeat: Some(Some(Heartbeat {
                interval_ms: 5_000,
                extend_by_ms: None,
                max_extensions: Some(10),
                on_reject: OnReject::Continue,
            })),
            ..Workers::default()
        },
        work: Work {
            dist: Dist::Lognormal {
                median_ms: 2_000.0,
                p99_ms: 20_000.0,
            },
            attempt_jitter: 0.2,
            cpu_bound: false,
        },
        downstream: Downstream {
            capacity: Some(24),
            slowdowns: vec![],
        },
        arrivals: Arrivals {
            backlog: 100_000,
            rate_per_s: 0.0,
            process: Process::Poisson,
            surges: vec![],
            eta_ms: 0,
        },
        ..Scenario::default()
    }
}

/// A million messages (the engine's limit) drained by 1,000 workers with the
/// same work, no heartbeat and one delivery each: the largest run accepted.
pub fn one_million() -> Scenario {
    let mut s = hundred_thousand();
    s.name = "bench-1m".into();
    s.arrivals.backlog = 1_000_000;
    s.workers.count = 1_000;
    s.workers.heartbeat = Some(None);
    s.downstream.capacity = None;
    s.broker.max_receive_count = Some(Some(1));
    s
}

/// The shipped `sub-second-work` with `backlog` messages waiting at the start
/// and none after, drained by `workers` workers of `concurrency` handlers over
/// 15 minutes: the page's large-run tests and its bench links
/// (`scenario=sub-second-work&backlog=…&rate=0&workers=…&conc=…&duration=15min`).
pub fn sub_second_backlog(backlog: u64, workers: u32, concurrency: u32) -> Scenario {
    let mut s = crate::shipped::find("sub-second-work")
        .expect("sub-second-work is shipped")
        .scenario;
    s.arrivals.backlog = backlog;
    s.arrivals.rate_per_s = 0.0;
    s.workers.count = workers;
    s.workers.concurrency = concurrency;
    s.duration_ms = 15 * 60_000;
    s
}
