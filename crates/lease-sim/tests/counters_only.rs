//! The counters-only run (docs/MODEL.md "The counters-only run"): the same
//! engine with its recording off reports exactly what the full run does.

use lease_sim::{run_totals, shipped, simulate, Options};

#[test]
fn the_counters_only_run_reports_what_the_full_run_does_for_every_shipped_scenario() {
    let all = shipped::all();
    assert!(all.len() > 10);
    for s in all {
        let full = match simulate(&s.scenario, &Options::default()) {
            Ok(r) => r,
            Err(e) => panic!("{}: {e}", s.name),
        };
        let counted = match run_totals(&s.scenario) {
            Ok(r) => r,
            Err(e) => panic!("{}: {e}", s.name),
        };
        assert_eq!(counted, full.report, "{}", s.name);
        assert!(counted.totals.events > 0, "{}", s.name);
    }
}

#[test]
fn the_counters_only_run_refuses_what_the_full_run_refuses() {
    let mut s = shipped::all()[0].scenario.clone();
    s.workers.count = 0;
    let full = simulate(&s, &Options::default()).map(|r| r.report);
    assert!(full.is_err());
    assert_eq!(run_totals(&s), full);
}
