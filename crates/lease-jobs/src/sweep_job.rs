//! A sweep as a job for the background worker: one setting over a range,
//! each point a whole run, answered row by row.

use lease_diagnose::{sweep_one, sweep_points, Param};
use lease_format::decimal::shortest;
use lease_sim::Scenario;
use serde::{Deserialize, Serialize};

use crate::Reply;

/// Points a sweep may have: enough for a smooth curve, few enough to finish
/// in seconds.
pub const MAX_POINTS: usize = 200;

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct SweepJob {
    /// Replies carry it, so that a late reply to an older job is ignored.
    pub id: u32,
    pub scenario: Scenario,
    pub param: Param,
    pub from: f64,
    pub to: f64,
    pub steps: usize,
    pub log: bool,
}

/// Runs one job, handing each reply to `post` as soon as it is ready.
pub fn run(job: &SweepJob, post: &mut dyn FnMut(Reply)) {
    if job.steps == 0 || job.steps > MAX_POINTS {
        post(Reply::Failed {
            id: job.id,
            why: format!("a sweep has 1 to {MAX_POINTS} points; {} asked", job.steps),
        });
        return;
    }
    let points = sweep_points(
        &job.scenario,
        job.param,
        job.from,
        job.to,
        job.steps,
        job.log,
    );
    if points.is_empty() {
        post(Reply::Failed {
            id: job.id,
            why: format!(
                "the range {} to {} gives no point",
                shortest(job.from),
                shortest(job.to)
            ),
        });
        return;
    }
    let total = points.len();
    for (i, value) in points.into_iter().enumerate() {
        let row = sweep_one(&job.scenario, job.param, value);
        post(Reply::Row {
            id: job.id,
            done: i + 1,
            total,
            row,
        });
    }
    post(Reply::SweepDone { id: job.id });
}

#[cfg(test)]
mod tests {
    use super::*;

    fn job(steps: usize) -> SweepJob {
        SweepJob {
            id: 7,
            scenario: lease_sim::shipped::find("ninety-second-message")
                .unwrap()
                .scenario,
            param: Param::Timeout,
            from: 10_000.0,
            to: 300_000.0,
            steps,
            log: true,
        }
    }

    #[test]
    fn a_sweep_answers_row_by_row_then_done() {
        let mut replies = Vec::new();
        run(&job(5), &mut |r| replies.push(r));
        assert_eq!(replies.len(), 6, "{replies:?}");
        assert!(matches!(replies.last(), Some(Reply::SweepDone { id: 7 })));
        let Reply::Row { row: first, .. } = &replies[0] else {
            panic!("{:?}", replies[0])
        };
        let Reply::Row {
            row: last,
            total: 5,
            ..
        } = &replies[4]
        else {
            panic!("{:?}", replies[4])
        };
        // A 10 s lease on 90 s of work overlaps; a 5 min lease does not.
        assert!(first.overlapping_runs > 0, "{first:?}");
        assert_eq!(last.overlapping_runs, 0, "{last:?}");
        for r in &replies {
            assert_eq!(Reply::from_json(&r.to_json()).as_ref(), Some(r));
        }
    }

    #[test]
    fn a_sweep_of_too_many_points_fails_in_words() {
        let mut replies = Vec::new();
        run(&job(100_000), &mut |r| replies.push(r));
        assert!(matches!(&replies[..], [Reply::Failed { id: 7, why }] if why.contains("1 to 200")));
    }
}
