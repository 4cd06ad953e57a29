//! Issue "Scale and speed": the capped log, progress reports, summarising a
//! run for the page and the wire format that carries it there.

mod random;
mod summary_check;

use lease_sim::run::Run;
use std::ops::ControlFlow;

use lease_sim::{
    bench_scenarios, shipped, simulate, simulate_with_progress, Options, Progress, SummaryLimits,
};
use lease_wire as wire;

fn whole(s: &lease_sim::Scenario) -> Run {
    simulate(s, &Options::default()).expect("a valid scenario runs")
}

#[test]
fn a_capped_log_keeps_a_prefix_and_the_same_report() {
    for sh in shipped::all() {
        let full = whole(&sh.scenario);
        let keep = full.events.len() as u64 / 3;
        let capped = simulate(
            &sh.scenario,
            &Options {
                keep_events: Some(keep),
                check_invariants: true,
                ..Options::default()
            },
        )
        .unwrap_or_else(|e| panic!("{}: {e}", sh.name));
        assert_eq!(capped.report, full.report, "{}", sh.name);
        assert_eq!(capped.deliveries, full.deliveries, "{}", sh.name);
        assert_eq!(capped.messages, full.messages, "{}", sh.name);
        assert_eq!(capped.events.len() as u64, keep, "{}", sh.name);
        assert_eq!(capped.events.total(), full.events.total(), "{}", sh.name);
        assert_eq!(
            capped.events.dropped(),
            full.events.len() as u64 - keep,
            "{}",
            sh.name
        );
        assert!(capped
            .events
            .iter()
            .eq(full.events.iter().take(keep as usize)));
    }
}

#[test]
fn the_work_budget_counts_entries_the_cap_did_not_store() {
    // A cap on storage must not let a run outgrow `max_events`.
    let s = bench_scenarios::hundred_thousand();
    let opts = |keep| Options {
        max_events: Some(50_000),
        keep_events: keep,
        ..Options::default()
    };
    let a = simulate(&s, &opts(None)).unwrap();
    let b = simulate(&s, &opts(Some(1_000))).unwrap();
    assert!(a.stopped().is_some());
    assert_eq!(a.report, b.report);
    assert_eq!(b.events.len(), 1_000);
    assert_eq!(b.report.totals.events, a.events.len() as u64);
}

#[test]
fn progress_is_monotone_and_ends_at_the_end() {
    let s = bench_scenarios::hundred_thousand();
    let mut seen: Vec<Progress> = Vec::new();
    let run = simulate_with_progress(&s, &Options::default(), &mut |p| {
        seen.push(p);
        ControlFlow::Continue(())
    })
    .unwrap();
    let total = run.events.total();
    assert!(seen.len() as u64 >= total / lease_sim::engine::PROGRESS_EVERY);
    assert!(seen
        .windows(2)
        .all(|w| w[0].now_ms <= w[1].now_ms && w[0].events < w[1].events));
    assert!(seen.iter().all(|p| p.now_ms <= p.end_ms));
    let last = seen.last().unwrap();
    assert_eq!(
        (last.now_ms, last.end_ms, last.events),
        (run.end_ms, run.end_ms, total)
    );
    // The same run as without progress reports.
    assert_eq!(run, whole(&s));
}

#[test]
fn a_small_run_reports_progress_once() {
    let s = &shipped::all()[0].scenario;
    let mut seen = Vec::new();
    let run = simulate_with_progress(s, &Options::default(), &mut |p| {
        seen.push(p);
        ControlFlow::Continue(())
    })
    .unwrap();
    assert_eq!(
        seen,
        vec![Progress {
            now_ms: run.end_ms,
            end_ms: run.end_ms,
            events: run.report.totals.events,
            settled: run.report.totals.deleted
                + run.report.totals.dead_lettered_expired
                + run.report.totals.dead_lettered_failed,
        }]
    );
}

#[test]
fn summarising_shipped_and_random_runs_keeps_a_consistent_prefix() {
    let mut scenarios: Vec<_> = shipped::all().into_iter().map(|s| s.scenario).collect();
    scenarios.extend(random::scenarios());
    for s in &scenarios {
        let full = whole(s);
        let (d, e) = (full.deliveries.len(), full.events.len());
        for limits in [
            SummaryLimits {
                deliveries: d,
                events: e,
            },
            SummaryLimits {
                deliveries: d / 2,
                events: usize::MAX,
            },
            SummaryLimits {
                deliveries: usize::MAX,
                events: e / 3,
            },
            SummaryLimits {
                deliveries: d / 3,
                events: e / 2,
            },
            SummaryLimits {
                deliveries: 0,
                events: 0,
            },
        ] {
            summary_check::check(&full, limits).unwrap_or_else(|e| panic!("{}: {e}", s.name));
        }
    }
}

#[test]
fn summarising_a_capped_run_cuts_where_the_log_stops() {
    let s = shipped::all()[0].scenario.clone();
    let full = whole(&s);
    let mut capped = simulate(
        &s,
        &Options {
            keep_events: Some(full.events.len() as u64 / 2),
            ..Options::default()
        },
    )
    .unwrap();
    let unlimited = SummaryLimits {
        deliveries: usize::MAX,
        events: usize::MAX,
    };
    capped.summarise(unlimited);
    let sum = capped
        .summarised
        .clone()
        .expect("a capped log is summarised");
    assert_eq!(sum.events_total, full.report.totals.events);
    assert!(sum.dropped_events() > 0);
    // What is kept is what summarising the whole run at the same cut keeps.
    let mut cut = full.clone();
    cut.summarise(SummaryLimits {
        deliveries: usize::MAX,
        events: full.events.partition_point_t(|t| t < sum.kept_until_ms),
    });
    assert_eq!(cut, capped);
    summary_check::round_trip(&capped).unwrap();
}

#[test]
fn every_shipped_and_random_run_survives_the_wire() {
    let mut scenarios: Vec<_> = shipped::all().into_iter().map(|s| s.scenario).collect();
    scenarios.extend(random::scenarios());
    for s in &scenarios {
        summary_check::round_trip(&whole(s)).unwrap();
    }
    // A run the engine stopped early carries its sentence.
    let stopped = simulate(
        &bench_scenarios::hundred_thousand(),
        &Options {
            max_events: Some(10_000),
            ..Options::default()
        },
    )
    .unwrap();
    assert!(stopped.stopped().is_some());
    summary_check::round_trip(&stopped).unwrap();
}

#[test]
fn a_large_run_is_read_a_column_or_a_stretch_at_a_time_and_reads_back_whole() {
    let run = whole(&bench_scenarios::sub_second_backlog(300_000, 100, 10));
    let (d, m) = (run.deliveries.len(), run.messages.len());
    assert!(
        d > 2 * wire::DELIVERY_STRETCH && m > wire::MESSAGE_STRETCH,
        "{d} deliveries, {m} messages"
    );
    let mut decoding = wire::Decoding::new(wire::encode(&run));
    let mut steps = 1;
    let back = loop {
        if let Some(r) = decoding.step().unwrap() {
            break r;
        }
        steps += 1;
    };
    assert!(back == run, "the run reads back whole");
    // The head; the event log's five columns; the deliveries a stretch a
    // step; the marks; the messages a stretch a step; the rest.
    let want =
        1 + 5 + d.div_ceil(wire::DELIVERY_STRETCH) + 1 + m.div_ceil(wire::MESSAGE_STRETCH) + 1;
    assert_eq!(steps, want);
}

#[test]
fn truncated_or_garbage_bytes_are_an_error_not_a_panic() {
    let run = whole(&shipped::all()[0].scenario);
    let bytes = wire::encode(&run);
    // Every truncation: a prefix is never a whole run.
    for n in 0..bytes.len() {
        assert!(wire::decode(&bytes[..n]).is_err(), "prefix of {n} bytes");
    }
    let mut long = bytes.clone();
    long.push(0);
    assert!(wire::decode(&long)
        .unwrap_err()
        .to_string()
        .contains("after its end"));
    // Random bytes, and the real bytes with random corruption.
    use rand::{RngExt, SeedableRng};
    let mut rng = rand_pcg::Pcg64Mcg::seed_from_u64(7);
    for _ in 0..2_000 {
        let n = rng.random_range(0..512);
        let junk: Vec<u8> = (0..n).map(|_| rng.random()).collect();
        assert!(wire::decode(&junk).is_err());
        let mut bad = bytes.clone();
        for _ in 0..rng.random_range(1..8) {
            let i = rng.random_range(0..bad.len());
            bad[i] = rng.random();
        }
        // Corruption may still decode (a changed time is still a time); it
        // must just not panic.
        let _ = wire::decode(&bad);
    }
    let e = wire::decode(b"not a run").unwrap_err();
    assert!(e.to_string().contains("not an encoded run"), "{e}");
}

#[test]
fn a_backlog_keeps_only_the_messages_its_kept_deliveries_name() {
    // A backlog arrives at t = 0: cutting messages at the instant would keep
    // all of them. The page needs those the kept timeline shows.
    let mut s = shipped::find("sub-second-work").unwrap().scenario;
    s.arrivals.backlog = 20_000;
    s.arrivals.rate_per_s = 0.0;
    let full = whole(&s);
    let kept = summary_check::check(
        &full,
        SummaryLimits {
            deliveries: 1_000,
            events: usize::MAX,
        },
    )
    .unwrap();
    let sum = kept.summarised.clone().unwrap();
    let highest = kept.deliveries.iter().map(|d| d.message).max().unwrap();
    assert_eq!(kept.messages.len(), highest as usize + 1);
    assert!(kept.messages.len() < 1_100, "{}", kept.messages.len());
    assert_eq!(sum.messages_kept + sum.dropped_messages(), 20_000);
    assert_eq!(sum.fates.len(), 20_000);
    assert_eq!(sum.receive_counts.len(), 20_000);
    // The log keeps the entries of the kept messages only: not the other
    // 19,000 arrivals at t = 0.
    assert!(kept
        .events
        .iter()
        .all(|e| e.message == lease_sim::run::NONE || (e.message as usize) < kept.messages.len()));
    assert!(kept.events.len() < 10_000, "{}", kept.events.len());
    assert_eq!(kept.events.total(), full.events.total());
    summary_check::round_trip(&kept).unwrap();
    // No delivery kept: no message either.
    let none = summary_check::check(
        &full,
        SummaryLimits {
            deliveries: 0,
            events: usize::MAX,
        },
    )
    .unwrap();
    assert!(none.messages.is_empty());
}

#[test]
fn a_caller_that_stops_the_run_gets_the_run_so_far() {
    let s = bench_scenarios::hundred_thousand();
    let options = Options {
        progress_every: Some(1_000),
        ..Options::default()
    };
    let mut seen = Vec::new();
    let cut = simulate_with_progress(&s, &options, &mut |p| {
        seen.push(p.events);
        if seen.len() == 5 {
            ControlFlow::Break(())
        } else {
            ControlFlow::Continue(())
        }
    })
    .unwrap();
    // Asked about every thousand entries (the backlog's arrivals are logged
    // before the first report), stopped at the fifth report.
    assert_eq!(seen.len(), 6, "five reports, then the final one");
    assert!(
        seen[1..5]
            .windows(2)
            .all(|w| (1_000..1_010).contains(&(w[1] - w[0]))),
        "{seen:?}"
    );
    let logged = cut.report.totals.events;
    assert_eq!(logged, seen[4]);
    let why = cut.stopped().expect("a stopped run says so");
    assert!(why.contains("the caller stopped it"), "{why}");
    // What was run is the start of the whole run, entry for entry.
    let whole = simulate(&s, &Options::default()).unwrap();
    assert!(whole.stopped().is_none());
    assert!(whole.report.totals.events > logged);
    let n = cut.events.len();
    assert!(n > 0);
    assert_eq!(
        (0..n).map(|i| cut.events.get(i)).collect::<Vec<_>>(),
        (0..n).map(|i| whole.events.get(i)).collect::<Vec<_>>()
    );
}
