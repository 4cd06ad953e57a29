//! Naming the field of a scenario file the page could not read, as a job for
//! a background worker. Compiled into both the page and the worker binary,
//! like `export_job.rs`.
//!
//! Why the worker: the page reads files with
//! `lease_sim::parse_scenario_without_path`, which gives a type error's line
//! and column but not its field. Tracking the field (`parse_scenario`,
//! through serde_path_to_error) wraps the deserialiser of every scenario type:
//! 9 KB of the page's gzip download for a message only a broken file needs.
//! The worker holds it already, and says `broker.visibility_timeout_ms:
//! invalid value: integer `-5`, expected u64 (line 3, column 41)`, as the
//! command line does.

use serde::{Deserialize, Serialize};

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ImportJob {
    pub file_name: String,
    pub text: String,
}

/// What the page posts. A field of its own, so that the worker tells it from
/// a run, an export and a sweep.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ImportRequest {
    pub import: ImportJob,
}

/// Why the file cannot be read; `None` if the worker reads it (a page and a
/// worker of different builds could disagree).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ImportReply {
    pub explained: Option<String>,
}

// The page posts requests and reads replies; the worker does what follows.
#[allow(dead_code)]
impl ImportRequest {
    pub fn to_json(&self) -> String {
        serde_json::to_string(self).unwrap_or_default()
    }
}

#[allow(dead_code)]
impl ImportReply {
    pub fn to_json(&self) -> String {
        serde_json::to_string(self).unwrap_or_else(|_| r#"{"explained":null}"#.into())
    }
}

/// The command line's message for the file, field path and all.
#[allow(dead_code)]
pub fn explain(job: &ImportJob) -> ImportReply {
    ImportReply {
        explained: lease_sim::parse_scenario(&job.text)
            .err()
            .map(|e| format!("{}: {e}", shorten(&job.file_name))),
    }
}

/// A name shown back to the visitor, cut so a hostile one cannot flood the page.
pub fn shorten(s: &str) -> String {
    const MAX: usize = 80;
    if s.chars().count() <= MAX {
        s.to_string()
    } else {
        let cut: String = s.chars().take(MAX).collect();
        format!("{cut}…")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn job(text: &str) -> ImportJob {
        ImportJob {
            file_name: "bad.json".into(),
            text: text.into(),
        }
    }

    #[test]
    fn a_negative_timeout_is_named_by_its_field() {
        let reply = explain(&job(r#"{"broker": {"visibility_timeout_ms": -5}}"#));
        let why = reply.explained.unwrap();
        assert_eq!(
            why,
            "bad.json: broker.visibility_timeout_ms: invalid value: integer `-5`, expected u64 (line 1, column 39)"
        );
    }

    #[test]
    fn a_file_that_reads_is_not_explained() {
        assert_eq!(explain(&job(r#"{"seed": 3}"#)).explained, None);
    }

    #[test]
    fn requests_and_replies_cross_as_json() {
        let request = ImportRequest {
            import: job("{\"seed\": -1}"),
        };
        let back: ImportRequest = serde_json::from_str(&request.to_json()).unwrap();
        assert_eq!(back, request);
        let reply = explain(&request.import);
        let back: ImportReply = serde_json::from_str(&reply.to_json()).unwrap();
        assert_eq!(back, reply);
        assert!(reply.explained.unwrap().contains("seed"));
    }

    #[test]
    fn long_names_are_cut() {
        let long = "x".repeat(500);
        assert_eq!(shorten(&long).chars().count(), 81);
    }
}
