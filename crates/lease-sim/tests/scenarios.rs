//! Each shipped scenario's symptom, in numbers (docs/MODEL.md "Scenarios the
//! playground ships"). If a scenario file is edited so that it no longer
//! shows what its explanation promises, these fail.

use lease_sim::run::{Fate, LeaseEnd, Run};
use lease_sim::{measure, shipped, simulate, Options};

/// The shipped scenario under another seed.
fn run(name: &str, seed: u64) -> Run {
    let mut s = shipped::find(name)
        .unwrap_or_else(|| panic!("no shipped scenario {name}"))
        .scenario;
    s.seed = seed;
    simulate(
        &s,
        &Options {
            check_invariants: false,
            ..Options::default()
        },
    )
    .unwrap_or_else(|e| panic!("{name} seed {seed}: {e}"))
}

/// The shipped scenario under each seed from 1 to 20: a figure the story
/// states has to hold across them, not on one lucky seed.
fn runs_over_seeds(name: &str) -> Vec<Run> {
    let s = shipped::find(name).unwrap_or_else(|| panic!("no shipped scenario {name}"));
    (1..=20)
        .map(|seed| {
            let mut sc = s.scenario.clone();
            sc.seed = seed;
            simulate(&sc, &Options::default()).unwrap_or_else(|e| panic!("{name} seed {seed}: {e}"))
        })
        .collect()
}

fn mean(v: &[f64]) -> f64 {
    v.iter().sum::<f64>() / v.len() as f64
}

/// Mean completions per minute over buckets `[from, to)`.
fn cpm(r: &Run, from: usize, to: usize) -> f64 {
    mean(&r.report.series.completions_per_min[from..to])
}

#[test]
fn every_main_scenario_and_variant_runs_and_says_what_to_look_for() {
    let all = shipped::all();
    assert_eq!(
        all.iter().filter(|s| s.variant_of.is_none()).count(),
        shipped::MAIN_COUNT
    );
    for s in all {
        assert!(
            !s.title.is_empty()
                && !s.scenario.explanation.is_empty()
                && !s.scenario.look_for.is_empty(),
            "{}",
            s.name
        );
        let r = simulate(
            &s.scenario,
            &Options {
                check_invariants: true,
                ..Options::default()
            },
        );
        assert!(r.is_ok(), "{}: {:?}", s.name, r.err());
    }
}

#[test]
fn scenario_1_ninety_second_message_overlaps_and_its_first_ack_is_rejected() {
    for seed in 1..=20 {
        let r = run("ninety-second-message", seed);
        let d = &r.deliveries;
        assert_eq!((d[1].worker, d[1].started_at), (1, Some(60_000)));
        assert_eq!(d[0].ended_at, Some(90_000));
        assert_eq!(d[0].lease_ended_at, 60_000);
        assert_eq!(d[0].outcome, lease_sim::run::Outcome::AckRejected);
        assert!(r.report.totals.overlapping_runs >= 1);
    }
}

#[test]
fn scenario_2_clip_surge_drain_collapses_and_clips_loop() {
    let mut collapsed = 0;
    for seed in 1..=20 {
        let r = run("clip-surge", seed);
        // Minutes 0-5 before the surge, 5-15 during it.
        let before = cpm(&r, 0, 5);
        let during = cpm(&r, 5, 15);
        collapsed += usize::from(during <= before / 2.0);
        // Clips arriving in the surge and handed out: most more than once.
        let surge: Vec<_> = r
            .messages
            .iter()
            .filter(|m| (300_000..900_000).contains(&m.arrived_at) && m.receive_count > 0)
            .collect();
        let repeated = surge.iter().filter(|m| m.receive_count >= 2).count();
        assert!(
            repeated * 2 > surge.len(),
            "{repeated} of {} delivered 2+ times",
            surge.len()
        );
        // With per-attempt jitter, a clip that lost to the lease twice can beat
        // it on the third delivery.
        let third_time_lucky = r
            .messages
            .iter()
            .filter(|m| {
                m.deliveries.len() == 3
                    && matches!(m.fate, Fate::Deleted { .. })
                    && m.deliveries[..2]
                        .iter()
                        .all(|&d| r.deliveries[d as usize].lease_end == LeaseEnd::Expired)
                    && r.deliveries[m.deliveries[2] as usize].lease_end == LeaseEnd::Acked
            })
            .count();
        assert!(third_time_lucky >= 5, "{third_time_lucky}");
        // No redrive: some clip is still circulating at the end, delivered many times.
        assert!(r
            .messages
            .iter()
            .any(|m| m.fate == Fate::InFlight && m.receive_count >= 4));
        assert_eq!(r.report.totals.dead_lettered_expired, 0);
    }
    // The two mildest surges drain at 0.54 and 0.60 of the rate before.
    assert!(
        collapsed >= 18,
        "the drain halves on {collapsed} of 20 seeds"
    );
}

#[test]
fn scenario_2_clip_surge_figures_over_twenty_seeds() {
    // The surge runs from minute 5 to 15; the drain before it is minutes 0-5.
    let (before, surge) = (0..300_000u64, 300_000..900_000u64);
    let (mut ratios, mut repeats, mut twice_or_thrice) = (Vec::new(), Vec::new(), Vec::new());
    for (seed, r) in (1..).zip(runs_over_seeds("clip-surge")) {
        let ratio = measure::drain_ratio(&r, before.clone(), surge.clone()).expect("a drain");
        let repeat = measure::repeat_work_share(&r, surge.clone()).expect("commits");
        let counts = measure::receive_counts_of_arrivals(&r, surge.clone(), 4);
        let reviewed: u64 = counts[1..].iter().sum();
        let share23 = (counts[2] + counts[3]) as f64 / reviewed as f64;
        // A few clips still circulating at the end, delivered 4 times or more.
        let endless = r
            .messages
            .iter()
            .filter(|m| matches!(m.fate, Fate::InFlight | Fate::Available) && m.receive_count >= 4)
            .count();
        assert!(
            endless >= 1 && endless * 10 <= r.messages.len(),
            "seed {seed}: {endless} circulating"
        );
        // Repeat reviews mostly start after the first has ended (the backlog
        // is ahead of them), some while it still runs.
        let t = &r.report.totals;
        assert!(
            t.overlapping_runs >= 1 && t.overlapping_runs * 4 < t.sequential_duplicate_runs,
            "seed {seed}: {} overlapping, {} sequential",
            t.overlapping_runs,
            t.sequential_duplicate_runs
        );
        assert!(
            (0.20..=0.60).contains(&ratio),
            "seed {seed}: drain ratio {ratio:.3}"
        );
        assert!(
            (0.30..=0.50).contains(&repeat),
            "seed {seed}: repeat {repeat:.3}"
        );
        assert!(
            (0.35..=0.55).contains(&share23),
            "seed {seed}: 2-3 times {share23:.3}"
        );
        ratios.push(ratio);
        repeats.push(repeat);
        twice_or_thrice.push(share23);
    }
    // A third of the drain before it, as the article says, on most seeds.
    let in_range = ratios.iter().filter(|r| (0.25..=0.40).contains(*r)).count();
    assert!(
        in_range >= 15,
        "{in_range} of 20 seeds drain at 0.25-0.40: {ratios:?}"
    );
    assert!((0.30..=0.37).contains(&mean(&ratios)), "{ratios:?}");
    // About two of five completions are repeat work, and nearly half of the
    // clips arriving in the surge are reviewed two or three times: short of
    // the article's two of three and "most" (docs/MODEL.md says why).
    assert!((0.36..=0.42).contains(&mean(&repeats)), "{repeats:?}");
    assert!(
        (0.43..=0.49).contains(&mean(&twice_or_thrice)),
        "{twice_or_thrice:?}"
    );
}

#[test]
fn scenario_2_fix_heartbeat_almost_no_redeliveries() {
    for seed in 1..=20 {
        let broken = run("clip-surge", seed);
        let r = run("clip-surge-heartbeat", seed);
        let t = &r.report.totals;
        assert!(
            t.redeliveries * 100 <= t.deliveries,
            "{} of {}",
            t.redeliveries,
            t.deliveries
        );
        assert!(t.extensions_ok >= 900, "{}", t.extensions_ok);
        // It drains: nearly every clip deleted, against barely half without renewal.
        assert!(
            t.deleted * 100 >= t.arrived * 98,
            "{} of {}",
            t.deleted,
            t.arrived
        );
        let b = &broken.report.totals;
        assert!(
            b.deleted * 10 < b.arrived * 6,
            "{} of {}",
            b.deleted,
            b.arrived
        );
        assert!(t.wasted_work_ms * 20 < broken.report.totals.wasted_work_ms);
    }
}

#[test]
fn scenario_2_fix_smaller_steps_most_delivered_once() {
    for seed in 1..=20 {
        let broken = run("clip-surge", seed);
        let r = run("clip-surge-smaller-steps", seed);
        let share =
            |r: &Run| r.report.totals.redeliveries as f64 / r.report.totals.deliveries as f64;
        assert!(
            share(&r) * 1.8 < share(&broken),
            "{:.2} vs {:.2}",
            share(&r),
            share(&broken)
        );
        let once = r.report.receive_counts.get("1").copied().unwrap_or(0);
        let delivered: u64 = r
            .report
            .receive_counts
            .iter()
            .filter(|(k, _)| k.as_str() != "0")
            .map(|(_, v)| v)
            .sum();
        assert!(
            once * 4 >= delivered * 3,
            "{once} of {delivered} delivered once"
        );
    }
}

#[test]
fn scenario_2_fix_redrive_moves_endless_clips_to_the_dead_letter_queue() {
    for seed in 1..=20 {
        let r = run("clip-surge-redrive", seed);
        assert!(r.report.totals.dead_lettered_expired >= 1);
        assert_eq!(r.report.totals.dead_lettered_failed, 0);
        // Receive counts never above 5; nothing circulates at the end with more.
        assert!(
            r.messages.iter().all(|m| m.receive_count <= 5),
            "seed {seed}"
        );
    }
}

#[test]
fn scenario_2_fix_idempotent_receiver_no_duplicate_effects() {
    for seed in 1..=20 {
        let broken = run("clip-surge", seed);
        let r = run("clip-surge-idempotent", seed);
        assert!(broken.report.totals.duplicate_effects > 0);
        assert_eq!(r.report.totals.duplicate_effects, 0);
        assert!(r.report.totals.fence_rejections > 0);
        // The broker is the same: redeliveries and wasted work unchanged.
        let (b, t) = (&broken.report.totals, &r.report.totals);
        assert_eq!(
            (b.redeliveries, b.wasted_work_ms),
            (t.redeliveries, t.wasted_work_ms)
        );
    }
}

#[test]
fn scenario_3_five_minute_timeout_stalls_the_drain_after_each_deploy() {
    // Each deploy stops the worker holding the current message: the drain
    // stops for the timeout (plus the two seconds to the next arrival), on
    // every seed, and with a 30 s lease renewed by heartbeat for 30 s.
    let deploys = [240_500u64, 900_500, 1_560_500];
    for (name, timeout) in [
        ("five-minute-timeout-deploy", 300_000u64),
        ("five-minute-timeout-deploy-heartbeat", 30_000),
    ] {
        for (seed, r) in (1..).zip(runs_over_seeds(name)) {
            for at in deploys {
                let stop = measure::longest_drain_stop(&r, at..at + timeout + 120_000);
                assert!(
                    (timeout..=timeout + 5_000).contains(&stop),
                    "{name} seed {seed}: the drain stopped {stop} ms after the deploy at {at}"
                );
            }
        }
    }
    // Between the deploys it runs at the full arrival rate (30/min).
    let r = run("five-minute-timeout-deploy", 3);
    assert!(cpm(&r, 0, 4) >= 29.0);
}

#[test]
fn scenario_4_hung_handler_with_uncapped_extension_holds_for_ever() {
    for seed in 1..=20 {
        let r = run("hung-handler", seed);
        let t = &r.report.totals;
        assert_eq!(
            (t.deleted, t.dead_lettered_expired, t.redeliveries),
            (0, 0, 0)
        );
        assert!(r
            .messages
            .iter()
            .all(|m| m.fate == Fate::InFlight && m.receive_count == 1));
        // Renewed to the end of the run: 15 minutes, every 10 s.
        assert!(t.extensions_ok >= 2 * 85);
        let capped = run("hung-handler-capped", seed);
        assert_eq!(capped.report.totals.dead_lettered_expired, 2);
        // Three deliveries each, at most 6 extensions a delivery, both
        // dead-lettered within about five minutes.
        for m in &capped.messages {
            assert_eq!(m.deliveries.len(), 3, "seed {seed}");
            assert!(
                matches!(m.fate, Fate::DeadLettered { at, .. } if at <= 330_000),
                "seed {seed}: {:?}",
                m.fate
            );
        }
        assert!(capped
            .deliveries
            .iter()
            .all(|d| d.extensions_ok + d.extensions_rejected <= 6));
    }
}

#[test]
fn scenario_5_invisible_backlog_depth_zero_near_8000_in_flight_no_acks() {
    // Queue depth 0, in flight near 8,000 and no ack in the same minute, on
    // every seed: 7,494 to 7,839 measured over seeds 1 to 20, mean 7,686,
    // at the run's last minute, the pool's 8,000 buffer places nearly full.
    let mut peaks = Vec::new();
    for (seed, r) in (1..).zip(runs_over_seeds("invisible-backlog")) {
        let s = &r.report.series;
        // The first minute, before the stall, drains: the pool was healthy.
        assert!(s.acks[0] > 0, "seed {seed}: no acks before the stall");
        let peak = measure::invisible_backlog(&r);
        assert!(
            (7_400..=7_950).contains(&peak),
            "seed {seed}: {peak} in flight with depth 0 and no acks"
        );
        assert_eq!(s.in_flight.last(), Some(&peak), "seed {seed}");
        peaks.push(peak);
    }
    let mean = peaks.iter().sum::<u64>() / peaks.len() as u64;
    assert!((7_600..=7_800).contains(&mean), "mean {mean}");
}

#[test]
fn scenario_6_dependency_slows_3x_throughput_collapses_more_workers_worse() {
    for seed in 1..=20 {
        let r = run("dependency-slows-3x", seed);
        let before = cpm(&r, 0, 5);
        let after = cpm(&r, 6, 20);
        assert!(
            after <= before / 2.0,
            "after {after:.1}, before {before:.1}"
        );
        let more = run("dependency-slows-3x-more-workers", seed);
        let more_after = cpm(&more, 6, 20);
        assert!(
            more_after < after,
            "16 workers {more_after:.1}/min vs 8 workers {after:.1}/min"
        );
        assert!(more.report.totals.wasted_work_ms > r.report.totals.wasted_work_ms);
        assert!(more.report.totals.redeliveries > r.report.totals.redeliveries);
        // Ack latency p99 close to the timeout.
        let p99 = r.report.ack_latency_ms.p99_over_timeout.expect("acks");
        assert!(p99 >= 0.9, "seed {seed}: p99 over timeout {p99:.2}");
    }
}

#[test]
fn scenario_7_dead_letter_queue_of_valid_messages_by_expiry_alone() {
    for seed in 1..=20 {
        let r = run("dlq-of-valid-messages", seed);
        let t = &r.report.totals;
        assert!(t.dead_lettered_expired >= 5);
        assert_eq!(t.dead_lettered_failed, 0);
        assert_eq!(t.errors, 0);
        // Every dead-lettered message's every lease ended by expiry.
        for m in r
            .messages
            .iter()
            .filter(|m| matches!(m.fate, Fate::DeadLettered { .. }))
        {
            assert!(m
                .deliveries
                .iter()
                .all(|&d| r.deliveries[d as usize].lease_end == LeaseEnd::Expired));
        }
        let s = &r.report.series;
        assert_eq!(
            s.dead_letter_expired.iter().sum::<u64>(),
            t.dead_lettered_expired
        );
    }
}

#[test]
fn scenario_8_order_confirmation_email_sent_twice_unless_idempotent() {
    for seed in 1..=20 {
        let r = run("order-confirmation-email", seed);
        assert_eq!(r.report.totals.effects, 2);
        assert_eq!(r.report.totals.duplicate_effects, 1);
        let fixed = run("order-confirmation-email-idempotent", seed);
        assert_eq!(fixed.report.totals.effects, 1);
        assert_eq!(fixed.report.totals.fence_rejections, 1);
    }
}

#[test]
fn scenario_9_pause_starves_the_heartbeat_and_the_lease_expires_while_alive() {
    for seed in 1..=20 {
        let r = run("gc-pause-starves-heartbeat", seed);
        assert_eq!(r.report.totals.expiries, 1);
        assert!(r.report.totals.extensions_rejected >= 1);
        assert_eq!(r.report.totals.duplicate_effects, 1);
        let fenced = run("gc-pause-starves-heartbeat-fencing-token", seed);
        assert_eq!(fenced.report.totals.fence_rejections, 1);
        assert_eq!(fenced.report.totals.duplicate_effects, 0);
    }
}

#[test]
fn scenario_10_sub_second_work_needs_no_renewal() {
    for seed in 1..=20 {
        let r = run("sub-second-work", seed);
        let h = run("sub-second-work-heartbeat", seed);
        assert_eq!(r.report.totals.redeliveries, 0);
        assert_eq!(h.report.totals.redeliveries, 0);
        assert_eq!(r.report.totals.deleted, h.report.totals.deleted);
        assert!(r.report.ack_latency_ms.p99_over_timeout.unwrap() < 0.5);
        assert!(h.report.totals.extensions_ok <= 10);
        // Every receive count is 1.
        assert!(
            r.messages.iter().all(|m| m.receive_count <= 1),
            "seed {seed}"
        );
    }
}

#[test]
fn timeout_at_the_work_p99_gives_a_small_stable_redelivery_rate() {
    // The clip queue on an ordinary day: the surge and the slowdown taken
    // out, the 30 s timeout at the work's p99. With the redrive policy the
    // slow tail is redelivered a few times and set aside: a small rate that
    // stays put. Without one the tail circulates for ever and the rate climbs.
    let per_min = |redrive: Option<u32>| {
        let (mut early, mut late) = (0.0, 0.0);
        for seed in 1..=20 {
            let mut s = shipped::find("clip-surge-redrive")
                .expect("shipped")
                .scenario;
            s.seed = seed;
            s.arrivals.surges.clear();
            s.downstream.slowdowns.clear();
            s.broker.max_receive_count = Some(redrive);
            let r = simulate(&s, &Options::default()).expect("runs");
            let t = &r.report.totals;
            if redrive.is_some() {
                assert!(
                    t.redeliveries * 100 <= t.deliveries * 6,
                    "seed {seed}: {} of {} deliveries are redeliveries",
                    t.redeliveries,
                    t.deliveries
                );
            }
            let red = &r.report.series.redeliveries;
            early += red[5..15].iter().sum::<u64>() as f64 / 10.0 / 20.0;
            late += red[15..25].iter().sum::<u64>() as f64 / 10.0 / 20.0;
        }
        (early, late)
    };
    let (early, late) = per_min(Some(5));
    assert!(
        late <= early * 1.5 && late < 1.5,
        "with redrive: {early:.2}/min, then {late:.2}/min"
    );
    let (early, late) = per_min(None);
    assert!(
        late >= early * 1.8,
        "without redrive: {early:.2}/min, then {late:.2}/min"
    );
}

#[test]
fn scenario_2_clip_surge_a_review_takes_nearly_a_minute_in_the_surge() {
    // 8 s a clip before the surge; in it, the shared service slowed and
    // split four ways makes the same reviews take nearly a minute.
    let mut surge = Vec::new();
    for (seed, r) in (1..).zip(runs_over_seeds("clip-surge")) {
        let before = measure::median_run_ms(&r, 0..300_000).expect("runs");
        let during = measure::median_run_ms(&r, 300_000..900_000).expect("runs");
        assert!(
            (7_000..=11_000).contains(&before),
            "seed {seed}: {before} ms before"
        );
        assert!(
            (45_000..=65_000).contains(&during),
            "seed {seed}: {during} ms in the surge"
        );
        surge.push(during as f64);
    }
    assert!((50_000.0..=60_000.0).contains(&mean(&surge)), "{surge:?}");
}

#[test]
fn scenario_11_a_celery_task_runs_four_times_at_once() {
    // Three report tasks (one every 1,000 s) with a 3.5 h countdown under
    // the 1 h visibility timeout: each is restored every hour while it waits
    // and taken by the next worker, so at its ETA four workers hold a copy
    // and all four start together. Measured the same on seeds 1 to 20.
    for (seed, r) in (1..).zip(runs_over_seeds("celery-task-runs-four-times")) {
        let t = &r.report.totals;
        assert_eq!(t.arrived, 3, "seed {seed}");
        assert_eq!(r.report.receive_counts.get("4"), Some(&3), "seed {seed}");
        assert_eq!(
            (t.overlapping_runs, t.duplicate_effects),
            (9, 9),
            "seed {seed}"
        );
        for m in 0..3u32 {
            let starts: Vec<u64> = r
                .deliveries
                .iter()
                .filter(|d| d.message == m)
                .filter_map(|d| d.started_at)
                .collect();
            let eta = r.messages[m as usize].arrived_at + 12_600_000;
            assert_eq!(starts, vec![eta; 4], "seed {seed} message {m}");
        }
    }
    // The fix: a 5 h visibility timeout outlasts the countdown.
    for (seed, r) in (1..).zip(runs_over_seeds(
        "celery-task-runs-four-times-visibility-timeout",
    )) {
        let t = &r.report.totals;
        assert_eq!((t.deliveries, t.redeliveries), (3, 0), "seed {seed}");
        assert_eq!(
            (t.overlapping_runs, t.duplicate_effects),
            (0, 0),
            "seed {seed}"
        );
    }
}

#[test]
fn scenario_12_stalled_more_than_allowable_limit() {
    // 24 CPU-bound report jobs (median 1 min, p99 10 min) on BullMQ's
    // defaults: only jobs under the 30 s lock complete; every other job is
    // stalled twice and failed, after two runs that each built its report.
    // Measured over seeds 1 to 20: 15 to 22 failed, 18.3 on average.
    let failed: Vec<u64> = runs_over_seeds("bullmq-stalled-more-than-allowable-limit")
        .iter()
        .zip(1..)
        .map(|(r, seed)| {
            let t = &r.report.totals;
            assert_eq!(t.deleted + t.dead_lettered_expired, 24, "seed {seed}");
            assert_eq!(t.dead_lettered_failed, 0, "seed {seed}");
            // Two runs, two reports, per failed job; every run of it is told
            // "Missing lock".
            assert_eq!(t.deliveries, 24 + t.dead_lettered_expired, "seed {seed}");
            assert_eq!(t.duplicate_effects, t.dead_lettered_expired, "seed {seed}");
            assert_eq!(t.acks_rejected, 2 * t.dead_lettered_expired, "seed {seed}");
            t.dead_lettered_expired
        })
        .collect();
    assert!(failed.iter().all(|f| (15..=22).contains(f)), "{failed:?}");
    let mean = failed.iter().sum::<u64>() as f64 / failed.len() as f64;
    assert!((mean - 18.3).abs() < 0.01, "{mean}");
    // The fix: the lock renewal runs beside the processor; every job
    // completes once.
    for (seed, r) in (1..).zip(runs_over_seeds("bullmq-stalled-sandboxed-processor")) {
        let t = &r.report.totals;
        assert_eq!(
            (t.deleted, t.deliveries, t.expiries),
            (24, 24, 0),
            "seed {seed}"
        );
        assert_eq!(t.duplicate_effects, 0, "seed {seed}");
    }
}

/// What one run of the Temporal scenario shows: the share of activities
/// run more than once, overlapping runs, duplicate effects, the most
/// attempts of one activity running at once, each wait from a timed-out
/// (not crashed) attempt's timeout to the next attempt with that attempt's
/// number, and the longest wait from the crash to the next attempt of an
/// activity the crashed worker held.
struct Activities {
    retried_share: f64,
    overlapping: u64,
    duplicates: u64,
    most_at_once: usize,
    retry_waits: Vec<(u32, u64)>,
    crash_to_retry: u64,
}

fn activities(r: &Run, crash_at: u64) -> Activities {
    use lease_sim::run::Outcome;
    let t = &r.report.totals;
    let retried = r.messages.iter().filter(|m| m.receive_count >= 2).count();
    let mut most_at_once = 0;
    let mut retry_waits = Vec::new();
    let mut crash_to_retry = 0;
    for m in &r.messages {
        let ds: Vec<_> = m
            .deliveries
            .iter()
            .map(|&i| &r.deliveries[i as usize])
            .collect();
        for (a, b) in ds.iter().zip(ds.iter().skip(1)) {
            // Held at the crash (a timed-out attempt that crashed later is
            // a timeout like any other).
            if a.outcome == Outcome::Crashed && a.lease_ended_at >= crash_at {
                crash_to_retry = crash_to_retry.max(b.received_at - crash_at);
            } else if a.lease_end == LeaseEnd::Expired {
                retry_waits.push((a.receipt, b.received_at - a.lease_ended_at));
            }
        }
        // Attempts of this activity running at each attempt's start.
        for d in &ds {
            let Some(s) = d.started_at else { continue };
            let at_once = ds
                .iter()
                .filter(|o| {
                    o.started_at.is_some_and(|os| os <= s) && o.ended_at.is_none_or(|e| e > s)
                })
                .count();
            most_at_once = most_at_once.max(at_once);
        }
    }
    Activities {
        retried_share: retried as f64 / r.messages.len() as f64,
        overlapping: t.overlapping_runs,
        duplicates: t.duplicate_effects,
        most_at_once,
        retry_waits,
        crash_to_retry,
    }
}

/// The worker crashes at 20 minutes in both Temporal scenarios.
const ACTIVITY_CRASH_MS: u64 = 1_200_000;

#[test]
fn scenario_13_two_attempts_of_the_same_activity_run_at_once_and_both_land() {
    let (mut shares, mut overlaps, mut dups) = (Vec::new(), Vec::new(), Vec::new());
    for (seed, r) in (1..).zip(runs_over_seeds("two-attempts-of-the-same-activity")) {
        let a = activities(&r, ACTIVITY_CRASH_MS);
        // About one activity in five runs more than once ...
        assert!(
            (0.10..=0.40).contains(&a.retried_share),
            "seed {seed}: {:.3} retried",
            a.retried_share
        );
        // ... the later attempts beside the timed-out one, both landing ...
        assert!(
            a.overlapping >= 5,
            "seed {seed}: {} overlapping",
            a.overlapping
        );
        assert!(
            a.duplicates >= 5,
            "seed {seed}: {} duplicates",
            a.duplicates
        );
        assert!(
            (2..=5).contains(&a.most_at_once),
            "seed {seed}: {}",
            a.most_at_once
        );
        // ... each after the retry policy's own interval: attempt n's
        // timeout is followed by attempt n + 1 after min(1 s x 2^(n-1), 100 s).
        assert!(!a.retry_waits.is_empty());
        for &(n, wait) in &a.retry_waits {
            let policy = (1_000u64 << (n - 1).min(20)).min(100_000);
            assert_eq!(wait, policy, "seed {seed}: after attempt {n}");
        }
        // The crashed worker's activities wait out StartToClose (2.5 min)
        // and then their attempt's retry interval (100 s at most): at most
        // 236.5 s over seeds 1 to 20.
        assert!(
            a.crash_to_retry <= 250_000,
            "seed {seed}: {}",
            a.crash_to_retry
        );
        shares.push(a.retried_share);
        overlaps.push(a.overlapping as f64);
        dups.push(a.duplicates as f64);
    }
    // Over seeds 1 to 20: 0.215 of the activities, 37.9 overlapping runs
    // and 45.9 duplicate effects an hour.
    assert!((0.19..=0.24).contains(&mean(&shares)), "{shares:?}");
    assert!((33.0..=43.0).contains(&mean(&overlaps)), "{overlaps:?}");
    assert!((40.0..=52.0).contains(&mean(&dups)), "{dups:?}");
}

#[test]
fn scenario_13_fix_heartbeat_timeout_runs_each_activity_once_and_finds_a_crash_in_half_a_minute() {
    let mut found = 0;
    for (seed, r) in (1..).zip(runs_over_seeds(
        "two-attempts-of-the-same-activity-heartbeat",
    )) {
        let a = activities(&r, ACTIVITY_CRASH_MS);
        // No attempt times out while it works: no second attempt beside it.
        assert_eq!(a.overlapping, 0, "seed {seed}");
        assert_eq!(a.duplicates, 0, "seed {seed}");
        assert!(a.retry_waits.is_empty(), "seed {seed}: {:?}", a.retry_waits);
        assert_eq!(r.report.totals.extensions_rejected, 0, "seed {seed}");
        // Only the crashed worker's activities run again: within the 30 s
        // HeartbeatTimeout and the 1 s retry of the crash, not 2.5 minutes.
        let again = r.messages.iter().filter(|m| m.receive_count >= 2).count();
        assert!(again <= 2, "seed {seed}: {again} run again");
        assert!(
            a.crash_to_retry <= 31_000,
            "seed {seed}: {}",
            a.crash_to_retry
        );
        found += usize::from(a.crash_to_retry > 0);
    }
    // On 11 of the 20 seeds the crashed worker held an activity.
    assert!(found >= 10, "{found} of 20");
}

/// RabbitMQ 4.2's consumer timeout and channel tick.
const CONSUMER_TIMEOUT_MS: u64 = 1_800_000;
const CHANNEL_TICK_MS: u64 = 60_000;

#[test]
fn scenario_14_one_slow_consumer_requeues_its_whole_channel() {
    use lease_sim::run::Outcome;
    use std::collections::BTreeMap;
    let mut taken_with = Vec::new();
    for (seed, r) in (1..).zip(runs_over_seeds(
        "one-slow-consumer-requeues-its-whole-channel",
    )) {
        // Every expiry belongs to a channel closure: the deliveries one
        // worker held, taken back at one instant.
        let mut closures: BTreeMap<(u64, u32), Vec<usize>> = BTreeMap::new();
        for (i, d) in r.deliveries.iter().enumerate() {
            if d.lease_end == LeaseEnd::Expired {
                closures
                    .entry((d.lease_ended_at, d.worker))
                    .or_default()
                    .push(i);
            }
        }
        // The 40-minute export passes 30 minutes three times in two hours.
        assert_eq!(closures.len(), 3, "seed {seed}: {closures:?}");
        let mut others = 0;
        let mut running = 0;
        for ((at, _), ds) in &closures {
            let export: Vec<_> = ds
                .iter()
                .filter(|&&i| r.deliveries[i].message == 0)
                .collect();
            assert_eq!(export.len(), 1, "seed {seed} at {at}: the export closes it");
            let held = at - r.deliveries[*export[0]].received_at;
            // Taken back on the first tick past the timeout.
            assert!(
                (CONSUMER_TIMEOUT_MS..CONSUMER_TIMEOUT_MS + CHANNEL_TICK_MS).contains(&held),
                "seed {seed}: the export held {held} ms"
            );
            for &i in ds.iter().filter(|&&i| r.deliveries[i].message != 0) {
                let d = &r.deliveries[i];
                // Within its own lease: taken back with the channel.
                assert!(at - d.received_at < CONSUMER_TIMEOUT_MS, "seed {seed}");
                // Redelivered: a later receipt of the same message.
                let m = &r.messages[d.message as usize];
                assert!(m.receive_count > d.receipt, "seed {seed}: {d:?}");
                // Its run goes on (or starts from the buffer) and its ack
                // names a tag the closed channel no longer knows.
                assert!(
                    matches!(d.outcome, Outcome::AckRejected | Outcome::Unfinished),
                    "seed {seed}: {d:?}"
                );
                others += 1;
                running += usize::from(d.started_at.is_some_and(|s| s <= *at));
            }
        }
        assert!(
            (3..=8).contains(&others),
            "seed {seed}: {others} taken with it"
        );
        assert!(running >= 2, "seed {seed}: {running} running when taken");
        taken_with.push(others as f64);
    }
    // Over seeds 1 to 20: 5.3 neighbours taken back with the export.
    assert!((mean(&taken_with) - 5.3).abs() < 0.01, "{taken_with:?}");
    // The fix: a consumer timeout above the longest job.
    for (seed, r) in (1..).zip(runs_over_seeds(
        "one-slow-consumer-requeues-its-whole-channel-consumer-timeout",
    )) {
        let t = &r.report.totals;
        assert_eq!(
            (t.expiries, t.redeliveries, t.acks_rejected),
            (0, 0, 0),
            "seed {seed}"
        );
        assert_eq!(t.duplicate_effects + t.lost_updates, 0, "seed {seed}");
        let export = &r.messages[0];
        assert_eq!(export.deliveries.len(), 1, "seed {seed}");
        assert_eq!(
            r.deliveries[export.deliveries[0] as usize].outcome,
            Outcome::Acked,
            "seed {seed}"
        );
    }
}

#[test]
fn scenario_15_forty_redeliveries_of_a_message_that_never_left_the_buffer() {
    let mut counts = Vec::new();
    let mut quiet = 0u32;
    for (seed, r) in (1..).zip(runs_over_seeds(
        "forty-redeliveries-of-a-message-that-never-left-the-buffer",
    )) {
        // The first job keeps its delivery by its in-progress acks.
        let first = &r.deliveries[r.messages[0].deliveries[0] as usize];
        let done = first.ended_at.expect("the first job ends");
        assert_eq!(
            r.messages[0].fate,
            Fate::Deleted { at: done },
            "seed {seed}"
        );
        for m in 1..3usize {
            let ds: Vec<_> = r.messages[m]
                .deliveries
                .iter()
                .map(|&i| &r.deliveries[i as usize])
                .collect();
            let before: Vec<_> = ds.iter().filter(|d| d.received_at < done).collect();
            // Never started while the first ran, redelivered every 30 s.
            assert!(before
                .iter()
                .all(|d| d.started_at.is_none_or(|s| s >= done)));
            assert!(
                (34..=51).contains(&before.len()),
                "seed {seed} job {m}: {} deliveries",
                before.len()
            );
            counts.push(before.len() as f64 - 1.0);
        }
        // The handler then takes the second job's oldest copy ...
        let second = &r.messages[1];
        assert_eq!(
            r.deliveries[second.deliveries[0] as usize].started_at,
            Some(done),
            "seed {seed}"
        );
        // ... and later its next copy, though its ack settled it.
        let Fate::Deleted { at: settled } = second.fate else {
            panic!("seed {seed}: the second job is not settled");
        };
        // While it runs, its in-progress acks restart the timer of the
        // copy the server last handed out (nats-server `progressUpdate`
        // keys on the message): at most one more redelivery, before its
        // first in-progress ack 10 s in (none on 14 of the 20 seeds).
        let during = second
            .deliveries
            .iter()
            .filter(|&&i| (done..settled).contains(&r.deliveries[i as usize].received_at))
            .count();
        assert!(during <= 1, "seed {seed}: {during} deliveries while it ran");
        quiet += u32::from(during == 0);
        let again = r.deliveries[second.deliveries[1] as usize].started_at;
        assert!(again.is_some_and(|s| s > settled), "seed {seed}: {again:?}");
    }
    // Over seeds 1 to 20: 40.0 redeliveries of each waiting job (33 to 50).
    assert!((mean(&counts) - 40.0).abs() < 0.01, "{counts:?}");
    assert_eq!(quiet, 14);
    // The fix: MaxAckPending 1 leaves them in the stream.
    for (seed, r) in (1..).zip(runs_over_seeds(
        "forty-redeliveries-of-a-message-that-never-left-the-buffer-max-ack-pending",
    )) {
        let t = &r.report.totals;
        assert_eq!(
            (t.deliveries, t.redeliveries, t.expiries, t.deleted),
            (3, 0, 0, 3),
            "seed {seed}"
        );
    }
}

/// The acks that settled a message while a later copy of it was running:
/// (the acked delivery, the running copy).
fn settled_under_another(r: &Run) -> Vec<(usize, usize)> {
    use lease_sim::run::Outcome;
    let mut out = Vec::new();
    for m in &r.messages {
        let Fate::Deleted { at } = m.fate else {
            continue;
        };
        let Some(&acked) = m
            .deliveries
            .iter()
            .find(|&&i| r.deliveries[i as usize].outcome == Outcome::Acked)
        else {
            continue;
        };
        let a = &r.deliveries[acked as usize];
        for &i in &m.deliveries {
            let d = &r.deliveries[i as usize];
            let running = d.started_at.is_some_and(|s| s < at) && d.ended_at.is_none_or(|e| e > at);
            if d.receipt > a.receipt && running {
                out.push((acked as usize, i as usize));
            }
        }
    }
    out
}

#[test]
fn scenario_16_the_late_ack_that_settled_someone_else_s_run() {
    use lease_sim::run::{Effect, Outcome};
    let mut settled = Vec::new();
    for (seed, r) in (1..).zip(runs_over_seeds(
        "the-late-ack-that-settled-someone-else-s-run",
    )) {
        let pairs = settled_under_another(&r);
        assert!(
            (23..=39).contains(&pairs.len()),
            "seed {seed}: {} settled under another run",
            pairs.len()
        );
        for &(a, b) in &pairs {
            // The settling ack came from a delivery past its AckWait,
            // accepted late.
            assert_eq!(
                r.deliveries[a].lease_end,
                LeaseEnd::AckedLate,
                "seed {seed}"
            );
            // The copy still running finds its message already settled:
            // JetStream answers its ack as a success with nothing to settle.
            // Its write lands over the first from what it read before it.
            let d = &r.deliveries[b];
            assert!(
                matches!(d.outcome, Outcome::AckNoOp | Outcome::Unfinished),
                "seed {seed}: {d:?}"
            );
            if d.outcome == Outcome::AckNoOp {
                assert_eq!(d.effect, Effect::LostUpdate, "seed {seed}: {d:?}");
            }
        }
        settled.push(pairs.len() as f64);
    }
    // Over seeds 1 to 20: 30.9 runs an hour whose message another's late
    // ack settled.
    assert!((mean(&settled) - 30.9).abs() < 0.01, "{settled:?}");
    // The fix: in-progress acks every 10 s keep each job's delivery.
    for (seed, r) in (1..).zip(runs_over_seeds(
        "the-late-ack-that-settled-someone-else-s-run-in-progress",
    )) {
        let t = &r.report.totals;
        assert_eq!(
            (t.expiries, t.redeliveries, t.acks_rejected, t.lost_updates),
            (0, 0, 0, 0),
            "seed {seed}"
        );
        assert!(settled_under_another(&r).is_empty(), "seed {seed}");
    }
}
