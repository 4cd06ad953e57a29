//! Where the page computes a run. Every slider move re-simulates: a run the
//! engine's estimate calls small is computed at once on the page's own
//! thread, so the picture follows the hand; a larger one goes to the
//! background worker (`run_job.rs`), with a progress bar and cancel, so that
//! the page never stops answering; one past the engine's limits is refused up
//! front, with what to reduce.

use lease_sim::validate::{thousands, MAX_EVENTS, MAX_MESSAGES};
use lease_sim::{estimate, Options, Scenario};

/// Log entries, by the engine's upper-bound estimate, that the page still
/// computes on its own thread. The estimate is pessimistic (three to five
/// times the events a shipped scenario logs), so a run at this bound takes a
/// few tens of ms in the page's wasm; every shipped scenario is under it.
pub const PAGE_SYNC_EVENTS: u64 = 150_000;

/// Messages a run may have at most (backlog plus expected arrivals): the
/// engine's own limit, in the worker as on the command line.
pub const PAGE_MAX_MESSAGES: u64 = MAX_MESSAGES;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Route {
    /// Small: simulate now, on the page's thread.
    Page,
    /// Large: simulate in the background worker.
    Worker,
}

/// How the page runs a scenario on its own thread: with a cap on the log, so
/// that a run the estimate let through can never grow past what a frame can
/// hold (the engine then stops it and says so in `Run::stopped`).
pub fn options() -> Options {
    Options {
        max_events: Some(PAGE_SYNC_EVENTS * 4),
        ..Options::default()
    }
}

/// Where `s` runs; `Err` says, in a sentence, why it cannot and what to change.
pub fn route(s: &Scenario) -> Result<Route, String> {
    let e = estimate(s);
    if e.messages > PAGE_MAX_MESSAGES {
        return Err(format!(
            "this run would have about {} messages, and the playground computes at most {} at a time. \
             Lower “Arrival rate”, “Run length” or “Backlog at start”.",
            thousands(e.messages),
            thousands(PAGE_MAX_MESSAGES)
        ));
    }
    if e.events > MAX_EVENTS {
        return Err(format!(
            "this run could log up to {} events, and the playground computes at most {} at a time. \
             Lengthen “Heartbeat interval”, shorten “Run length”, or use fewer workers.",
            thousands(e.events),
            thousands(MAX_EVENTS)
        ));
    }
    Ok(if e.events <= PAGE_SYNC_EVENTS {
        Route::Page
    } else {
        Route::Worker
    })
}

/// Whether `s` can run at all (on the page or in the worker).
pub fn fits(s: &Scenario) -> Result<(), String> {
    route(s).map(|_| ())
}

/// For side B of a comparison, which is always computed on the page's thread.
pub fn fits_side_b(s: &Scenario) -> Result<(), String> {
    match route(s)? {
        Route::Page => Ok(()),
        Route::Worker => Err(format!(
            "a comparison runs both sides on the page itself, and this side could log up to {} \
             events (at most {} there). Make side B smaller, or look at it alone.",
            thousands(estimate(s).events),
            thousands(PAGE_SYNC_EVENTS)
        )),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use lease_sim::scenario::Heartbeat;

    #[test]
    fn every_shipped_scenario_runs_on_the_page_itself() {
        for s in lease_sim::shipped::all() {
            assert_eq!(route(&s.scenario), Ok(Route::Page), "{}", s.name);
            assert_eq!(fits_side_b(&s.scenario), Ok(()), "{}", s.name);
        }
    }

    #[test]
    fn a_million_message_backlog_goes_to_the_worker() {
        let mut s = Scenario::default();
        s.arrivals.backlog = 1_000_000;
        s.arrivals.rate_per_s = 0.0;
        assert_eq!(route(&s), Ok(Route::Worker));
        assert_eq!(fits(&s), Ok(()));
        let why = fits_side_b(&s).unwrap_err();
        assert!(why.contains("side B"), "{why}");
    }

    #[test]
    fn a_ten_million_message_backlog_is_refused_with_what_to_lower() {
        let mut s = Scenario::default();
        s.arrivals.backlog = 10_000_000;
        s.arrivals.rate_per_s = 0.0;
        let why = route(&s).unwrap_err();
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
        let why = route(&s).unwrap_err();
        assert!(why.contains("Heartbeat interval"), "{why}");
    }
}
