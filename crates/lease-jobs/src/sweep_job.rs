//! A sweep as a job for the background worker: one setting over a range,
//! each point a whole run, answered row by row.

use lease_diagnose::{sweep_one, sweep_points, Param};
use lease_sim::Scenario;
use serde::{Deserialize, Serialize};

use crate::Reply;

/// Points a sweep may have: enough for a smooth curve, few enough to finish
/// in seconds.
pub const MAX_POINTS: usize = 200;
/// Seeds a sweep may run every point over: enough for a band, few enough
/// that a sweep of 40 points finishes in a minute on two cores.
pub const MAX_SEEDS: u32 = 50;

fn one() -> u32 {
    1
}

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
    /// Every point runs over this many seeds: the scenario's, then the next
    /// ones up (1 to `MAX_SEEDS`).
    #[serde(default = "one")]
    pub seeds: u32,
    /// `(k, n)`: this worker runs only the `k`th share of the points in a
    /// pool of `n` (`crate::share_of`); `None`, all of them.
    #[serde(default)]
    pub share: Option<(usize, usize)>,
}

pub use lease_diagnose::sweep::seed_at;

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
            why: format!("the range {} to {} gives no point", job.from, job.to),
        });
        return;
    }
    if job.seeds == 0 || job.seeds > MAX_SEEDS {
        post(Reply::Failed {
            id: job.id,
            why: format!(
                "seeds = {}: a sweep runs every point over 1 to {MAX_SEEDS} seeds",
                job.seeds
            ),
        });
        return;
    }
    let total = points.len();
    let (k, n) = job.share.unwrap_or((0, 1));
    let mut reseeded = job.scenario.clone();
    for (done, index) in crate::share_of(total, k, n).enumerate() {
        let value = points[index];
        let row = sweep_one(&job.scenario, job.param, value);
        let more = (1..job.seeds)
            .map(|s| {
                reseeded.seed = seed_at(&job.scenario, s);
                sweep_one(&reseeded, job.param, value)
            })
            .collect();
        post(Reply::Row {
            id: job.id,
            done: done + 1,
            total,
            row,
            index,
            more,
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
            seeds: 1,
            share: None,
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
    fn a_pool_of_workers_sweeps_every_point_once_and_as_one_worker_does() {
        let whole = {
            let mut replies = Vec::new();
            run(&job(7), &mut |r| replies.push(r));
            replies
        };
        let mut merged = vec![None; 7];
        for k in 0..3 {
            let mut part = job(7);
            part.share = Some((k, 3));
            run(&part, &mut |r| {
                if let Reply::Row {
                    index, row, total, ..
                } = r
                {
                    assert_eq!(total, 7);
                    assert!(merged[index].replace(row).is_none(), "point {index} twice");
                }
            });
        }
        let alone: Vec<_> = whole
            .into_iter()
            .filter_map(|r| match r {
                Reply::Row { row, .. } => Some(Some(row)),
                _ => None,
            })
            .collect();
        assert_eq!(merged, alone);
    }

    #[test]
    fn a_sweep_over_seeds_runs_every_point_on_each_seed() {
        let mut j = job(2);
        j.seeds = 3;
        let mut replies = Vec::new();
        run(&j, &mut |r| replies.push(r));
        let Reply::Row { row, more, .. } = &replies[0] else {
            panic!("{:?}", replies[0])
        };
        assert_eq!(more.len(), 2);
        let mut next = j.scenario.clone();
        next.seed += 2;
        assert_eq!(more[1], sweep_one(&next, Param::Timeout, row.value));
        assert_eq!(*row, sweep_one(&j.scenario, Param::Timeout, row.value));
        for r in &replies {
            assert_eq!(Reply::from_json(&r.to_json()).as_ref(), Some(r));
        }
        j.seeds = 51;
        let mut replies = Vec::new();
        run(&j, &mut |r| replies.push(r));
        assert!(
            matches!(&replies[..], [Reply::Failed { id: 7, why }] if why.contains("seeds = 51") && why.contains("1 to 50"))
        );
    }

    #[test]
    fn a_sweep_of_too_many_points_fails_in_words() {
        let mut replies = Vec::new();
        run(&job(100_000), &mut |r| replies.push(r));
        assert!(matches!(&replies[..], [Reply::Failed { id: 7, why }] if why.contains("1 to 200")));
    }
}
