//! Queueing theory as an outside check. Poisson arrivals, exponential work
//! and a timeout far above any work make an M/M/c queue, whose mean wait in
//! queue is given by the Erlang C formula.

use lease_sim::run::Run;
use lease_sim::scenario::*;
use lease_sim::{simulate, Options};

/// Erlang C: probability that an arrival waits, for c servers and offered load a.
fn erlang_c(c: u32, a: f64) -> f64 {
    let mut term = 1.0; // a^k / k!
    let mut sum = 0.0;
    for k in 0..c {
        if k > 0 {
            term *= a / f64::from(k);
        }
        sum += term;
    }
    let top = term * a / f64::from(c) * f64::from(c) / (f64::from(c) - a);
    top / (sum + top)
}

fn mmc(c: u32, rate_per_s: f64, mean_ms: f64, seed: u64) -> Run {
    let s = Scenario {
        name: "mmc".into(),
        seed,
        duration_ms: 86_400_000,
        bucket_ms: 3_600_000,
        broker: Broker {
            visibility_timeout_ms: Some(43_200_000),
            max_receive_count: Some(None),
            ..Broker::default()
        },
        workers: Workers {
            count: c,
            concurrency: 1,
            heartbeat: Some(None),
            ..Workers::default()
        },
        work: Work {
            dist: Dist::Exponential { mean_ms },
            attempt_jitter: 0.0,
            cpu_bound: false,
        },
        arrivals: Arrivals {
            backlog: 0,
            rate_per_s,
            process: Process::Poisson,
            surges: vec![],
            eta_ms: 0,
        },
        ..Scenario::default()
    };
    simulate(&s, &Options::default()).expect("valid")
}

/// Mean of (first receive - arrival) over messages arriving after a warm-up hour.
fn mean_wait_ms(run: &Run) -> f64 {
    let waits: Vec<f64> = run
        .messages
        .iter()
        .filter(|m| m.arrived_at >= 3_600_000 && !m.deliveries.is_empty())
        .map(|m| (run.deliveries[m.deliveries[0] as usize].received_at - m.arrived_at) as f64)
        .collect();
    waits.iter().sum::<f64>() / waits.len() as f64
}

#[test]
fn mean_wait_matches_erlang_c_at_two_loads() {
    let (c, mean_ms) = (4u32, 1000.0);
    for rate in [2.0, 3.0] {
        let a = rate * mean_ms / 1000.0;
        let theory = erlang_c(c, a) * mean_ms / (f64::from(c) - a);
        // Three independent days, to keep the sampling error well inside 5%.
        let sim = [11, 12, 13]
            .iter()
            .map(|&seed| {
                let run = mmc(c, rate, mean_ms, seed);
                assert_eq!(run.report.totals.redeliveries, 0);
                mean_wait_ms(&run)
            })
            .sum::<f64>()
            / 3.0;
        let err = (sim / theory - 1.0).abs();
        println!(
            "load {:.2}: Wq sim {sim:.1} ms, Erlang C {theory:.1} ms, off by {:.1}%",
            a / f64::from(c),
            err * 100.0
        );
        assert!(
            err < 0.05,
            "load {a}: simulated {sim:.1} ms vs Erlang C {theory:.1} ms"
        );
    }
}

#[test]
fn erlang_c_formula_matches_a_known_value() {
    // c = 2, a = 1: C = 1/3 (textbook value).
    assert!((erlang_c(2, 1.0) - 1.0 / 3.0).abs() < 1e-12);
}
