//! The sweep shows the knee of a timeout table: lowering the clip surge's
//! timeout from 120 s to 10 s, completions per minute hold while the timeout
//! is above the work's tail, then fall, and overlapping runs rise.

use lease_diagnose::{sweep, sweep_csv, Param};
use lease_sim::shipped;

#[test]
fn lowering_the_clip_surge_timeout_shows_a_knee() {
    let Some(s) = shipped::find("clip-surge") else {
        panic!("clip-surge is shipped")
    };
    let rows = match sweep(&s.scenario, Param::Timeout, 120_000.0, 10_000.0, 40, false) {
        Ok(r) => r,
        Err(e) => panic!("{e}"),
    };
    println!("{}", sweep_csv(Param::Timeout, &rows));
    assert_eq!(rows.len(), 40);
    assert!(rows.iter().all(|r| r.skipped.is_none()));
    let top = rows[0].completions_per_min;
    // Above the tail (100 s and more): flat.
    for r in rows.iter().filter(|r| r.value >= 100_000.0) {
        assert!(
            (r.completions_per_min - top).abs() <= 0.02 * top,
            "not flat at {}: {} vs {top}",
            r.value,
            r.completions_per_min
        );
    }
    // Monotone-ish on the way down: never up by more than 5% between points.
    for w in rows.windows(2) {
        assert!(
            w[1].completions_per_min <= 1.05 * w[0].completions_per_min,
            "{} -> {}: {} -> {}",
            w[0].value,
            w[1].value,
            w[0].completions_per_min,
            w[1].completions_per_min
        );
    }
    // Below it: the drain rate collapses.
    let bottom = rows[rows.len() - 1].completions_per_min;
    assert!(bottom < 0.2 * top, "{bottom} vs {top}");
    // Overlapping runs: none at the top, many at the bottom; the lower
    // quarter of timeouts has far more than the upper quarter.
    assert_eq!(rows[0].overlapping_runs, 0);
    assert!(rows[rows.len() - 1].overlapping_runs >= 100);
    let q = rows.len() / 4;
    let upper: u64 = rows[..q].iter().map(|r| r.overlapping_runs).sum();
    let lower: u64 = rows[rows.len() - q..]
        .iter()
        .map(|r| r.overlapping_runs)
        .sum();
    assert!(lower > 4 * upper.max(1), "upper {upper}, lower {lower}");
    // Redeliveries rise the whole way down (ends compared).
    assert!(rows[rows.len() - 1].redeliveries > 10 * rows[0].redeliveries.max(1));
}

/// The sweep runs its points counters-only and, natively, across all cores;
/// its rows are those of full runs one after another, in the same order.
#[test]
fn the_sweep_gives_the_rows_of_full_runs_in_order() {
    use lease_diagnose::sweep::{recovery_ms, sweep_points};
    use lease_sim::{simulate, Options};
    for name in ["clip-surge", "five-minute-timeout-deploy"] {
        let Some(s) = shipped::find(name) else {
            panic!("{name} is shipped")
        };
        let rows = match sweep(&s.scenario, Param::Timeout, 120_000.0, 10_000.0, 9, false) {
            Ok(r) => r,
            Err(e) => panic!("{e}"),
        };
        let points = sweep_points(&s.scenario, Param::Timeout, 120_000.0, 10_000.0, 9, false);
        assert_eq!(rows.len(), points.len());
        for (row, &v) in rows.iter().zip(&points) {
            let mut x = s.scenario.clone();
            Param::Timeout.set(&mut x, v);
            let run = match simulate(&x, &Options::default()) {
                Ok(r) => r,
                Err(e) => panic!("{name} at {v}: {e}"),
            };
            let t = &run.report.totals;
            assert_eq!(row.value, v);
            assert_eq!(row.redeliveries, t.redeliveries, "{name} at {v}");
            assert_eq!(row.duplicate_effects, t.duplicate_effects, "{name} at {v}");
            assert_eq!(row.overlapping_runs, t.overlapping_runs, "{name} at {v}");
            let cpm = t.acks_ok as f64 * 60_000.0 / run.end_ms.max(1) as f64;
            assert_eq!(row.completions_per_min, cpm, "{name} at {v}");
            assert_eq!(
                row.recovery_ms,
                recovery_ms(&x, &run.report),
                "{name} at {v}"
            );
        }
    }
}
