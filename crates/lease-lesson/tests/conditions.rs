//! A condition reads the figure the report gives under its name and the
//! value the field's slider shows: checked against the report's own JSON
//! and the engine's effective timeout for any threshold.

use std::sync::OnceLock;

use lease_lesson::goal::figures;
use lease_lesson::{Condition, Unit};
use lease_sim::validate::effective_visibility_timeout_ms;
use lease_sim::{shipped, simulate, Options, Run, Scenario};
use proptest::prelude::*;

fn clip_surge() -> &'static (Scenario, Run) {
    static RUN: OnceLock<(Scenario, Run)> = OnceLock::new();
    RUN.get_or_init(|| {
        let s = shipped::find("clip-surge").expect("shipped").scenario;
        let r = simulate(&s, &Options::default()).expect("runs");
        (s, r)
    })
}

fn parse(text: &str) -> Condition {
    match Condition::parse(text) {
        Ok(c) => c,
        Err(e) => panic!("{text}: {e}"),
    }
}

/// A comparison as a lesson writes it, and what it means.
type Comparison = (&'static str, fn(f64, f64) -> bool);

const OPS: [Comparison; 6] = [
    ("==", |a, b| a == b),
    ("!=", |a, b| a != b),
    ("<", |a, b| a < b),
    ("<=", |a, b| a <= b),
    (">", |a, b| a > b),
    (">=", |a, b| a >= b),
];

proptest! {
    #![proptest_config(ProptestConfig::with_cases(300))]

    /// Every total compared with any threshold holds exactly when the
    /// report's JSON says so.
    #[test]
    fn a_total_holds_as_the_reports_json_compares(
        which in 0usize..27,
        op in 0usize..6,
        near in -3i64..3,
        pick_value in any::<bool>(),
        far in 0u64..2_000_000,
    ) {
        let (s, run) = clip_surge();
        let totals = serde_json::to_value(&run.report.totals).expect("serializes");
        let f = figures().nth(which).expect("27 totals");
        let Some(v) = totals[f.name].as_u64() else {
            panic!("{} is not in the report's totals", f.name)
        };
        // Near the run's value (where off-by-one errors live), or anywhere.
        let n = if pick_value { v.saturating_add_signed(near) } else { far };
        let written = match f.unit {
            Unit::Ms => format!("{n}ms"),
            _ => n.to_string(),
        };
        let (word, cmp) = OPS[op];
        let c = parse(&format!("{} {word} {written}", f.name));
        prop_assert_eq!(c.holds(s, run), cmp(v as f64, n as f64), "{} = {}", f.name, v);
    }

    /// `timeout` reads the timeout the broker runs with, the preset's
    /// default included, in whichever unit the lesson writes it.
    #[test]
    fn the_timeout_compares_as_the_effective_timeout(
        // The preset's default and the explicit 45 s themselves, where a
        // wrong comparison shows, or anywhere.
        secs in prop_oneof![Just(30u64), Just(45u64), 1u64..600],
        op in 0usize..6, explicit in any::<bool>()) {
        let (base, run) = clip_surge();
        let mut s = base.clone();
        // Left to the broker preset, or set in the file.
        s.broker.visibility_timeout_ms = explicit.then_some(45_000);
        let (word, cmp) = OPS[op];
        let effective = effective_visibility_timeout_ms(&s) as f64;
        for written in [format!("{secs}s"), format!("{}ms", secs * 1000)] {
            let c = parse(&format!("visibility_timeout {word} {written}"));
            prop_assert_eq!(c.holds(&s, run), cmp(effective, (secs * 1000) as f64), "{}", written);
        }
    }
}

#[test]
fn the_figures_are_the_reports_totals_and_then_its_measures() {
    let (_, run) = clip_surge();
    let totals = serde_json::to_value(&run.report.totals).expect("serializes");
    let names: Vec<&str> = figures().map(|f| f.name).collect();
    let keys: Vec<&str> = totals
        .as_object()
        .expect("an object")
        .keys()
        .map(String::as_str)
        .collect();
    assert_eq!(
        names[..keys.len()],
        keys[..],
        "every total, in the report's order"
    );
    assert_eq!(
        names[keys.len()..],
        [
            "ack_latency_p50",
            "ack_latency_p99",
            "ack_latency_p99_over_timeout",
            "work_median",
            "work_p99"
        ]
    );
}
