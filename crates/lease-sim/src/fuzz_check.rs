//! The one path every fuzz input takes, shared by the `cargo fuzz` targets
//! (fuzz/, nightly) and the stable regression test `tests/fuzz_regressions.rs`
//! (which replays the kept corpus and every crash the fuzzer found), so that a
//! replay checks exactly what the fuzzer checked.
//!
//! A crash is a panic (in parsing, validation, simulation or the run's
//! fingerprint) or a broken docs/MODEL.md invariant (`SimError::Invariant`), the two
//! things that would kill or corrupt the page.
//!
//! Each input is kept small: the run stops at `until_ms`, chosen so that the
//! estimate of the truncated run stays within `EVENT_BUDGET` events. Whether
//! big runs fit in memory and time is the size budget's concern (`estimate`,
//! `check_size`, `MAX_EVENTS`), tested on its own; the fuzzer wants many
//! small, varied runs, and checking invariants after every event costs time
//! proportional to the messages so far, so a long run would take seconds.

use crate::scenario::Scenario;
use crate::{estimate, parse_scenario, simulate, Options, SimError};

/// Upper bound (by `estimate`) on the events of one fuzzed run.
pub const EVENT_BUDGET: u64 = 2_000;

/// When to stop a run so that its estimate fits the budget; `None`: not even
/// the first millisecond fits (a huge backlog), so the input is not run.
pub fn bounded_until(s: &Scenario) -> Option<u64> {
    let mut t = s.clone();
    let mut until = s.duration_ms;
    loop {
        t.duration_ms = until;
        if estimate(&t).events <= EVENT_BUDGET {
            return Some(until);
        }
        if until <= 1 {
            return None;
        }
        until /= 4;
    }
}

/// Parse the text as a scenario and, if it is valid, run it (bounded) with
/// every invariant checked. Panics on any crash.
pub fn check_text(text: &str) {
    let parsed = parse_scenario(text);
    // The error's messages are what the page shows: they must format.
    let scenario = match parsed {
        Ok(s) => s,
        Err(e) => {
            let _ = e.to_string();
            let _ = e.field();
            return;
        }
    };
    let _ = crate::parse::unknown_fields(text, &scenario);
    check_scenario(&scenario);
}

/// Run a valid scenario, bounded, with invariants checked after every event.
pub fn check_scenario(s: &Scenario) {
    let Some(until) = bounded_until(s) else {
        return;
    };
    let options = Options {
        until_ms: Some(until),
        check_invariants: true,
        // The engine's own budget (its estimate, `MAX_EVENTS`) still applies.
        ..Options::default()
    };
    match simulate(s, &options) {
        Ok(run) => {
            assert!(run.end_ms <= until, "run ended at {} > {until}", run.end_ms);
            assert!(
                run.events.ts().windows(2).all(|w| w[0] <= w[1]),
                "event log out of time order"
            );
            let _ = run.log_hash();
        }
        Err(SimError::Invariant { t, what }) => {
            panic!("invariant broken at t={t} ms: {what}")
        }
        // A valid scenario may still stop as too large at run time; not a crash.
        Err(SimError::TooLarge { .. }) => {}
        Err(e @ SimError::Invalid { .. }) => {
            panic!("parse_scenario accepted what simulate refuses: {e}")
        }
    }
}
