//! A large run as a job for the background worker, and the worker's side of
//! the work.
//!
//! The run itself comes back as bytes (`lease_wire`, column by column),
//! transferred rather than copied, and already summarised: the page keeps at
//! most `PAGE_LIMITS` of the raw log and deliveries whatever the size of the
//! run, so that taking a finished run never blocks the page for long.

use lease_sim::{Scenario, SummaryLimits};
use serde::{Deserialize, Serialize};

use crate::Reply;

/// What the page keeps of a run computed in the worker. The series, the
/// totals and every message's outcome are kept whole; the timeline's
/// deliveries and the raw event log are kept up to these counts.
/// Events: a backlog logs one arrival per message at t = 0, so the log needs
/// room for a million arrivals and then the deliveries that follow them
/// (17 bytes each: 34 MB at most).
pub const PAGE_LIMITS: SummaryLimits = SummaryLimits {
    deliveries: 100_000,
    events: 2_000_000,
};

/// How often the worker reports progress, in wall-clock ms: often enough for
/// a smooth bar, rarely enough that posting costs nothing.
pub const PROGRESS_EVERY_MS: f64 = 100.0;

/// A large run: simulated, summarised to `PAGE_LIMITS` and sent back as bytes.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct RunJob {
    /// Replies carry it, so that a late reply to an older job is ignored.
    pub id: u32,
    pub scenario: Scenario,
}

/// The whole run of `scenario` as the page holds it: raw events past what the
/// page keeps are counted, not stored, and the run is summarised to
/// `PAGE_LIMITS` (a run within them is left as it is, so this is also the run
/// the page computes itself). `progress` hears how far it has got.
pub fn simulate_for_page(
    scenario: &lease_sim::Scenario,
    progress: &mut dyn FnMut(lease_sim::Progress),
) -> Result<lease_sim::Run, lease_sim::SimError> {
    let options = lease_sim::Options {
        keep_events: Some(PAGE_LIMITS.events as u64),
        ..lease_sim::Options::default()
    };
    let mut run = lease_sim::simulate_with_progress(scenario, &options, &mut |p| {
        progress(p);
        // The page stops a run by ending the worker.
        std::ops::ControlFlow::Continue(())
    })?;
    run.summarise(PAGE_LIMITS);
    Ok(run)
}

/// Runs one job in the worker. `clock` reads wall-clock ms; `post` takes each
/// progress reply as it comes, and the run's findings (`Reply::Findings`)
/// once it is simulated, so that the page need not have the worker run a
/// large scenario twice to diagnose it. Returns the final reply and, when it
/// is `RunDone`, the run's bytes.
pub fn run(
    job: &RunJob,
    clock: &dyn Fn() -> f64,
    post: &mut dyn FnMut(Reply),
) -> (Reply, Option<Vec<u8>>) {
    let started = clock();
    let mut last_post = f64::NEG_INFINITY;
    let simulated = simulate_for_page(&job.scenario, &mut |p: lease_sim::Progress| {
        let now = clock();
        if now - last_post >= PROGRESS_EVERY_MS {
            last_post = now;
            post(Reply::Progress {
                id: job.id,
                now_ms: p.now_ms,
                end_ms: p.end_ms,
                events: p.events,
                settled: p.settled,
                elapsed_ms: now - started,
            });
        }
    });
    let run = match simulated {
        Ok(run) => run,
        Err(e) => {
            return (
                Reply::Failed {
                    id: job.id,
                    why: e.to_string(),
                },
                None,
            )
        }
    };
    let simulated_at = clock();
    post(crate::diagnose_job::findings_of(
        job.id,
        &job.scenario,
        &run,
        None,
    ));
    let bytes = lease_wire::encode(&run);
    let done = Reply::RunDone {
        id: job.id,
        simulate_ms: simulated_at - started,
        encode_ms: clock() - simulated_at,
        bytes: bytes.len(),
    };
    (done, Some(bytes))
}

#[cfg(test)]
mod tests {
    use super::*;

    use crate::Job;

    fn job(backlog: u64) -> RunJob {
        let mut scenario = lease_sim::shipped::find("sub-second-work")
            .unwrap()
            .scenario;
        scenario.arrivals.backlog = backlog;
        RunJob { id: 3, scenario }
    }

    #[test]
    fn a_run_job_round_trips_as_json_and_answers_with_the_runs_bytes() {
        let j = job(50_000);
        let text = Job::Run(j.clone()).to_json();
        assert_eq!(Job::from_json(&text), Ok(Job::Run(j.clone())));

        // A clock that moves 150 ms per reading: every progress call posts.
        let t = std::cell::Cell::new(0.0);
        let clock = || {
            t.set(t.get() + 150.0);
            t.get()
        };
        let mut progress = Vec::new();
        let (done, bytes) = run(&j, &clock, &mut |r| progress.push(r));
        let bytes = bytes.expect("bytes");
        let Reply::RunDone {
            id: 3, bytes: n, ..
        } = done
        else {
            panic!("{done:?}")
        };
        assert_eq!(n, bytes.len());
        let Some(Reply::Findings {
            id: 3,
            findings,
            tour_done: None,
        }) = progress.pop()
        else {
            panic!("the findings come last, before the run")
        };
        assert!(!progress.is_empty());
        assert!(progress
            .iter()
            .all(|r| matches!(r, Reply::Progress { id: 3, .. })));
        let decoded = lease_wire::decode(&bytes).unwrap();
        let whole = lease_sim::simulate(&j.scenario, &lease_sim::Options::default()).unwrap();
        assert_eq!(decoded.report, whole.report);
        let ids: Vec<String> = lease_diagnose::diagnose(&j.scenario, &decoded)
            .iter()
            .map(|f| f.id.to_string())
            .collect();
        assert_eq!(
            findings.iter().map(|f| f.id.clone()).collect::<Vec<_>>(),
            ids
        );
        assert!(decoded.deliveries.len() <= PAGE_LIMITS.deliveries);
        assert!(decoded.events.len() <= PAGE_LIMITS.events);
    }

    #[test]
    fn a_run_that_cannot_run_fails_in_words() {
        let mut j = job(10);
        j.scenario.broker.visibility_timeout_ms = Some(0);
        let (reply, bytes) = run(&j, &|| 0.0, &mut |_| {});
        assert!(bytes.is_none());
        assert!(
            matches!(&reply, Reply::Failed { id: 3, why } if why.contains("visibility_timeout_ms")),
            "{reply:?}"
        );
    }
}
