//! Everything the background worker does, as data: one `Job` the page or a
//! panel posts, one `Reply` the worker posts back, and the worker's side of
//! each job (`run_job`, `diagnose_job`, `sweep_job`, `seeds_job`, `export_job`,
//! `import_job`, `durations_job`). The worker
//! binary (`crates/lease-worker`) matches on `Job`; the page and the panels
//! module post through one `WorkerClient` (the `client` feature; it runs in
//! a browser only). Both ends compile
//! these types, so they cannot disagree about the messages. `budget` says
//! which runs the page may compute itself and which go to the worker.
//!
//! Messages are JSON text. Two replies carry something beside their text: a
//! finished run (`Reply::RunDone`) comes with the run's bytes (`lease-wire`)
//! as a transferred `ArrayBuffer`, a finished export (`Reply::ExportDone`)
//! with the file as a `Blob`; the worker posts those as `[text, attachment]`.
//! One job comes the same way: a file of durations (`Job::Durations`) is
//! posted as `[text, File]`, read by the worker a slice at a time.
//!
//! Used by the page, the panels module and the background worker.

use serde::{Deserialize, Serialize};

pub mod budget;
pub mod deliveries_job;
pub mod diagnose_job;
pub mod durations_job;
pub mod export_job;
pub mod import_job;
pub mod run_job;
pub mod seeds_job;
pub mod sweep_job;

#[cfg(feature = "client")]
mod client;
#[cfg(feature = "client")]
pub use client::{pool_size, spawn_worker, WorkerClient, WorkerPool};

pub use deliveries_job::{DeliveriesJob, DeliveriesPage};
pub use diagnose_job::DiagnoseJob;
pub use durations_job::{DurationsJob, DurationsRead};
pub use export_job::{ExportJob, ExportKind, SvgSettings};
pub use import_job::ImportJob;
pub use run_job::RunJob;
pub use seeds_job::SeedsJob;
pub use sweep_job::SweepJob;

/// What the worker is asked to do.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Job {
    /// Simulate a large run and send it back as bytes.
    Run(RunJob),
    /// Run a scenario at each point of a setting's range.
    Sweep(SweepJob),
    /// Write the timeline as SVG or a table as CSV.
    Export(ExportJob),
    /// Name the field of a scenario file the page could not read.
    Import(ImportJob),
    /// Run one candidate of a recommendation over some seeds.
    Seeds(SeedsJob),
    /// Read a file of durations, posted beside the job as a `File`.
    Durations(DurationsJob),
    /// Run a scenario and say what the detectors (and a tour's checks) find.
    Diagnose(DiagnoseJob),
    /// One page of the run's deliveries, sorted: the timeline as a table.
    Deliveries(DeliveriesJob),
}

/// What the worker answers. Every variant but `Ready` and `Explained`
/// carries the job's id, so that a late reply to an older job is ignored.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Reply {
    /// The worker has loaded and takes jobs; one posted earlier is lost.
    Ready,
    /// How far a run has got.
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
    /// A run is done; sent with its bytes.
    RunDone {
        id: u32,
        /// Wall-clock ms the simulation took in the worker.
        simulate_ms: f64,
        /// Wall-clock ms to encode it (`simulate_ms` includes the summary).
        encode_ms: f64,
        bytes: usize,
    },
    /// One point of a sweep.
    Row {
        id: u32,
        done: usize,
        total: usize,
        row: lease_diagnose::SweepRow,
        /// The point's place in the whole sweep (a pool's worker runs only
        /// its share of the points).
        #[serde(default)]
        index: usize,
        /// The point over the sweep's other seeds (the scenario's seed plus
        /// 1, 2, ...); empty for a sweep over one seed.
        #[serde(default, skip_serializing_if = "Vec::is_empty")]
        more: Vec<lease_diagnose::SweepRow>,
    },
    /// What the detectors find in a run, and whether each step of the tour
    /// holds (`None`: no tour asked, or not the tour's scenario). A large
    /// run's come just before its `RunDone`.
    Findings {
        id: u32,
        findings: Vec<lease_diagnose::Finding>,
        tour_done: Option<Vec<bool>>,
    },
    /// The sweep's last point has been sent.
    SweepDone { id: u32 },
    /// A recommendation's candidate on one or more seeds.
    SeedResults {
        id: u32,
        results: Vec<lease_diagnose::recommend::SeedResult>,
    },
    /// An export's file is written; sent with it as a `Blob`.
    ExportDone { id: u32, bytes: usize },
    /// Why a scenario file cannot be read, field and all; `None` if the
    /// worker reads it (a page and a worker of different builds could
    /// disagree).
    Explained { why: Option<String> },
    /// How far the reading of a file of durations has got.
    DurationsProgress {
        id: u32,
        read_bytes: u64,
        total_bytes: u64,
        values: u64,
    },
    /// A file of durations is read.
    DurationsDone { id: u32, read: DurationsRead },
    /// A run, a sweep or an export failed (id 0: the job could not be read).
    Failed { id: u32, why: String },
    /// One page of the run's deliveries and how many there are.
    Deliveries { id: u32, page: DeliveriesPage },
}

/// Most workers a pool starts: beyond eight the page's memory grows faster
/// than a sweep gains.
pub const MAX_POOL: usize = 8;

/// How many workers a pool holds on a machine of `cores` logical cores
/// (`navigator.hardwareConcurrency`, which may be missing or 0): 1 to 8.
pub fn pool_size_of(cores: f64) -> usize {
    if cores.is_finite() && cores >= 1.0 {
        (cores as usize).min(MAX_POOL)
    } else {
        1
    }
}

/// Worker `k`'s share of `len` parts in a pool of `n`: every `n`th, from
/// the `k`th, so that cheap and dear parts (short and long timeouts) mix in
/// every worker's share.
pub fn share_of(len: usize, k: usize, n: usize) -> impl Iterator<Item = usize> {
    (k..len).step_by(n.max(1))
}

impl Job {
    pub fn to_json(&self) -> String {
        // A job is plain data; it always serialises.
        serde_json::to_string(self).unwrap_or_default()
    }

    /// Reads a job as `to_json` writes it.
    pub fn from_json(text: &str) -> Result<Job, String> {
        serde_json::from_str(text).map_err(|e| format!("the worker could not read the job: {e}"))
    }
}

impl Reply {
    pub fn to_json(&self) -> String {
        // A reply is plain data; it always serialises.
        serde_json::to_string(self)
            .unwrap_or_else(|_| r#"{"failed":{"id":0,"why":"reply"}}"#.into())
    }

    /// Reads a reply as `to_json` writes it; `None` for anything else.
    pub fn from_json(text: &str) -> Option<Reply> {
        serde_json::from_str(text).ok()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Which variant `job` is, by its place in `Job`. The match names every
    /// variant: a new one does not compile until it has a case here, and
    /// then `every_job_reads_back_as_the_page_wrote_it` fails until the job
    /// has an example.
    fn job_case(job: &Job) -> usize {
        match job {
            Job::Run(_) => 0,
            Job::Sweep(_) => 1,
            Job::Export(_) => 2,
            Job::Import(_) => 3,
            Job::Seeds(_) => 4,
            Job::Durations(_) => 5,
            Job::Diagnose(_) => 6,
            Job::Deliveries(_) => 7,
        }
    }
    const JOB_CASES: usize = 8;

    fn jobs() -> Vec<Job> {
        let scenario = lease_sim::shipped::find("ninety-second-message")
            .unwrap()
            .scenario;
        vec![
            Job::Run(RunJob {
                id: 1,
                scenario: scenario.clone(),
            }),
            Job::Sweep(SweepJob {
                id: 2,
                scenario: scenario.clone(),
                param: lease_diagnose::Param::Timeout,
                from: 1_000.0,
                to: 9_000.0,
                steps: 3,
                log: false,
                seeds: 5,
                share: Some((1, 2)),
            }),
            Job::Export(ExportJob {
                id: 3,
                scenario: scenario.clone(),
                kind: ExportKind::SeriesCsv,
                svg: SvgSettings {
                    range: Some((1, 2)),
                    dark: true,
                    colour_blind: true,
                    by_message: false,
                    notes: vec!["60s-90s~w1~a ~ note & 100%".into()],
                },
            }),
            Job::Import(ImportJob {
                file_name: "a.json".into(),
                text: "{".into(),
            }),
            Job::Seeds(SeedsJob {
                id: 8,
                scenario: scenario.clone(),
                candidate: lease_diagnose::recommend::Candidate {
                    timeout_ms: 45_000,
                    heartbeat: None,
                    lease_steps_ms: None,
                },
                seeds: vec![1, 2, u64::MAX],
            }),
            Job::Durations(DurationsJob {
                id: 5,
                column: Some("latency (s)".into()),
                unit: "s".into(),
                bytes: 12_000_000,
            }),
            Job::Diagnose(DiagnoseJob {
                id: 4,
                scenario: lease_sim::shipped::find("clip-surge").unwrap().scenario,
                tour: Some("lower-the-timeout".into()),
            }),
            Job::Deliveries(DeliveriesJob {
                id: 6,
                scenario,
                sort: deliveries_job::Column::Overlap,
                descending: true,
                offset: 500,
                limit: 100,
            }),
        ]
    }

    #[test]
    fn every_job_reads_back_as_the_page_wrote_it() {
        let jobs = jobs();
        let mut cases: Vec<usize> = jobs.iter().map(job_case).collect();
        cases.sort_unstable();
        cases.dedup();
        assert_eq!(
            cases,
            (0..JOB_CASES).collect::<Vec<_>>(),
            "an example of every job"
        );
        for job in jobs {
            assert_eq!(Job::from_json(&job.to_json()), Ok(job));
        }
    }

    #[test]
    fn a_pool_holds_one_worker_per_core_from_one_to_eight() {
        assert_eq!(pool_size_of(2.0), 2);
        assert_eq!(pool_size_of(64.0), MAX_POOL);
        for odd in [0.0, -1.0, f64::NAN, f64::INFINITY] {
            assert_eq!(pool_size_of(odd), 1, "{odd}");
        }
    }

    #[test]
    fn the_shares_of_a_pool_cover_every_part_once() {
        for (len, n) in [(0, 3), (1, 8), (7, 2), (40, 8), (5, 1)] {
            let mut seen: Vec<usize> = (0..n).flat_map(|k| share_of(len, k, n)).collect();
            seen.sort_unstable();
            assert_eq!(seen, (0..len).collect::<Vec<_>>(), "{len} in {n}");
        }
        assert_eq!(share_of(7, 1, 3).collect::<Vec<_>>(), vec![1, 4]);
    }

    #[test]
    fn an_old_sweep_job_runs_over_one_seed_on_one_worker() {
        let mut job = serde_json::to_value(Job::Sweep(SweepJob {
            id: 2,
            scenario: lease_sim::Scenario::default(),
            param: lease_diagnose::Param::Timeout,
            from: 1.0,
            to: 2.0,
            steps: 2,
            log: false,
            seeds: 9,
            share: Some((0, 2)),
        }))
        .unwrap();
        let fields = job["sweep"].as_object_mut().unwrap();
        fields.remove("seeds");
        fields.remove("share");
        let Ok(Job::Sweep(read)) = Job::from_json(&job.to_string()) else {
            panic!("{job}")
        };
        assert_eq!((read.seeds, read.share), (1, None));
    }

    #[test]
    fn a_job_the_worker_cannot_read_says_why() {
        let e = Job::from_json(r#"{"dance":{}}"#).unwrap_err();
        assert!(e.contains("could not read the job"), "{e}");
        assert!(e.contains("dance"), "{e}");
    }

    /// Which variant `reply` is, by its place in `Reply`; as `job_case`, a
    /// new variant does not compile until it has a case here.
    fn reply_case(reply: &Reply) -> usize {
        match reply {
            Reply::Ready => 0,
            Reply::Progress { .. } => 1,
            Reply::RunDone { .. } => 2,
            Reply::Row { .. } => 3,
            Reply::Findings { .. } => 4,
            Reply::SweepDone { .. } => 5,
            Reply::SeedResults { .. } => 6,
            Reply::ExportDone { .. } => 7,
            Reply::Explained { .. } => 8,
            Reply::DurationsProgress { .. } => 9,
            Reply::DurationsDone { .. } => 10,
            Reply::Failed { .. } => 11,
            Reply::Deliveries { .. } => 12,
        }
    }
    const REPLY_CASES: usize = 13;

    fn replies() -> Vec<Reply> {
        let row = |value: f64, skipped: Option<&str>| lease_diagnose::SweepRow {
            value,
            completions_per_min: 12.5,
            overlapping_runs: 3,
            duplicate_effects: 1,
            dead_lettered: 0,
            redeliveries: 7,
            recovery_ms: Some(90_000),
            skipped: skipped.map(str::to_string),
        };
        let stuck = lease_diagnose::Finding {
            id: "stuck-lease".into(),
            title: "A \"stuck\" lease".into(),
            evidence: vec!["one".into(), "two".into()],
            measure: 0.25,
            at_ms: 3,
            until_ms: None,
            message: Some(u32::MAX),
            fix_text: "Cap it.".into(),
            fix: Some(lease_diagnose::Fix::ExtensionCap { max_extensions: 3 }),
        };
        vec![
            Reply::Ready,
            Reply::Progress {
                id: 4,
                now_ms: 60_000,
                end_ms: u64::MAX / 2,
                events: 12_345_678,
                settled: 9,
                elapsed_ms: 101.25,
            },
            Reply::RunDone {
                id: u32::MAX,
                simulate_ms: 1234.5,
                encode_ms: 0.0,
                bytes: 34_000_000,
            },
            Reply::Row {
                id: 2,
                done: 1,
                total: 3,
                row: row(45_000.0, None),
                index: 2,
                more: vec![row(45_000.0, Some("too large"))],
            },
            Reply::Row {
                id: 2,
                done: 2,
                total: 3,
                row: row(0.5, None),
                index: 0,
                more: Vec::new(),
            },
            Reply::SweepDone { id: 2 },
            Reply::SeedResults {
                id: 8,
                results: vec![lease_diagnose::recommend::SeedResult {
                    seed: u64::MAX,
                    arrived: 100,
                    redeliveries: 4,
                    duplicate_effects: 1,
                    recovery_ms: 45_000,
                }],
            },
            Reply::DurationsProgress {
                id: 5,
                read_bytes: 100,
                total_bytes: 1000,
                values: 50_000,
            },
            Reply::DurationsDone {
                id: 5,
                read: DurationsRead {
                    columns: vec!["a".into(), "latency_ms".into()],
                    column: "latency_ms".into(),
                    unit: "ms".into(),
                    unit_from_header: true,
                    count: 3,
                    samples_ms: vec![1.0, 2.5, 3.0],
                },
            },
            Reply::Findings {
                id: 5,
                findings: vec![stuck],
                tour_done: Some(vec![true, false]),
            },
            Reply::Findings {
                id: 6,
                findings: Vec::new(),
                tour_done: None,
            },
            Reply::ExportDone { id: 3, bytes: 10 },
            Reply::Explained { why: None },
            Reply::Explained {
                why: Some("seed: \"quoted\"".into()),
            },
            Reply::Failed {
                id: 0,
                why: "broker.visibility_timeout_ms: must be above 0 ms \"quoted\"".into(),
            },
            Reply::Deliveries {
                id: 6,
                page: DeliveriesPage {
                    rows: vec![deliveries_job::DeliveryRow {
                        message: 4,
                        worker: 1,
                        receipt: 2,
                        start_ms: Some(0),
                        end_ms: None,
                        outcome: "hung".into(),
                        past_limit: Some("dropped (expired)".into()),
                        overlaps: Some((1, 0)),
                    }],
                    total: 1,
                },
            },
        ]
    }

    #[test]
    fn every_reply_reads_back_as_the_worker_wrote_it() {
        let replies = replies();
        let mut cases: Vec<usize> = replies.iter().map(reply_case).collect();
        cases.sort_unstable();
        cases.dedup();
        assert_eq!(
            cases,
            (0..REPLY_CASES).collect::<Vec<_>>(),
            "an example of every reply"
        );
        for r in replies {
            assert_eq!(Reply::from_json(&r.to_json()), Some(r));
        }
    }

    #[test]
    fn every_fix_a_finding_offers_reads_back_as_the_worker_wrote_it() {
        use lease_diagnose::Fix;
        let fixes = [
            Fix::Timeout { ms: 45_000 },
            Fix::Heartbeat {
                interval_ms: 10_000,
                extend_by_ms: 30_000,
                max_extensions: Some(5),
                timeout_ms: None,
            },
            Fix::Heartbeat {
                interval_ms: 1,
                extend_by_ms: 2,
                max_extensions: None,
                timeout_ms: Some(3),
            },
            Fix::ExtensionCap { max_extensions: 4 },
            Fix::Prefetch { prefetch: 1 },
            Fix::SplitWork { parts: 3 },
            Fix::RedriveLimit {
                max_receive_count: 5,
            },
            Fix::Workers { count: 9 },
            Fix::Renewal {
                renewal: lease_sim::scenario::Renewal::Background,
            },
        ]
        .into_iter()
        .chain(lease_sim::scenario::Fence::ALL.map(|fence| Fix::Fence { fence }));
        for fix in fixes {
            let finding = lease_diagnose::Finding {
                id: "x".into(),
                title: "X".into(),
                evidence: Vec::new(),
                measure: 1.0,
                at_ms: 0,
                until_ms: Some(1),
                message: None,
                fix_text: fix.label(),
                fix: Some(fix),
            };
            let r = Reply::Findings {
                id: 1,
                findings: vec![finding],
                tour_done: None,
            };
            assert_eq!(Reply::from_json(&r.to_json()), Some(r));
        }
    }

    #[test]
    fn a_reply_that_is_not_one_reads_as_none() {
        for text in [
            "",
            "{}",
            r#"{"progress":{"id":1}}"#,
            r#"{"run_done":{"id":-1,"simulate_ms":1,"encode_ms":1,"bytes":1}}"#,
            r#"{"failed":{"id":4294967296,"why":"x"}}"#,
            r#"{"row":{"id":1}}"#,
            r#"{"findings":{"id":1,"findings":[{"id":"x"}],"tour_done":null}}"#,
            r#"{"findings":{"id":1,"findings":[],"tour_done":[1]}}"#,
            r#"{"dance":{"id":1}}"#,
        ] {
            assert_eq!(Reply::from_json(text), None, "{text}");
        }
    }
}
