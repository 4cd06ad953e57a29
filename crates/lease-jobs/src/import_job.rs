//! Naming the field of a scenario file the page could not read, as a job for
//! a background worker.
//!
//! Why the worker: the page reads files with
//! `lease_sim::parse_scenario_without_path`, which gives a type error's line
//! and column but not its field. The worker tracks the field
//! (`parse_scenario`, through serde_path_to_error) for a message only a
//! broken file needs, and says `broker.visibility_timeout_ms:
//! invalid value: integer `-5`, expected u64 (line 3, column 41)`, as the
//! command line does.

use serde::{Deserialize, Serialize};

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ImportJob {
    pub file_name: String,
    pub text: String,
}

/// The command line's message for the file, field path and all (what
/// `Reply::Explained` carries); `None` if the file reads.
pub fn explain(job: &ImportJob) -> Option<String> {
    lease_sim::parse_scenario(&job.text)
        .err()
        .map(|e| format!("{}: {e}", shorten(&job.file_name)))
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
        let why = explain(&job(r#"{"broker": {"visibility_timeout_ms": -5}}"#)).unwrap();
        assert_eq!(
            why,
            "bad.json: broker.visibility_timeout_ms: invalid value: integer `-5`, expected u64 (line 1, column 39)"
        );
    }

    #[test]
    fn a_file_that_reads_is_not_explained() {
        assert_eq!(explain(&job(r#"{"seed": 3}"#)), None);
    }

    #[test]
    fn long_names_are_cut() {
        let long = "x".repeat(500);
        assert_eq!(shorten(&long).chars().count(), 81);
    }
}
