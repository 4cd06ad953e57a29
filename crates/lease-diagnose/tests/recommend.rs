//! The recommendation (docs/MODEL.md "The recommendation"), checked against
//! an independent brute-force sweep: a fine grid of timeouts, every point
//! over the same seeds, each judged from the full run's totals with the
//! bound written out here.

use lease_diagnose::recommend::{mean_and_upper, t95};
use lease_diagnose::{recommend, run_seed, Candidate, Search, Targets};
use lease_sim::scenario::{Client, Library, Scenario};
use lease_sim::{shipped, simulate, Options};

fn scenario(name: &str) -> Scenario {
    match shipped::find(name) {
        Some(s) => s.scenario,
        None => panic!("no shipped scenario {name}"),
    }
}

const SEEDS: u32 = 10;
/// Student's t, one-sided 95%, 9 degrees of freedom (printed tables).
const T_9: f64 = 1.8331;

fn targets(rate: f64) -> Targets {
    Targets {
        max_redelivery_rate: rate,
        max_recovery_ms: None,
        max_duplicate_rate: None,
    }
}

/// The upper bound of the redelivery rate at `timeout`, renewal off, from
/// full runs over the scenario's seed and the nine after it.
fn brute_upper(s: &Scenario, timeout: u64) -> f64 {
    let rates: Vec<f64> = (0..u64::from(SEEDS))
        .map(|i| {
            let mut x = s.clone();
            x.seed = s.seed.wrapping_add(i);
            x.broker.visibility_timeout_ms = Some(timeout);
            x.workers.heartbeat = Some(None);
            let run = match simulate(&x, &Options::default()) {
                Ok(r) => r,
                Err(e) => panic!("{timeout} ms: {e}"),
            };
            let t = &run.report.totals;
            t.redeliveries as f64 / t.arrived.max(1) as f64
        })
        .collect();
    let n = rates.len() as f64;
    let mean = rates.iter().sum::<f64>() / n;
    let sd = (rates.iter().map(|r| (r - mean).powi(2)).sum::<f64>() / (n - 1.0)).sqrt();
    mean + T_9 * sd / n.sqrt()
}

/// The recommended timeout meets the target by the brute force's own
/// judgement, 25% lower does not, and no point of a fine grid below that
/// meets it either.
fn check_against_brute_force(name: &str, rate: f64, grid: &[u64]) {
    let s = scenario(name);
    let rec = match recommend(&s, targets(rate), SEEDS) {
        Ok(r) => r,
        Err(e) => panic!("{name}: {e}"),
    };
    let Some(t) = rec.visibility_timeout_ms else {
        panic!("{name}: no timeout recommended: {}", rec.verdict);
    };
    assert!(rec.heartbeat.is_none(), "{name}: {rec:?}");
    let at = brute_upper(&s, t);
    assert!(at <= rate, "{name}: {t} ms has upper {at} > {rate}");
    let lower = t * 3 / 4;
    let below = brute_upper(&s, lower);
    assert!(
        below > rate,
        "{name}: {lower} ms has upper {below} <= {rate}"
    );
    for &g in grid.iter().filter(|&&g| g <= lower) {
        let u = brute_upper(&s, g);
        assert!(
            u > rate,
            "{name}: grid point {g} ms meets ({u}) below {lower} ms"
        );
    }
    assert_eq!(rec.window_ms.map(|w| w[0]), Some(t));
}

#[test]
fn the_recommended_timeout_meets_the_target_and_a_quarter_lower_does_not_clip_surge() {
    let grid: Vec<u64> = (5..=60).map(|s| s * 1_000).collect();
    check_against_brute_force("clip-surge", 0.02, &grid);
}

#[test]
fn the_recommended_timeout_meets_the_target_and_a_quarter_lower_does_not_dependency_slows() {
    let grid: Vec<u64> = (4..=60).map(|s| s * 1_000).collect();
    check_against_brute_force("dependency-slows-3x", 0.01, &grid);
}

#[test]
fn the_window_ends_at_the_recovery_target() {
    let s = scenario("dependency-slows-3x");
    let t = Targets {
        max_recovery_ms: Some(120_000),
        ..targets(0.01)
    };
    let rec = recommend(&s, t, SEEDS).unwrap_or_else(|e| panic!("{e}"));
    let w = rec.window_ms.unwrap_or_else(|| panic!("{rec:?}"));
    assert_eq!(w[1], 120_000);
    assert!(rec
        .points
        .iter()
        .any(|p| p.candidate.timeout_ms == 120_000 && p.meets));
}

#[test]
fn a_recovery_target_below_every_static_timeout_gets_a_heartbeat() {
    let s = scenario("clip-surge");
    let t = Targets {
        max_recovery_ms: Some(15_000),
        ..targets(0.02)
    };
    let rec = recommend(&s, t, SEEDS).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(rec.window_ms, None, "{}", rec.verdict);
    let h = rec
        .heartbeat
        .clone()
        .unwrap_or_else(|| panic!("{}", rec.verdict));
    assert_eq!(rec.visibility_timeout_ms, Some(15_000));
    assert_eq!(h.interval_ms, 5_000);
    assert_eq!(h.extend_by_ms, Some(15_000));
    let p = rec
        .points
        .iter()
        .find(|p| p.candidate.heartbeat.as_ref() == Some(&h))
        .unwrap_or_else(|| panic!("{rec:?}"));
    assert!(p.meets && p.redelivery_rate_upper <= 0.02, "{p:?}");
    assert!(
        rec.verdict
            .starts_with("No static timeout meets both targets"),
        "{}",
        rec.verdict
    );
    assert!(rec.rule_of_thumb.agrees, "{:?}", rec.rule_of_thumb);
}

#[test]
fn under_pubsubs_client_recovery_is_at_least_its_shortest_extension() {
    let mut s = scenario("dependency-slows-3x");
    s.workers.heartbeat = Some(None);
    s.workers.client = Some(Client {
        library: Library::Pubsub,
        ..Client::default()
    });
    let short = Candidate {
        timeout_ms: 3_000,
        heartbeat: None,
        lease_steps_ms: None,
    };
    assert_eq!(run_seed(&s, &short, s.seed).recovery_ms, 10_000);
    let long = Candidate {
        timeout_ms: 45_000,
        heartbeat: None,
        lease_steps_ms: None,
    };
    assert_eq!(run_seed(&s, &long, s.seed).recovery_ms, 45_000);
    let rec = recommend(
        &s,
        Targets {
            max_redelivery_rate: 0.01,
            max_recovery_ms: Some(5_000),
            max_duplicate_rate: None,
        },
        SEEDS,
    )
    .unwrap_or_else(|e| panic!("{e}"));
    assert!(
        rec.points
            .iter()
            .all(|p| p.candidate.heartbeat.is_none() && !p.meets),
        "no static timeout meets a 5 s recovery target under Pub/Sub's client, and no heartbeat is tried beside it"
    );
    assert!(
        rec.verdict.contains("client library manages the lease"),
        "{}",
        rec.verdict
    );
    assert_eq!(rec.window_ms, None);
    assert!(rec.verdict.contains("up to 10 s"), "{}", rec.verdict);
}

#[test]
fn the_rule_of_thumb_is_always_filled() {
    let s = scenario("dependency-slows-3x");
    let rec = recommend(&s, targets(0.01), SEEDS).unwrap_or_else(|e| panic!("{e}"));
    let r = &rec.rule_of_thumb;
    // The stated p99 of 20 s, slowed three times by the dependency.
    assert_eq!(r.p99_ms, 60_000);
    assert_eq!(r.window_ms, [90_000, 120_000]);
    assert!(r.p99_over_timeout.is_some());
    assert!(!r.words.is_empty());
}

#[test]
fn under_lambda_the_rule_of_thumb_names_six_times_the_function_timeout() {
    let mut s = scenario("dependency-slows-3x");
    s.workers.client = Some(Client {
        library: Library::SqsLambda,
        function_timeout_ms: Some(40_000),
        ..Client::default()
    });
    let rec = recommend(&s, targets(0.01), SEEDS).unwrap_or_else(|e| panic!("{e}"));
    let r = &rec.rule_of_thumb;
    assert_eq!(r.lambda_minimum_ms, Some(240_000));
    assert!(r.words.contains("Lambda's rule"), "{}", r.words);
    assert!(r.words.contains("4 min"), "{}", r.words);
    if let Some(t) = rec.visibility_timeout_ms {
        let says = if t >= 240_000 {
            "meets it"
        } else {
            "is below it"
        };
        assert!(r.words.contains(says), "{t}: {}", r.words);
        if t < 240_000 {
            assert!(!r.agrees, "a timeout below Lambda's minimum does not agree");
        }
    }
    let without = recommend(&scenario("dependency-slows-3x"), targets(0.01), SEEDS).unwrap();
    assert_eq!(without.rule_of_thumb.lambda_minimum_ms, None);
    assert!(!without.rule_of_thumb.words.contains("Lambda"));
}

#[test]
fn too_few_messages_for_the_target_rate_are_said_in_the_verdict() {
    // One message a seed: twenty over twenty seeds show a rate no lower than
    // about 3 in 20, far above a target of 1%.
    let few = recommend(&scenario("ninety-second-message"), targets(0.01), 20)
        .unwrap_or_else(|e| panic!("{e}"));
    assert!(
        few.verdict
            .contains("Beware: only 20 messages arrived over 20 seeds"),
        "{}",
        few.verdict
    );
    assert!(
        few.verdict.contains("about 300 messages"),
        "{}",
        few.verdict
    );
    let many = recommend(&scenario("clip-surge"), targets(0.01), SEEDS).unwrap();
    assert!(!many.verdict.contains("Beware"), "{}", many.verdict);
}

#[test]
fn bad_targets_are_errors_naming_the_target() {
    let s = scenario("clip-surge");
    let cases = [
        (
            targets(-0.1),
            SEEDS,
            "max_redelivery_rate",
            "--max-redelivery-rate",
        ),
        (
            targets(f64::NAN),
            SEEDS,
            "max_redelivery_rate",
            "--max-redelivery-rate",
        ),
        (
            targets(1.5),
            SEEDS,
            "max_redelivery_rate",
            "--max-redelivery-rate",
        ),
        (
            Targets {
                max_duplicate_rate: Some(2.0),
                ..targets(0.01)
            },
            SEEDS,
            "max_duplicate_rate",
            "--max-duplicate-rate",
        ),
        (
            Targets {
                max_duplicate_rate: Some(-1.0),
                ..targets(0.01)
            },
            SEEDS,
            "max_duplicate_rate",
            "--max-duplicate-rate",
        ),
        (
            Targets {
                max_recovery_ms: Some(0),
                ..targets(0.01)
            },
            SEEDS,
            "max_recovery_ms",
            "--max-recovery",
        ),
        (targets(0.01), 0, "seeds", "--seeds"),
        (targets(0.01), 1, "seeds", "--seeds"),
    ];
    for (t, seeds, target, flag) in cases {
        let e = match Search::new(&s, t.clone(), seeds) {
            Err(e) => e,
            Ok(_) => panic!("{t:?} with {seeds} seeds was accepted"),
        };
        assert_eq!(e.target, target);
        assert_eq!(e.flag(), flag);
        assert!(e.to_string().starts_with(target), "{e}");
    }
}

#[test]
fn the_search_survives_a_round_trip_between_steps() {
    let s = scenario("dependency-slows-3x");
    let mut direct = Search::new(&s, targets(0.01), 3).unwrap_or_else(|e| panic!("{e}"));
    let mut kept = direct.clone();
    let mut steps = 0;
    while let Some(c) = direct.next_candidate() {
        assert_eq!(kept.next_candidate(), Some(c.clone()));
        let results: Vec<_> = direct
            .seeds_of()
            .iter()
            .map(|&x| run_seed(&s, &c, x))
            .collect();
        direct.feed(results.clone());
        let json = serde_json::to_string(&kept).unwrap_or_default();
        kept = serde_json::from_str(&json).unwrap_or_else(|e| panic!("{e}: {json}"));
        kept.feed(results);
        steps += 1;
        assert!(steps < 60, "the search does not end");
    }
    assert_eq!(kept.next_candidate(), None);
    assert_eq!(kept.result(), direct.result());
}

#[test]
fn a_seed_result_counts_the_same_as_the_full_run() {
    let s = scenario("clip-surge");
    let c = Candidate {
        timeout_ms: 20_000,
        heartbeat: None,
        lease_steps_ms: None,
    };
    let r = run_seed(&s, &c, 11);
    let full = simulate(&c.apply(&s, 11), &Options::default()).unwrap_or_else(|e| panic!("{e}"));
    let t = &full.report.totals;
    assert_eq!(
        (
            r.arrived,
            r.redeliveries,
            r.duplicate_effects,
            r.recovery_ms
        ),
        (t.arrived, t.redeliveries, t.duplicate_effects, 20_000)
    );
}

#[test]
fn the_bound_is_mean_plus_t_times_the_standard_error() {
    assert!((t95(1) - 6.3138).abs() < 1e-4);
    assert!((t95(19) - 1.7291).abs() < 1e-4);
    // Beyond the table: t(0.95, 40) = 1.6839, t(0.95, 120) = 1.6577.
    assert!((t95(40) - 1.6839).abs() < 1e-3, "{}", t95(40));
    assert!((t95(120) - 1.6577).abs() < 1e-3, "{}", t95(120));
    let (m, u) = mean_and_upper(&[1.0, 2.0, 3.0]);
    assert!((m - 2.0).abs() < 1e-12);
    // s = 1, n = 3, t(0.95, 2) = 2.9200.
    assert!((u - (2.0 + 2.92 / 3f64.sqrt())).abs() < 1e-4, "{u}");
}

#[test]
fn the_search_starts_at_the_median_and_every_candidate_runs_over_the_same_seeds() {
    let s = scenario("clip-surge");
    let search = Search::new(&s, targets(0.01), 4).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(
        search.seeds_of(),
        vec![s.seed, s.seed + 1, s.seed + 2, s.seed + 3]
    );
    assert_eq!(
        search.next_candidate(),
        Some(Candidate {
            timeout_ms: 8_000,
            heartbeat: None,
            lease_steps_ms: None,
        })
    );
    let mut search = search;
    let c = search
        .next_candidate()
        .unwrap_or_else(|| panic!("a first candidate"));
    let results: Vec<_> = search
        .seeds_of()
        .iter()
        .map(|&x| run_seed(&s, &c, x))
        .collect();
    assert_eq!(
        results.iter().map(|r| r.seed).collect::<Vec<_>>(),
        search.seeds_of()
    );
    search.feed(results);
    let next = search
        .next_candidate()
        .unwrap_or_else(|| panic!("a second candidate"));
    assert_eq!(next.timeout_ms, 16_000);
    assert_eq!(
        search.seeds_of(),
        vec![s.seed, s.seed + 1, s.seed + 2, s.seed + 3]
    );
}

// --- every preset ------------------------------------------------------------

/// A small scenario under `preset`: 200 messages of log-normal work
/// (median 5 s, p99 40 s) over ten minutes, four workers.
fn under(preset: lease_sim::scenario::Preset) -> Scenario {
    let mut s = scenario("sub-second-work");
    s.name = format!("{preset:?}");
    s.broker = lease_sim::scenario::Broker {
        preset,
        ..Default::default()
    };
    if preset == lease_sim::scenario::Preset::TemporalActivity {
        s.broker.visibility_timeout_ms = Some(60_000);
    }
    s.duration_ms = 600_000;
    s.work.dist = lease_sim::scenario::Dist::Lognormal {
        median_ms: 5_000.0,
        p99_ms: 40_000.0,
    };
    s.arrivals.rate_per_s = 0.3;
    s.arrivals.backlog = 0;
    s
}

fn with_recovery(rate: f64, recovery_ms: u64) -> Targets {
    Targets {
        max_redelivery_rate: rate,
        max_recovery_ms: Some(recovery_ms),
        max_duplicate_rate: None,
    }
}

#[test]
fn recommend_under_sidekiq_pro_says_there_is_no_lease_to_choose_and_runs_nothing() {
    let s = under(lease_sim::scenario::Preset::SidekiqPro);
    let rec = recommend(&s, targets(0.01), 3).expect("searches");
    assert!(rec.points.is_empty(), "{:?}", rec.points);
    assert_eq!(rec.visibility_timeout_ms, None);
    assert_eq!(rec.heartbeat, None);
    assert!(
        rec.verdict
            .starts_with("There is no lease to choose under Sidekiq Pro"),
        "{}",
        rec.verdict
    );
}

#[test]
fn recommend_under_cloud_tasks_tries_no_dispatch_deadline_outside_fifteen_seconds_to_thirty_minutes(
) {
    let mut s = under(lease_sim::scenario::Preset::CloudTasks);
    // Work of a few hundred ms: without the floor the search halves far below 15 s.
    s.work.dist = lease_sim::scenario::Dist::Constant { ms: 300 };
    let rec = recommend(&s, targets(0.01), 3).expect("searches");
    assert!(!rec.points.is_empty());
    for p in &rec.points {
        let t = p.candidate.timeout_ms;
        assert!((15_000..=1_800_000).contains(&t), "{t} ms tried");
    }
    assert_eq!(rec.visibility_timeout_ms, Some(15_000), "{}", rec.verdict);
    assert!(
        rec.verdict.starts_with("Set the dispatch deadline to 15 s"),
        "{}",
        rec.verdict
    );
}

#[test]
fn recommend_proposes_no_heartbeat_where_the_client_cannot_extend() {
    use lease_sim::scenario::Preset;
    // A 30 s recovery target that no static timeout meets beside a 40 s p99.
    let t = with_recovery(0.001, 30_000);
    for (preset, says) in [
        (Preset::CeleryRedis, "Celery has no call"),
        (Preset::Rabbitmq42, "RabbitMQ has no call"),
    ] {
        let mut s = under(preset);
        // Celery with acks_late, so that a run longer than the timeout is
        // redelivered (acked as it starts, nothing is).
        s.workers.ack_at = Some(lease_sim::scenario::AckAt::AfterWork);
        let rec = recommend(&s, t.clone(), 3).expect("searches");
        assert!(
            rec.points.iter().all(|p| p.candidate.heartbeat.is_none()),
            "{preset:?}"
        );
        assert_eq!(rec.heartbeat, None);
        assert!(rec.verdict.contains(says), "{preset:?}: {}", rec.verdict);
    }
    let mut lambda = under(Preset::SqsStandard);
    lambda.workers.client = Some(Client {
        library: Library::SqsLambda,
        function_timeout_ms: Some(60_000),
        ..Client::default()
    });
    let rec = recommend(&lambda, t.clone(), 3).expect("searches");
    assert!(rec.points.iter().all(|p| p.candidate.heartbeat.is_none()));
    // Where the worker can extend, the fallback still tries a heartbeat.
    let rec = recommend(&under(Preset::SqsStandard), t, 3).expect("searches");
    assert!(rec.points.iter().any(|p| p.candidate.heartbeat.is_some()));
}

/// A person whose client has no extend call says so: under SQS, where the
/// fallback would try heartbeats, it tries none and says why; a preset's own
/// reason stands over theirs.
#[test]
fn a_client_the_person_says_cannot_extend_gets_no_heartbeat_fallback() {
    use lease_sim::scenario::Preset;
    let t = with_recovery(0.001, 30_000);
    let search_all = |s: &Scenario, search: Search| {
        let mut search = search;
        while let Some(c) = search.next_candidate() {
            let results = search
                .seeds_of()
                .into_iter()
                .map(|seed| run_seed(s, &c, seed))
                .collect();
            search.feed(results);
        }
        search.result()
    };
    let sqs = under(Preset::SqsStandard);
    let free = search_all(&sqs, Search::new(&sqs, t.clone(), 3).expect("a search"));
    assert!(
        free.points.iter().any(|p| p.candidate.heartbeat.is_some()),
        "unticked, the fallback tries a heartbeat"
    );
    let ticked = search_all(
        &sqs,
        Search::new(&sqs, t.clone(), 3)
            .expect("a search")
            .with_a_client_that_cannot_extend(),
    );
    assert!(ticked
        .points
        .iter()
        .all(|p| p.candidate.heartbeat.is_none()));
    assert_eq!(ticked.heartbeat, None);
    // No static timeout meets a 30 s recovery beside a 40 s p99: the
    // verdict says why no heartbeat stands in.
    assert!(
        ticked
            .verdict
            .contains("since your client has no call that extends the lease"),
        "{}",
        ticked.verdict
    );
    let mut celery = under(Preset::CeleryRedis);
    celery.workers.ack_at = Some(lease_sim::scenario::AckAt::AfterWork);
    let rec = search_all(
        &celery,
        Search::new(&celery, t, 3)
            .expect("a search")
            .with_a_client_that_cannot_extend(),
    );
    assert!(rec.points.iter().all(|p| p.candidate.heartbeat.is_none()));
    assert!(
        rec.verdict.contains("Celery has no call"),
        "{}",
        rec.verdict
    );
}

#[test]
fn recommend_under_bullmq_names_lock_duration_and_says_whether_renewal_covers_the_work() {
    let mut s = under(lease_sim::scenario::Preset::Bullmq);
    let rec = recommend(&s, targets(0.01), 3).expect("searches");
    assert!(
        rec.verdict.starts_with("Set lockDuration to"),
        "{}",
        rec.verdict
    );
    assert!(
        rec.verdict
            .contains("Renewal covers this work while the event loop is free"),
        "{}",
        rec.verdict
    );
    s.work.cpu_bound = true;
    let rec = recommend(&s, targets(0.01), 3).expect("searches");
    assert!(
        rec.verdict
            .contains("Renewal does not cover this work: the processor is CPU-bound"),
        "{}",
        rec.verdict
    );
}

#[test]
fn recommend_under_jetstream_gives_ack_wait_its_backoff_start_and_in_progress() {
    let rec = recommend(
        &under(lease_sim::scenario::Preset::NatsJetstream),
        targets(0.01),
        3,
    )
    .expect("searches");
    let t = lease_format::display::duration(rec.visibility_timeout_ms.expect("a timeout"));
    assert!(
        rec.verdict.starts_with(&format!("Set AckWait to {t}")),
        "{}",
        rec.verdict
    );
    assert!(
        rec.verdict.contains(&format!("start it at {t}")),
        "{}",
        rec.verdict
    );
    assert!(rec.verdict.contains("InProgress()"), "{}", rec.verdict);
}

#[test]
fn recommend_under_jetstream_runs_a_backoff_list_and_in_progress_acks_and_gives_their_figures() {
    // After AckWait is found, JetStream's two other levers are run over the
    // same seeds as candidates: a BackOff list starting at that AckWait
    // (then twice, four times it), and a short AckWait (the recovery
    // target) with an in-progress ack every third of it. Their figures in
    // the verdict are those runs' own.
    let s = under(lease_sim::scenario::Preset::NatsJetstream);
    let rec = recommend(&s, with_recovery(0.01, 20_000), 3).expect("searches");
    assert_eq!(rec.alternatives.len(), 2, "{:?}", rec.alternatives);
    let backoff = &rec.alternatives[0];
    let steps = backoff
        .candidate
        .lease_steps_ms
        .clone()
        .expect("a BackOff list");
    let t = backoff.candidate.timeout_ms;
    assert_eq!(steps, vec![t, 2 * t, 4 * t]);
    assert!(backoff.candidate.heartbeat.is_none());
    let progress = &rec.alternatives[1];
    assert_eq!(progress.candidate.timeout_ms, 20_000);
    let h = progress
        .candidate
        .heartbeat
        .clone()
        .expect("in-progress acks");
    assert_eq!(
        (h.interval_ms, h.extend_by_ms, h.max_extensions),
        (6_000, Some(20_000), None)
    );
    assert!(progress.candidate.lease_steps_ms.is_none());
    // Each figure is what running the candidate over each random seed of the search gives.
    for p in &rec.alternatives {
        let seeds: Vec<u64> = (0..3).map(|i| s.seed + i).collect();
        let runs: Vec<_> = seeds
            .iter()
            .map(|&k| run_seed(&s, &p.candidate, k))
            .collect();
        let rates: Vec<f64> = runs
            .iter()
            .map(|r| r.redeliveries as f64 / r.arrived.max(1) as f64)
            .collect();
        let (mean, upper) = mean_and_upper(&rates);
        assert!((p.redelivery_rate_mean - mean).abs() < 1e-12, "{p:?}");
        assert!((p.redelivery_rate_upper - upper).abs() < 1e-12, "{p:?}");
    }
    let d = lease_format::display::duration;
    let listed: Vec<String> = steps.iter().map(|&v| d(v)).collect();
    assert!(
        rec.verdict
            .contains(&format!("Run with BackOff [{}]", listed.join(", "))),
        "{}",
        rec.verdict
    );
    assert!(
        rec.verdict
            .contains("Run with AckWait 20 s and InProgress() every 6 s"),
        "{}",
        rec.verdict
    );
    // A slow handler holding its delivery by in-progress acks is not
    // redelivered: this candidate's bound is the lowest of the three.
    assert!(
        progress.redelivery_rate_upper <= backoff.redelivery_rate_upper,
        "{progress:?} {backoff:?}"
    );
    // The search state keeps them across a round trip.
    let mut search = Search::new(&s, with_recovery(0.01, 20_000), 3).unwrap();
    let mut tried = Vec::new();
    while let Some(c) = search.next_candidate() {
        tried.push(c.clone());
        let results = search
            .seeds_of()
            .iter()
            .map(|&k| run_seed(&s, &c, k))
            .collect();
        search.feed(results);
        search = serde_json::from_str(&serde_json::to_string(&search).unwrap()).unwrap();
    }
    assert_eq!(search.result(), rec);
    assert!(tried.ends_with(&[backoff.candidate.clone(), progress.candidate.clone()]));
    // Under any other preset nothing more is run.
    let other = recommend(
        &under(lease_sim::scenario::Preset::SqsStandard),
        targets(0.01),
        3,
    )
    .expect("searches");
    assert!(other.alternatives.is_empty());
}

#[test]
fn recommend_under_celery_holds_the_visibility_timeout_against_the_longest_eta() {
    let mut s = under(lease_sim::scenario::Preset::CeleryRedis);
    s.arrivals.eta_ms = 120_000;
    let rec = recommend(&s, targets(0.01), 3).expect("searches");
    assert!(
        rec.verdict
            .starts_with("Set the visibility_timeout (broker_transport_options) to"),
        "{}",
        rec.verdict
    );
    assert!(
        rec.verdict.contains("The longest ETA here is 2 min"),
        "{}",
        rec.verdict
    );
    // A lease that ends before the ETA, by more than the sweep that
    // restores it, puts the waiting task back: no such candidate meets.
    let sweep = lease_sim::resolve::CELERY_REDIS_RESTORE_SWEEP_MS;
    for p in &rec.points {
        if p.candidate.timeout_ms + sweep < 120_000 {
            assert!(!p.meets, "{} ms", p.candidate.timeout_ms);
        }
    }
    let t = rec.visibility_timeout_ms.expect("a timeout");
    assert!(t + sweep >= 120_000, "{t}");
    assert!(
        rec.verdict.contains("acked as it starts"),
        "{}",
        rec.verdict
    );
}

#[test]
fn every_preset_gets_an_answer_in_its_own_range() {
    for p in lease_sim::scenario::Preset::ALL {
        let rec = recommend(&under(p), targets(0.05), 2).expect("searches");
        let (lo, hi) = lease_diagnose::extend::timeout_range_ms(p);
        for pt in &rec.points {
            assert!(
                (lo..=hi).contains(&pt.candidate.timeout_ms),
                "{p:?}: {}",
                pt.candidate.timeout_ms
            );
        }
        assert!(!rec.verdict.is_empty(), "{p:?}");
    }
}
