//! What is wrong with a lesson, on which line. Every problem names the
//! figure, field, detector or scenario it is about; the parser reports all
//! it finds rather than skipping a step it cannot read.

use std::fmt;

/// A problem and the line of the lesson file it is on (from 1).
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
#[error("line {line}: {problem}")]
pub struct LessonError {
    pub line: usize,
    pub problem: Problem,
}

/// What is wrong.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum Problem {
    #[error("unknown figure or field `{0}`: a goal names one of the run's figures ({figures}) or a field as the share link names it (timeout, workers, hb, cap, mrc, fence, ...)", figures = figure_names())]
    UnknownName(String),
    #[error("bad unit in `{text}`: {why}")]
    BadUnit { text: String, why: String },
    #[error("unknown detector `{0}`: the detectors are {detectors}", detectors = detector_names())]
    UnknownDetector(String),
    #[error("unknown scenario `{0}`: the shipped scenarios are {shipped}", shipped = shipped_names())]
    UnknownScenario(String),
    #[error("the scenario file does not read: {0}")]
    BadScenario(String),
    #[error("field `{field}` {why}")]
    BadField { field: String, why: String },
    #[error("condition `{text}`: {why}")]
    BadCondition { text: String, why: String },
    /// The TOML of the front matter or of a step block, or a step's shape.
    #[error("{0}")]
    Format(String),
}

fn figure_names() -> String {
    crate::goal::figures()
        .map(|f| f.name)
        .collect::<Vec<_>>()
        .join(", ")
}

fn detector_names() -> String {
    lease_diagnose::detector_ids()
        .collect::<Vec<_>>()
        .join(", ")
}

fn shipped_names() -> String {
    lease_sim::shipped::file_names()
        .collect::<Vec<_>>()
        .join(", ")
}

/// Every problem a lesson has, in the order of its lines.
#[derive(Debug, Clone, PartialEq)]
pub struct LessonErrors(pub Vec<LessonError>);

impl fmt::Display for LessonErrors {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (i, e) in self.0.iter().enumerate() {
            if i > 0 {
                writeln!(f)?;
            }
            write!(f, "{e}")?;
        }
        Ok(())
    }
}

impl std::error::Error for LessonErrors {}
