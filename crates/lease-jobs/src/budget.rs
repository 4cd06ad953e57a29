//! Where the page computes a run. Every slider move re-simulates: a run the
//! engine's estimate calls small is tried at once on the page's own thread,
//! so the picture follows the hand; one that outgrows what a frame can hold
//! there, or that the estimate already calls large, goes to the background
//! worker (`run_job`), with a progress bar and cancel, so that the page
//! never stops answering; one past the engine's limits is refused up front,
//! with what to reduce.

use std::ops::ControlFlow;

use lease_format::display;
use lease_sim::validate::{MAX_EVENTS, MAX_MESSAGES};
use lease_sim::{estimate, simulate_with_progress, Options, Run, Scenario, SimError};

/// Log entries, by the engine's upper-bound estimate, past which a run goes
/// straight to the worker. The estimate is pessimistic (one to thirteen times
/// the events a shipped scenario logs), so below it a run is only tried here:
/// see `PAGE_TRY_EVENTS`. Every shipped scenario is under it.
pub const PAGE_SYNC_EVENTS: u64 = 150_000;

/// Log entries a run may actually reach on the page's thread before the page
/// gives up and hands it to the worker; the largest shipped scenario logs
/// about 23,000.
pub const PAGE_TRY_EVENTS: u64 = 30_000;

/// How long a try may hold the page's thread before the page hands the run
/// to the worker, whatever its count: the page's wasm is built for size and
/// its speed varies with the scenario and the machine (72,000 events of a
/// 12,000-message backlog took 54 to 63 ms here, the 23,000 of the largest
/// shipped scenario 6 to 10 ms), and the paint after the run needs the rest
/// of a 50 ms task. A try runs past this by the engine's wrap-up of the run
/// it stops: at 20 ms, tries of the 12,000-message handover took 14 to 33
/// ms in fifteen bench runs, and the task that held one reached 51 ms once;
/// at 15 ms, 16 to 26 ms in twenty, none over 50 ms.
pub const PAGE_TRY_MS: f64 = 15.0;

/// Log entries between two looks at the clock during a try: a ms or so of work.
const TRY_PROGRESS_EVERY: u64 = 1_024;

/// Messages a run may have at most (backlog plus expected arrivals): the
/// engine's own limit, in the worker as on the command line.
pub const PAGE_MAX_MESSAGES: u64 = MAX_MESSAGES;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Route {
    /// Small: try now, on the page's thread (`try_on_page` says if the
    /// worker must take it after all).
    Page,
    /// Large: simulate in the background worker.
    Worker,
}

/// How the page tries a scenario on its own thread: with a cap on the log,
/// so that a run the estimate let through stops before it holds the page.
pub fn options() -> Options {
    Options {
        max_events: Some(PAGE_TRY_EVENTS),
        progress_every: Some(TRY_PROGRESS_EVERY),
        ..Options::default()
    }
}

/// What came of trying a run on the page's thread.
pub enum Tried {
    /// It finished (or failed, or stopped on its own) within the try.
    Done(Box<Result<Run, SimError>>),
    /// It outgrew the try: the worker computes it whole.
    Outgrew,
}

/// Runs `s` on the page's thread within `PAGE_TRY_EVENTS` and `PAGE_TRY_MS`
/// of `clock` (milliseconds).
pub fn try_on_page(s: &Scenario, clock: &dyn Fn() -> f64) -> Tried {
    let started = clock();
    let mut late = false;
    let run = simulate_with_progress(s, &options(), &mut |_| {
        late = clock() - started > PAGE_TRY_MS;
        if late {
            ControlFlow::Break(())
        } else {
            ControlFlow::Continue(())
        }
    });
    match run {
        Ok(run) if late || outgrew_page(s, &run) => Tried::Outgrew,
        done => Tried::Done(Box::new(done)),
    }
}

/// Whether a run tried with `options()` stopped at the page's cap rather
/// than finishing: then the worker computes it whole. A run that stops on its
/// own (past its estimate, say) stops the same way in the worker, so it is
/// shown as it is.
fn outgrew_page(s: &Scenario, run: &Run) -> bool {
    run.stopped().is_some() && estimate(s).events > PAGE_TRY_EVENTS
}

/// Where `s` is tried first; `Err` says, in a sentence, why it cannot and what to change.
pub fn route(s: &Scenario) -> Result<Route, String> {
    let e = estimate(s);
    if e.messages > PAGE_MAX_MESSAGES {
        return Err(format!(
            "this run would have about {} messages, and the playground computes at most {} at a time. \
             Lower “Arrival rate”, “Run length” or “Backlog at start”.",
            display::count(e.messages),
            display::count(PAGE_MAX_MESSAGES)
        ));
    }
    if e.events > MAX_EVENTS {
        return Err(format!(
            "this run could log up to {} events, and the playground computes at most {} at a time. \
             Lengthen “Heartbeat interval”, shorten “Run length”, or use fewer workers.",
            display::count(e.events),
            display::count(MAX_EVENTS)
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

/// For side B of a comparison: tried on the page like A, and computed in the
/// background if it outgrows the try, but never summarised (the comparison
/// reads B's whole run), so no larger than what A would try here.
pub fn fits_side_b(s: &Scenario) -> Result<(), String> {
    match route(s)? {
        Route::Page => Ok(()),
        Route::Worker => Err(format!(
            "a comparison keeps side B whole, and this side could log up to {} events \
             (at most {} for side B). Make side B smaller, or look at it alone.",
            display::count(estimate(s).events),
            display::count(PAGE_SYNC_EVENTS)
        )),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use lease_sim::scenario::Heartbeat;

    fn export_job(
        scenario: Scenario,
        kind: crate::export_job::ExportKind,
    ) -> crate::export_job::ExportJob {
        crate::export_job::ExportJob {
            id: 1,
            scenario,
            kind,
            svg: crate::export_job::SvgSettings {
                range: None,
                dark: false,
                colour_blind: false,
                by_message: false,
                notes: Vec::new(),
            },
        }
    }

    /// An export's file (computed in a worker) is the page's: for every shipped scenario, the run
    /// the page tries (`budget::options`) written by the page's old writers
    /// equals what the export job writes.
    #[test]
    fn every_shipped_scenario_exports_what_the_page_shows() {
        use lease_view::export::{deliveries_csv, messages_csv, series_csv};
        for shipped in lease_sim::shipped::all() {
            let s = shipped.scenario;
            let on_page = lease_sim::simulate(&s, &options()).unwrap();
            assert!(on_page.stopped().is_none(), "{}", s.name);
            for (kind, write) in [
                (
                    crate::export_job::ExportKind::SeriesCsv,
                    series_csv as fn(&lease_sim::Run) -> String,
                ),
                (crate::export_job::ExportKind::DeliveriesCsv, deliveries_csv),
                (crate::export_job::ExportKind::MessagesCsv, messages_csv),
            ] {
                let text = crate::export_job::export(&export_job(s.clone(), kind)).unwrap();
                assert_eq!(text, write(&on_page), "{} {kind:?}", s.name);
            }
        }
    }

    /// A shipped scenario is re-simulated on the page's thread as a slider
    /// moves: its estimate stays under `PAGE_SYNC_EVENTS`, and
    /// `every_shipped_scenario_finishes_within_the_pages_try` checks its log
    /// against `PAGE_TRY_EVENTS`. Those two, not a count of messages, bound
    /// its size: messages waiting in a stalled buffer log few events, so the
    /// invisible backlog's nearly 9,000 messages log about 21,000 entries.
    #[test]
    fn every_shipped_scenario_runs_on_the_page_itself() {
        for s in lease_sim::shipped::all() {
            assert_eq!(route(&s.scenario), Ok(Route::Page), "{}", s.name);
            assert_eq!(fits_side_b(&s.scenario), Ok(()), "{}", s.name);
        }
    }

    /// A clock that never moves: only the count of events limits a try.
    fn frozen() -> f64 {
        0.0
    }

    fn outgrew(t: &Tried) -> bool {
        matches!(t, Tried::Outgrew)
    }

    #[test]
    fn every_shipped_scenario_finishes_within_the_pages_try() {
        for s in lease_sim::shipped::all() {
            match try_on_page(&s.scenario, &frozen) {
                Tried::Done(done) => {
                    let run = done.unwrap_or_else(|e| panic!("{}: {e}", s.name));
                    assert_eq!(run.stopped(), None, "{}", s.name);
                }
                Tried::Outgrew => panic!("{} outgrew the page's try", s.name),
            }
        }
    }

    /// Small by the estimate, about 72,000 events: too many for one task.
    fn twelve_thousand_waiting() -> Scenario {
        let mut s = lease_sim::bench_scenarios::sub_second_backlog(12_000, 100, 10);
        s.broker.visibility_timeout_ms = Some(3_600_000);
        s
    }

    #[test]
    fn a_run_past_the_pages_count_goes_to_the_worker() {
        let s = twelve_thousand_waiting();
        assert_eq!(route(&s), Ok(Route::Page));
        assert!(outgrew(&try_on_page(&s, &frozen)));
        // The page's try stops at the cap (one step may log a few entries past it).
        let tried = lease_sim::simulate(&s, &options()).unwrap();
        assert!(outgrew_page(&s, &tried));
        let logged = tried.events.len() as u64;
        assert!(
            (PAGE_TRY_EVENTS..PAGE_TRY_EVENTS + 100).contains(&logged),
            "{logged}"
        );
        // The worker's run of it (no page cap) is whole.
        let whole = lease_sim::simulate(&s, &Options::default()).unwrap();
        assert_eq!(whole.stopped(), None);
        assert!(whole.events.len() as u64 > PAGE_TRY_EVENTS);
    }

    #[test]
    fn a_run_past_the_pages_time_goes_to_the_worker() {
        // A shipped scenario well within the count, on a clock that has
        // moved past the try's time at the first look.
        let s = lease_sim::shipped::find("clip-surge-smaller-steps")
            .unwrap()
            .scenario;
        let looks = std::cell::Cell::new(0.0);
        let slow = || {
            looks.set(looks.get() + PAGE_TRY_MS);
            looks.get()
        };
        assert!(outgrew(&try_on_page(&s, &slow)));
        assert!(!outgrew(&try_on_page(&s, &frozen)));
    }

    #[test]
    fn a_run_stopped_by_its_own_estimate_is_not_handed_over() {
        // The same stop would happen in the worker: show it here, as it is.
        let mut s = Scenario::default();
        s.arrivals.backlog = 10;
        let mut run = lease_sim::simulate(&s, &options()).unwrap();
        assert!(estimate(&s).events <= PAGE_TRY_EVENTS);
        run.report.stopped = Some("stopped by its estimate".into());
        assert!(!outgrew_page(&s, &run));
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
