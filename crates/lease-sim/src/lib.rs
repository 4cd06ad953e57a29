//! Lease Playground's engine: a deterministic discrete-event simulation of
//! lease-based message delivery (visibility timeout, peek-lock, ack deadline).
//! MODEL.md is the contract. No web dependency: the page, the command line and
//! the tests all call `simulate`.

pub mod arrivals;
pub mod bench_scenarios;
pub mod clock;
pub mod engine;
pub mod parse;
pub mod report;
pub mod resolve;
pub mod run;
pub mod scenario;
pub mod shipped;
pub mod store;
pub mod validate;
pub mod work;

pub use engine::simulate;
pub use parse::{parse_scenario, ParseError};
pub use report::Report;
pub use run::Run;
pub use scenario::Scenario;
pub use shipped::ShippedScenario;
pub use validate::{estimate, validate, Estimate};

/// How to run a scenario, beyond what the scenario says.
#[derive(Debug, Clone, Default)]
pub struct Options {
    /// Stop at this time if earlier than the scenario's duration ("the first N minutes").
    pub until_ms: Option<u64>,
    /// Check every MODEL.md invariant after every event (slow; for tests).
    pub check_invariants: bool,
    /// A smaller cap on the log than the engine's own (the page's budget).
    /// Whichever cap is lower stops the run: see `Report::stopped`.
    pub max_events: Option<u64>,
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
