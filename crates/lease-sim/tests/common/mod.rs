//! Small scenarios for the rule tests: a JSON base that each test patches,
//! run with every invariant checked after every event.
#![allow(dead_code)]

use lease_sim::run::{Event, EventKind, Run};
use lease_sim::{parse_scenario, simulate, Options, Scenario};
use serde_json::{json, Value};

/// One message of 1 s constant work, one worker, 30 s timeout, no arrivals.
pub fn base() -> Value {
    json!({
        "name": "rule",
        "seed": 1,
        "duration_ms": 600000,
        "broker": { "visibility_timeout_ms": 30000, "max_receive_count": null },
        "workers": { "count": 1, "concurrency": 1, "heartbeat": null },
        "work": { "dist": "constant", "ms": 1000 },
        "arrivals": { "backlog": 1, "rate_per_s": 0.0 },
        "store": { "fence": "none" }
    })
}

/// JSON merge patch (RFC 7386): objects merge, everything else replaces.
pub fn patch(base: &mut Value, p: Value) {
    match (base, p) {
        (Value::Object(b), Value::Object(p)) => {
            for (k, v) in p {
                if v.is_object() && b.get(k.as_str()).is_some_and(Value::is_object) {
                    patch(b.get_mut(k.as_str()).unwrap(), v);
                } else {
                    b.insert(k, v);
                }
            }
        }
        (b, p) => *b = p,
    }
}

pub fn scenario(p: Value) -> Scenario {
    let mut v = base();
    patch(&mut v, p);
    parse_scenario(&v.to_string()).unwrap_or_else(|e| panic!("bad test scenario: {e}"))
}

pub fn run_checked(s: &Scenario) -> Run {
    simulate(
        s,
        &Options {
            check_invariants: true,
            ..Options::default()
        },
    )
    .unwrap_or_else(|e| panic!("{e}"))
}

pub fn run(p: Value) -> Run {
    run_checked(&scenario(p))
}

/// (t, message, worker, receipt) of every event of one kind.
pub fn of(run: &Run, kind: EventKind) -> Vec<(u64, u32, u32, u32)> {
    run.events
        .iter()
        .filter(|e| e.kind == kind)
        .map(|e: Event| (e.t, e.message, e.worker, e.receipt))
        .collect()
}

pub fn times(run: &Run, kind: EventKind) -> Vec<u64> {
    of(run, kind).into_iter().map(|e| e.0).collect()
}
