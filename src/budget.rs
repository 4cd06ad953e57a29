//! How large a run the page computes on its main thread. Every slider move
//! re-simulates at once, so a run that would take more than a fraction of a
//! second is refused up front, with what to reduce, instead of freezing the
//! tab. The engine's own limits (`lease_sim::validate`) are far larger: the
//! command line runs what the page refuses.

use lease_sim::validate::thousands;
use lease_sim::{estimate, Options, Scenario};

/// Messages the page simulates at most (backlog plus expected arrivals).
pub const PAGE_MAX_MESSAGES: u64 = 100_000;
/// Log entries at most, by the engine's upper-bound estimate.
pub const PAGE_MAX_EVENTS: u64 = 3_000_000;

/// How the page runs a scenario: with its own cap on the log, so that a run
/// the estimate let through can never grow past what the page can hold
/// (the engine then stops it and says so in `Run::stopped`).
pub fn options() -> Options {
    Options {
        max_events: Some(PAGE_MAX_EVENTS),
        ..Options::default()
    }
}

/// `Err` says, in a sentence, why the page will not run `s` and what to change.
pub fn check(s: &Scenario) -> Result<(), String> {
    let e = estimate(s);
    if e.messages > PAGE_MAX_MESSAGES {
        return Err(format!(
            "this run would have about {} messages, and the page computes at most {} at a time. \
             Lower “Arrival rate”, “Run length” or “Backlog at start”, or run the scenario with the \
             command line (lease-sim run).",
            thousands(e.messages),
            thousands(PAGE_MAX_MESSAGES)
        ));
    }
    if e.events > PAGE_MAX_EVENTS {
        return Err(format!(
            "this run could log up to {} events, and the page computes at most {} at a time. \
             Lengthen “Heartbeat interval”, shorten “Run length”, or use fewer workers, or run the \
             scenario with the command line (lease-sim run).",
            thousands(e.events),
            thousands(PAGE_MAX_EVENTS)
        ));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use lease_sim::scenario::Heartbeat;

    #[test]
    fn every_shipped_scenario_fits_the_page() {
        for s in lease_sim::shipped::all() {
            assert_eq!(check(&s.scenario), Ok(()), "{}", s.name);
        }
    }

    #[test]
    fn a_ten_million_message_backlog_is_refused_with_what_to_lower() {
        let mut s = Scenario::default();
        s.arrivals.backlog = 10_000_000;
        s.arrivals.rate_per_s = 0.0;
        let why = check(&s).unwrap_err();
        assert!(why.contains("10,000,000 messages"), "{why}");
        assert!(why.contains("Backlog at start"), "{why}");
    }

    #[test]
    fn a_heartbeat_every_millisecond_for_hours_is_refused() {
        let mut s = Scenario {
            duration_ms: 4 * 3_600_000,
            ..Default::default()
        };
        s.workers.count = 64;
        s.arrivals.backlog = 64;
        s.work.dist = lease_sim::scenario::Dist::Constant { ms: 4 * 3_600_000 };
        s.workers.heartbeat = Some(Some(Heartbeat {
            interval_ms: 1,
            extend_by_ms: None,
            max_extensions: None,
            on_reject: Default::default(),
        }));
        let why = check(&s).unwrap_err();
        assert!(why.contains("Heartbeat interval"), "{why}");
    }
}
