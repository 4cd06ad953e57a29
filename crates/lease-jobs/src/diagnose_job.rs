//! A run's diagnosis as a job for the background worker: the page asks the
//! worker what the detectors (`lease_diagnose::diagnose`, and a tour's
//! checks, some of which call `detect`) find, once the Diagnosis section
//! nears the viewport or a tour wants its checks, so that a long run's
//! diagnosis never holds up the page. The reply carries the findings
//! themselves (`Reply::Findings`).

use lease_sim::{Run, Scenario};
use serde::{Deserialize, Serialize};

use crate::Reply;

/// Diagnose `scenario`'s run; with a tour's id, also say whether each of
/// its steps holds.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct DiagnoseJob {
    /// The reply carries it, so that a late reply to an older run is ignored.
    pub id: u32,
    pub scenario: Scenario,
    /// The open tour: its steps are checked when this is its scenario.
    pub tour: Option<String>,
}

/// What the worker answers to `job` about `run`, the run of its scenario.
pub fn findings_of(id: u32, scenario: &Scenario, run: &Run, tour: Option<&str>) -> Reply {
    let findings = lease_diagnose::diagnose(scenario, run);
    // Only the tour's own scenario: the page's last one stays on screen
    // until the tour's has run.
    let tour_done = tour
        .and_then(lease_diagnose::tour)
        .filter(|t| t.scenario == scenario.name)
        .map(|t| {
            t.steps
                .iter()
                .map(|s| s.check.done(scenario, run))
                .collect()
        });
    Reply::Findings {
        id,
        findings,
        tour_done,
    }
}

/// Runs the job in the worker: the scenario is run as for the page (the
/// same limits as a run job), then diagnosed.
pub fn run(job: &DiagnoseJob) -> Reply {
    match crate::run_job::simulate_for_page(&job.scenario, &mut |_| {}) {
        Ok(run) => findings_of(job.id, &job.scenario, &run, job.tour.as_deref()),
        Err(e) => Reply::Failed {
            id: job.id,
            why: e.to_string(),
        },
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Job;

    fn job(name: &str, tour: Option<&str>) -> DiagnoseJob {
        DiagnoseJob {
            id: 7,
            scenario: lease_sim::shipped::find(name).unwrap().scenario,
            tour: tour.map(str::to_string),
        }
    }

    #[test]
    fn a_diagnose_job_answers_with_the_detectors_findings_as_the_page_reads_them() {
        let j = job("ninety-second-message", None);
        let text = Job::Diagnose(j.clone()).to_json();
        assert_eq!(Job::from_json(&text), Ok(Job::Diagnose(j.clone())));

        let reply = run(&j);
        let run = crate::run_job::simulate_for_page(&j.scenario, &mut |_| {}).unwrap();
        let expected = lease_diagnose::diagnose(&j.scenario, &run);
        assert!(!expected.is_empty(), "the case shows a failure signature");
        let Reply::Findings {
            id: 7,
            findings,
            tour_done: None,
        } = &reply
        else {
            panic!("{reply:?}")
        };
        assert_eq!(findings, &expected);
        let text = reply.to_json();
        assert_eq!(Reply::from_json(&text), Some(reply));
    }

    #[test]
    fn a_tours_steps_are_checked_on_its_own_scenario_only() {
        let t = lease_diagnose::tours()
            .iter()
            .find(|t| {
                t.steps
                    .iter()
                    .any(|s| matches!(s.check, lease_diagnose::Check::DetectorFires(_)))
            })
            .expect("a tour with a detector's check");
        let own = job(t.scenario, Some(t.id));
        let Reply::Findings { tour_done, .. } = run(&own) else {
            panic!("findings")
        };
        let r = crate::run_job::simulate_for_page(&own.scenario, &mut |_| {}).unwrap();
        let expected: Vec<bool> = t
            .steps
            .iter()
            .map(|s| s.check.done(&own.scenario, &r))
            .collect();
        assert_eq!(tour_done, Some(expected));

        let other = lease_sim::shipped::all()
            .into_iter()
            .find(|s| s.scenario.name != t.scenario)
            .expect("another scenario");
        let Reply::Findings { tour_done, .. } = run(&job(&other.scenario.name, Some(t.id))) else {
            panic!("findings")
        };
        assert_eq!(tour_done, None);
    }

    #[test]
    fn a_scenario_that_cannot_run_fails_in_words() {
        let mut j = job("ninety-second-message", None);
        j.scenario.broker.visibility_timeout_ms = Some(0);
        assert!(
            matches!(run(&j), Reply::Failed { id: 7, why } if why.contains("visibility_timeout_ms"))
        );
    }
}
