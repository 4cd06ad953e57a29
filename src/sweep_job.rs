//! A sweep as a job for the page's background worker: the request the page
//! posts, the replies the worker posts back (as JSON text), and the worker's
//! side of the work. Compiled into both the page and the worker binary, so
//! the two cannot disagree about the messages.

use lease_diagnose::{sweep_one, sweep_points, Param, SweepRow};
use lease_format::decimal::shortest;
use lease_sim::Scenario;
use serde::{Deserialize, Serialize};

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

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
// Externally tagged: an internally tagged enum buffers every reply before
// reading it; that code cost the page's download 6 KB of gzip (this enum and
// the other job's together).
#[serde(rename_all = "snake_case")]
pub enum Reply {
    /// The worker has loaded and takes jobs.
    Ready,
    Row {
        id: u32,
        done: usize,
        total: usize,
        row: SweepRow,
    },
    Done {
        id: u32,
    },
    Failed {
        id: u32,
        why: String,
    },
}

/// `Reply::Ready` as the worker writes it: compared as text, since a reader
/// of `Reply` for one unit variant would add to the page's download.
#[allow(dead_code)] // The page's; the worker writes `Reply::Ready`.
pub const READY: &str = "\"ready\"";

// The worker binary uses what follows; the page only posts jobs and reads replies.
#[allow(dead_code)]
impl Reply {
    pub fn to_json(&self) -> String {
        // A reply is plain data; it always serialises.
        serde_json::to_string(self)
            .unwrap_or_else(|_| r#"{"failed":{"id":0,"why":"reply"}}"#.into())
    }
}

#[allow(dead_code)]
/// Runs one job, handing each reply to `post` as soon as it is ready.
pub fn run(text: &str, post: &mut dyn FnMut(Reply)) {
    let job: SweepJob = match serde_json::from_str(text) {
        Ok(j) => j,
        Err(e) => {
            post(Reply::Failed {
                id: 0,
                why: format!("the worker could not read the job: {e}"),
            });
            return;
        }
    };
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
    post(Reply::Done { id: job.id });
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
    fn a_job_round_trips_as_json_and_answers_row_by_row() {
        let text = serde_json::to_string(&job(5)).unwrap();
        let mut replies = Vec::new();
        run(&text, &mut |r| replies.push(r));
        assert_eq!(replies.len(), 6, "{replies:?}");
        assert!(matches!(replies.last(), Some(Reply::Done { id: 7 })));
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
            let back: Reply = serde_json::from_str(&r.to_json()).unwrap();
            assert_eq!(&back, r);
        }
    }

    #[test]
    fn ready_is_the_text_the_worker_sends() {
        assert_eq!(Reply::Ready.to_json(), READY);
    }

    #[test]
    fn a_bad_job_fails_in_words() {
        let mut replies = Vec::new();
        run("{not json", &mut |r| replies.push(r));
        assert!(
            matches!(&replies[..], [Reply::Failed { why, .. }] if why.contains("could not read"))
        );
        replies.clear();
        run(&serde_json::to_string(&job(100_000)).unwrap(), &mut |r| {
            replies.push(r)
        });
        assert!(matches!(&replies[..], [Reply::Failed { why, .. }] if why.contains("1 to 200")));
    }
}
