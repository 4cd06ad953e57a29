//! Lease Playground's engine: a deterministic discrete-event simulation of
//! lease-based message delivery (visibility timeout, peek-lock, ack deadline).
//! docs/MODEL.md holds its rules. No web dependency: the page, the command line and
//! the tests all call `simulate`.
//!
//! Scale: the event log is stored by column (`EventLog`, 17 bytes an entry);
//! `simulate_with_progress` reports as it goes (for the page's Web Worker);
//! `Run::summarise` cuts a large run to a prefix the page can hold;
//! `Run::footprint` counts what a run holds (the `lease-wire` crate moves
//! a run from the worker to the page).

pub mod arrivals;
pub mod bench_scenarios;
pub mod clock;
pub mod engine;
pub mod fit;
pub mod footprint;
pub mod fuzz_check;
pub mod log;
pub mod measure;
pub mod parse;
pub mod report;
pub mod resolve;
pub mod run;
pub mod scenario;
pub mod services;
pub mod shipped;
pub mod store;
pub mod summarise;
mod tagged;
pub mod validate;
pub mod work;

pub use engine::{run_totals, simulate, simulate_with_progress, Progress};
pub use footprint::Footprint;
pub use log::EventLog;
pub use parse::{parse_scenario, parse_scenario_without_path, ParseError};
pub use report::Report;
pub use run::Run;
pub use scenario::Scenario;
pub use shipped::ShippedScenario;
pub use summarise::{Summarised, SummaryLimits};
pub use validate::{estimate, validate, Estimate};

/// How to run a scenario, beyond what the scenario says.
#[derive(Debug, Clone, Default)]
pub struct Options {
    /// Stop at this time if earlier than the scenario's duration ("the first N minutes").
    pub until_ms: Option<u64>,
    /// Check every docs/MODEL.md invariant after every event (slow; for tests).
    pub check_invariants: bool,
    /// A smaller cap on the log than the engine's own (the page's budget).
    /// Whichever cap is lower stops the run: see `Report::stopped`.
    pub max_events: Option<u64>,
    /// Store at most this many log entries; later ones are counted, not
    /// stored (`EventLog::dropped`). Unlike `max_events` it never stops the
    /// run: the report, the deliveries and the messages are those of the
    /// whole run, only the raw log is a prefix.
    pub keep_events: Option<u64>,
    /// Log entries between two progress reports of `simulate_with_progress`
    /// (`engine::PROGRESS_EVERY` if unset): the page asks often, so that it
    /// can stop a run that holds its thread too long.
    pub progress_every: Option<u64>,
}

/// Why a scenario cannot run. Every message names the field, the value and
/// what is allowed.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum SimError {
    #[error("{field} = {value}: {allowed}")]
    Invalid {
        field: String,
        value: String,
        allowed: String,
    },
    #[error("this run is too large: {what} (limit {limit}); reduce {reduce}")]
    TooLarge {
        what: String,
        limit: String,
        reduce: String,
    },
    #[error("invariant broken at t={t} ms: {what}")]
    Invariant { t: u64, what: String },
}
