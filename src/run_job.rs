//! A large run as a job for the page's background worker: the request the
//! page posts, the replies the worker posts back, and the worker's side of
//! the work. Compiled into both the page and the worker binary (like
//! `sweep_job.rs`), so the two cannot disagree about the messages.
//!
//! The run itself comes back as bytes (`lease_sim::wire`, column by column),
//! transferred rather than copied, and already summarised: the page keeps at
//! most `PAGE_LIMITS` of the raw log and deliveries whatever the size of the
//! run, so that taking a finished run never blocks the page for long.

use lease_sim::{Scenario, SummaryLimits};
use serde::{Deserialize, Serialize};

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

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct RunJob {
    /// Replies carry it, so that a late reply to an older job is ignored.
    pub id: u32,
    pub scenario: Scenario,
}

/// What the page posts: a run or a sweep. Untagged, so that a sweep job reads
/// as it always has.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct RunRequest {
    pub run: RunJob,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
// Externally tagged: an internally tagged enum buffers every reply before
// reading it; that code cost the page's download 6 KB of gzip (this enum and
// the other job's together).
#[serde(rename_all = "snake_case")]
pub enum RunReply {
    Progress {
        id: u32,
        now_ms: u64,
        end_ms: u64,
        events: u64,
        /// Messages deleted or dead-lettered so far.
        settled: u64,
        /// Wall-clock ms since the worker took the job.
        elapsed_ms: f64,
    },
    /// Sent together with the run's bytes.
    Done {
        id: u32,
        /// Wall-clock ms the simulation took in the worker.
        simulate_ms: f64,
        /// Wall-clock ms to encode it (`simulate_ms` includes the summary).
        encode_ms: f64,
        bytes: usize,
    },
    Failed {
        id: u32,
        why: String,
    },
}

// The page reads replies; the worker binary, which compiles this file too, only writes them.
#[allow(dead_code)]
impl RunReply {
    /// Reads a reply as the worker writes it (`to_json`), through
    /// `serde_json::Value`, whose reader the page carries for share links
    /// anyway: a reader derived for this enum cost the page's download about
    /// 2 KB of gzip. `None` for anything else.
    pub fn from_json(text: &str) -> Option<RunReply> {
        let value: serde_json::Value = serde_json::from_str(text).ok()?;
        let (tag, fields) = value.as_object()?.iter().next()?;
        let u64_of = |name: &str| fields.get(name)?.as_u64();
        let f64_of = |name: &str| fields.get(name)?.as_f64();
        let id = u32::try_from(u64_of("id")?).ok()?;
        Some(match tag.as_str() {
            "progress" => RunReply::Progress {
                id,
                now_ms: u64_of("now_ms")?,
                end_ms: u64_of("end_ms")?,
                events: u64_of("events")?,
                settled: u64_of("settled")?,
                elapsed_ms: f64_of("elapsed_ms")?,
            },
            "done" => RunReply::Done {
                id,
                simulate_ms: f64_of("simulate_ms")?,
                encode_ms: f64_of("encode_ms")?,
                bytes: usize::try_from(u64_of("bytes")?).ok()?,
            },
            "failed" => RunReply::Failed {
                id,
                why: fields.get("why")?.as_str()?.to_string(),
            },
            _ => return None,
        })
    }
}

// The worker binary uses what follows; the page only posts jobs and reads replies.
#[allow(dead_code)]
impl RunReply {
    pub fn to_json(&self) -> String {
        // A reply is plain data; it always serialises.
        serde_json::to_string(self)
            .unwrap_or_else(|_| r#"{"failed":{"id":0,"why":"reply"}}"#.into())
    }
}

#[allow(dead_code)]
impl RunRequest {
    pub fn to_json(&self) -> String {
        serde_json::to_string(self).unwrap_or_default()
    }
}

/// The whole run of `scenario` as the page holds it: raw events past what the
/// page keeps are counted, not stored, and the run is summarised to
/// `PAGE_LIMITS` (a run within them is left as it is, so this is also the run
/// the page computes itself). `progress` hears how far it has got.
#[allow(dead_code)]
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
/// progress reply as it comes. Returns the final reply and, when it is
/// `Done`, the run's bytes.
#[allow(dead_code)]
pub fn run(
    job: &RunJob,
    clock: &dyn Fn() -> f64,
    post: &mut dyn FnMut(RunReply),
) -> (RunReply, Option<Vec<u8>>) {
    let started = clock();
    let mut last_post = f64::NEG_INFINITY;
    let simulated = simulate_for_page(&job.scenario, &mut |p: lease_sim::Progress| {
        let now = clock();
        if now - last_post >= PROGRESS_EVERY_MS {
            last_post = now;
            post(RunReply::Progress {
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
                RunReply::Failed {
                    id: job.id,
                    why: e.to_string(),
                },
                None,
            )
        }
    };
    let simulated_at = clock();
    let bytes = lease_sim::wire::encode(&run);
    let done = RunReply::Done {
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
        let text = RunRequest { run: j.clone() }.to_json();
        let back: RunRequest = serde_json::from_str(&text).unwrap();
        assert_eq!(back.run, j);

        // A clock that moves 150 ms per reading: every progress call posts.
        let t = std::cell::Cell::new(0.0);
        let clock = || {
            t.set(t.get() + 150.0);
            t.get()
        };
        let mut progress = Vec::new();
        let (done, bytes) = run(&j, &clock, &mut |r| progress.push(r));
        let bytes = bytes.expect("bytes");
        let RunReply::Done {
            id: 3, bytes: n, ..
        } = done
        else {
            panic!("{done:?}")
        };
        assert_eq!(n, bytes.len());
        assert!(!progress.is_empty());
        let decoded = lease_sim::wire::decode(&bytes).unwrap();
        let whole = lease_sim::simulate(&j.scenario, &lease_sim::Options::default()).unwrap();
        assert_eq!(decoded.report, whole.report);
        assert!(decoded.deliveries.len() <= PAGE_LIMITS.deliveries);
        assert!(decoded.events.len() <= PAGE_LIMITS.events);
    }

    #[test]
    fn every_reply_reads_back_as_the_worker_wrote_it() {
        let replies = [
            RunReply::Progress {
                id: 4,
                now_ms: 60_000,
                end_ms: u64::MAX / 2,
                events: 12_345_678,
                settled: 9,
                elapsed_ms: 101.25,
            },
            RunReply::Done {
                id: u32::MAX,
                simulate_ms: 1234.5,
                encode_ms: 0.0,
                bytes: 34_000_000,
            },
            RunReply::Failed {
                id: 0,
                why: "broker.visibility_timeout_ms: must be above 0 ms \"quoted\"".into(),
            },
        ];
        for r in replies {
            assert_eq!(RunReply::from_json(&r.to_json()), Some(r));
        }
        for text in [
            "",
            "\"ready\"",
            "{}",
            r#"{"progress":{"id":1}}"#,
            r#"{"done":{"id":-1,"simulate_ms":1,"encode_ms":1,"bytes":1}}"#,
            r#"{"failed":{"id":4294967296,"why":"x"}}"#,
            r#"{"row":{"id":1}}"#,
        ] {
            assert_eq!(RunReply::from_json(text), None, "{text}");
        }
    }

    #[test]
    fn a_run_that_cannot_run_fails_in_words() {
        let mut j = job(10);
        j.scenario.broker.visibility_timeout_ms = Some(0);
        let (reply, bytes) = run(&j, &|| 0.0, &mut |_| {});
        assert!(bytes.is_none());
        assert!(
            matches!(&reply, RunReply::Failed { id: 3, why } if why.contains("visibility_timeout_ms")),
            "{reply:?}"
        );
    }
}
