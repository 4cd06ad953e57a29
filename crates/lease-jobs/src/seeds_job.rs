//! One candidate of a recommendation (`lease_diagnose::recommend`) run over
//! some of its seeds: the page's Recommend panel keeps the search and spreads
//! each candidate's seeds across a pool of workers, each worker answering
//! seed by seed.

use lease_diagnose::recommend::{run_seed, Candidate};
use lease_sim::Scenario;
use serde::{Deserialize, Serialize};

#[cfg(test)]
use crate::Job;
use crate::Reply;

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct SeedsJob {
    /// Replies carry it, so that a late reply to an older candidate is
    /// ignored.
    pub id: u32,
    pub scenario: Scenario,
    pub candidate: Candidate,
    pub seeds: Vec<u64>,
}

/// Runs the candidate on each seed, posting each seed's result as soon as
/// it is known.
pub fn run(job: &SeedsJob, post: &mut dyn FnMut(Reply)) {
    for &seed in &job.seeds {
        post(Reply::SeedResults {
            id: job.id,
            results: vec![run_seed(&job.scenario, &job.candidate, seed)],
        });
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_seeds_job_answers_each_seed_as_run_seed_does() {
        let scenario = lease_sim::shipped::find("ninety-second-message")
            .unwrap()
            .scenario;
        let candidate = Candidate {
            timeout_ms: 30_000,
            heartbeat: None,
            lease_steps_ms: None,
        };
        let job = SeedsJob {
            id: 3,
            scenario: scenario.clone(),
            candidate: candidate.clone(),
            seeds: vec![5, 9],
        };
        let mut replies = Vec::new();
        run(&job, &mut |r| replies.push(r));
        let want: Vec<Reply> = [5, 9]
            .iter()
            .map(|&seed| Reply::SeedResults {
                id: 3,
                results: vec![run_seed(&scenario, &candidate, seed)],
            })
            .collect();
        assert_eq!(replies, want);
        for r in &replies {
            assert_eq!(Reply::from_json(&r.to_json()).as_ref(), Some(r));
        }
        assert_eq!(
            Job::from_json(&Job::Seeds(job.clone()).to_json()),
            Ok(Job::Seeds(job))
        );
    }
}
