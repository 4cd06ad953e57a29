//! A run's diagnosis as a job for the background worker: the detectors
//! (`lease_diagnose::diagnose`, and a tour's checks, some of which call
//! `detect`) are code the page's first load would pay for, so the page asks
//! the worker for what they find, once the Diagnosis section nears the
//! viewport or a tour wants its checks.
//!
//! A `Finding` borrows its id and title from the detectors' statics, which
//! the page must not link: the reply carries them as owned text
//! (`FindingText`), its fix as the JSON of a `Fix` the page reads by hand
//! (`fix_of`), and its button's label as text.

use lease_diagnose::{Finding, Fix};
use lease_sim::{Run, Scenario};
use serde::{Deserialize, Serialize};
use serde_json::Value;

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

impl DiagnoseJob {
    /// The job as `Job::Diagnose(self).to_json()` writes it, without the
    /// code that writes every other job (as `RunJob::to_job_json`): the
    /// page posts only runs and diagnoses.
    pub fn to_job_json(&self) -> String {
        #[derive(Serialize)]
        struct AsJob<'a> {
            diagnose: &'a DiagnoseJob,
        }
        // Plain data; it always serialises.
        serde_json::to_string(&AsJob { diagnose: self }).unwrap_or_default()
    }
}

/// A finding as the page shows it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct FindingText {
    /// The detector's id (`concurrent-duplicates`, ...).
    pub id: String,
    pub title: String,
    pub evidence: Vec<String>,
    pub at_ms: u64,
    pub until_ms: Option<u64>,
    pub message: Option<u32>,
    pub fix_text: String,
    /// The fix's button: its label and the fix (written as `Fix` writes
    /// itself, read by `fix_of`). Not kept as a `serde_json::Value`: comparing
    /// and cloning one would add their code to the page's download.
    #[serde(deserialize_with = "fix_field")]
    pub fix: Option<(String, Fix)>,
}

/// The derived reader's way to the fix (the panels' and the tests'; the page
/// reads replies by hand): through `fix_of`, since `Fix` has no reader.
fn fix_field<'de, D: serde::Deserializer<'de>>(d: D) -> Result<Option<(String, Fix)>, D::Error> {
    let pair: Option<(String, Value)> = Deserialize::deserialize(d)?;
    pair.map(|(label, v)| match fix_of(&v) {
        Some(fix) => Ok((label, fix)),
        None => Err(serde::de::Error::custom(format!("not a fix: {v}"))),
    })
    .transpose()
}

impl FindingText {
    pub fn of(f: &Finding) -> FindingText {
        FindingText {
            id: f.id.into(),
            title: f.title.into(),
            evidence: f.evidence.clone(),
            at_ms: f.at_ms,
            until_ms: f.until_ms,
            message: f.message,
            fix_text: f.fix_text.clone(),
            fix: f.fix.as_ref().map(|fix| (fix.label(), fix.clone())),
        }
    }
}

/// What the worker answers to `job` about `run`, the run of its scenario.
pub fn findings_of(id: u32, scenario: &Scenario, run: &Run, tour: Option<&str>) -> Reply {
    let findings = lease_diagnose::diagnose(scenario, run)
        .iter()
        .map(FindingText::of)
        .collect();
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

/// Reads a fix as `FindingText` carries it. By hand, through the
/// `serde_json::Value` the page holds anyway: a derived reader of `Fix` and
/// its fence would be code in the page's first load.
pub fn fix_of(v: &Value) -> Option<Fix> {
    let u64_of = |name: &str| v.get(name)?.as_u64();
    let u32_of = |name: &str| u32::try_from(u64_of(name)?).ok();
    // An absent or null optional is `None`; any other value must read.
    let opt = |name: &str| match v.get(name) {
        None | Some(Value::Null) => Some(None),
        Some(_) => u64_of(name).map(Some),
    };
    Some(match v.get("kind")?.as_str()? {
        "timeout" => Fix::Timeout { ms: u64_of("ms")? },
        "heartbeat" => Fix::Heartbeat {
            interval_ms: u64_of("interval_ms")?,
            extend_by_ms: u64_of("extend_by_ms")?,
            max_extensions: match opt("max_extensions")? {
                None => None,
                Some(n) => Some(u32::try_from(n).ok()?),
            },
            timeout_ms: opt("timeout_ms")?,
        },
        "extension_cap" => Fix::ExtensionCap {
            max_extensions: u32_of("max_extensions")?,
        },
        "fence" => Fix::Fence {
            fence: lease_sim::scenario::Fence::ALL
                .into_iter()
                .find(|f| serde_json::to_value(f).ok().as_ref() == v.get("fence"))?,
        },
        "prefetch" => Fix::Prefetch {
            prefetch: u32_of("prefetch")?,
        },
        "split_work" => Fix::SplitWork {
            parts: u32_of("parts")?,
        },
        "redrive_limit" => Fix::RedriveLimit {
            max_receive_count: u32_of("max_receive_count")?,
        },
        "workers" => Fix::Workers {
            count: u32_of("count")?,
        },
        _ => return None,
    })
}

/// Reads a `Reply::Findings` as `Reply::to_json` writes it, through
/// `serde_json::Value` as the page reads a run's replies.
pub(crate) fn findings_from_value(id: u32, fields: &Value) -> Option<Reply> {
    let text = |v: &Value| v.as_str().map(str::to_string);
    let findings = fields
        .get("findings")?
        .as_array()?
        .iter()
        .map(|f| {
            let u64_of = |name: &str| f.get(name)?.as_u64();
            let opt_u64 = |name: &str| match f.get(name) {
                None | Some(Value::Null) => Some(None),
                Some(v) => v.as_u64().map(Some),
            };
            Some(FindingText {
                id: text(f.get("id")?)?,
                title: text(f.get("title")?)?,
                evidence: f
                    .get("evidence")?
                    .as_array()?
                    .iter()
                    .map(text)
                    .collect::<Option<_>>()?,
                at_ms: u64_of("at_ms")?,
                until_ms: opt_u64("until_ms")?,
                message: match opt_u64("message")? {
                    None => None,
                    Some(m) => Some(u32::try_from(m).ok()?),
                },
                fix_text: text(f.get("fix_text")?)?,
                fix: match f.get("fix") {
                    None | Some(Value::Null) => None,
                    Some(pair) => {
                        let pair = pair.as_array()?;
                        Some((text(pair.first()?)?, fix_of(pair.get(1)?)?))
                    }
                },
            })
        })
        .collect::<Option<_>>()?;
    let tour_done = match fields.get("tour_done") {
        None | Some(Value::Null) => None,
        Some(v) => Some(
            v.as_array()?
                .iter()
                .map(Value::as_bool)
                .collect::<Option<_>>()?,
        ),
    };
    Some(Reply::Findings {
        id,
        findings,
        tour_done,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Job;

    #[test]
    fn a_diagnose_job_is_written_as_the_job_enum_writes_it() {
        let job = DiagnoseJob {
            id: 4,
            scenario: lease_sim::shipped::find("clip-surge").unwrap().scenario,
            tour: Some("lower-the-timeout".into()),
        };
        let text = job.to_job_json();
        assert_eq!(text, Job::Diagnose(job.clone()).to_json());
        assert_eq!(Job::from_json(&text), Ok(Job::Diagnose(job)));
    }

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
        assert_eq!(findings.len(), expected.len());
        for (got, f) in findings.iter().zip(&expected) {
            assert_eq!(got.id, f.id);
            assert_eq!(got.title, f.title);
            assert_eq!(got.evidence, f.evidence);
            assert_eq!(got.fix, f.fix.as_ref().map(|x| (x.label(), x.clone())));
        }
        let text = reply.to_json();
        assert_eq!(Reply::from_json(&text), Some(reply.clone()));
        assert_eq!(Reply::run_reply_from_json(&text), Some(reply));
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
    fn every_fix_reads_back_as_the_worker_wrote_it() {
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
        ]
        .into_iter()
        .chain(lease_sim::scenario::Fence::ALL.map(|fence| Fix::Fence { fence }));
        for fix in fixes {
            let v = serde_json::to_value(&fix).unwrap();
            assert_eq!(fix_of(&v), Some(fix), "{v}");
        }
        for bad in [
            r#"{"kind":"timeout"}"#,
            r#"{"kind":"dance","ms":1}"#,
            r#"{"kind":"fence","fence":"paper"}"#,
            r#"{"kind":"workers","count":4294967296}"#,
        ] {
            assert_eq!(fix_of(&serde_json::from_str(bad).unwrap()), None, "{bad}");
        }
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
